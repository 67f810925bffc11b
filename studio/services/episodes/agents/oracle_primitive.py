"""The oracle in primitive mode: rebuilds the golden program with real clicks, drags and keys.

It sees what any primitive agent sees (the element list of each observation; never the VM) and
acts only through the primitive action space. For each target whose blocks differ from the
golden ones it selects the sprite, drags every script there onto the palette (which deletes
it), then builds each golden script block by block from the palette (`primitive_plan`): drag a
block to its connection, type its numbers and texts, pick its dropdown values. Variables and
lists the golden project adds are made with the palette's "Make a Variable" / "Make a List"
dialog. Each drop aims a few pixels off the connection on purpose: a block that lands exactly
on the connection has snapped, so every placement is checked on the next observation, and the
oracle says `failed` with the reason when the editor did not do what it meant. Last, it draws
the strokes of `drawing` (a task's `metadata.drawing`) on each sprite's costume with the paint
editor's brush (`paint_plan`).
"""

from __future__ import annotations

import logging
from collections.abc import Generator
from typing import Any

from studio.models.agent import Element, Observation
from studio.services.core.blocks import is_hat, target_name
from studio.services.episodes.agents.paint_plan import Drawing, PaintStuck, paint_steps
from studio.services.episodes.agents.primitive_plan import (
    CONDITION_DX,
    CONDITION_DY,
    GRAB_DX,
    GRAB_DY,
    SUBSTACK2_UP,
    SUBSTACK_DX,
    SUBSTACK_DY,
    TAB,
    Place,
    SetSlot,
    Step,
    build_plan,
    category_of,
    menu_label,
    script_height,
)

__all__ = [
    "AIM_OFF", "COLUMN_WIDTH", "MAX_SCROLLS", "PALETTE_DROP", "PALETTE_TRIES", "ROW_ITEM_DY",
    "ROW_PAD", "SCRIPT_GAP", "SNAPPED", "STACKED", "STAGING_DX", "STAGING_DY", "Action",
    "PrimitiveOracle", "Steps", "Stuck",
]  # fmt: skip

log = logging.getLogger(__name__)
Action = dict[str, Any]
Steps = Generator[Action, Observation, Any]

AIM_OFF = 5  # px: drops aim this far right of the connection; a snap pulls the block back
# (aiming off downwards as well made the editor pick the connection below a C-block's mouth
# instead of the last block in it)
SNAPPED = 3  # px: a block this close to the connection has snapped to it
ROW_ITEM_DY = 16  # px: a reporter in a C-block's top row starts this close to its top
ROW_PAD = 2  # px: the mouth starts this far below the tallest thing in the top row
STAGING_DX = 120  # px: a stacked block first lands this far right of its connection
STAGING_DY = 100  # px: or this far below it
STACKED = ("next", "substack", "substack2")
PALETTE_DROP = (180, 420)  # over the palette: a script dropped here is deleted
MAX_SCROLLS = 8
PALETTE_TRIES = 3
COLUMN_WIDTH = 230
SCRIPT_GAP = 44


class Stuck(Exception):
    """The editor did not do what the oracle meant; the message says what."""


def _norm(text: str | None) -> str:
    return " ".join(str(text or "").replace("\xa0", " ").split()).lower()


class PrimitiveOracle:
    """Solves a task in primitive mode from its golden project (see the module docstring)."""

    name = "oracle"

    def __init__(
        self,
        initial: dict[str, Any],
        golden: dict[str, Any],
        todo: list[str],
        data: Any,
        drawing: Drawing | None = None,
    ) -> None:
        self.initial, self.golden = initial, golden
        self.drawing = drawing or {}  # strokes to draw on costumes, by sprite (paint_plan)
        self.todo = todo
        self.data = data  # {owner or None: [{"api": add_variable|add_list, "args": ...}]}
        self.obs: Observation | None = None
        self.reason = ""
        self.errors: list[str] = []
        self.on_canvas: dict[str, str] = {}  # golden block id -> its block id in the editor
        self.opcodes: dict[str, str] = {}
        self._plan = self._run()
        self._started = False
        self._final: tuple[Action, str] | None = None

    # ---- the agent protocol ------------------------------------------------------------------
    def feedback(self, error: str) -> None:
        self.errors.append(error)
        log.info("primitive oracle: action refused: %s", error)

    async def act(self, observation: Observation) -> tuple[Action, str]:
        self.obs = observation
        if self._final is not None:
            return self._final
        try:
            action = self._plan.send(observation) if self._started else next(self._plan)
            self._started = True
            return action, self.reason
        except StopIteration:
            self._final = ({"api": "done", "args": {}}, "Every target matches the golden program.")
        except Stuck as exc:
            log.warning("primitive oracle stuck: %s", exc)
            self._final = ({"api": "failed", "args": {}}, f"The oracle is stuck: {exc}")
        return self._final

    def _do(self, action: Action, why: str) -> Action:
        self.reason = why
        return action

    # ---- what the screen shows ---------------------------------------------------------------
    @property
    def elements(self) -> list[Element]:
        assert self.obs is not None
        return self.obs.elements

    def _one(self, type_: str, pred: Any) -> Element | None:
        return next((e for e in self.elements if e.type == type_ and pred(e)), None)

    def _canvas(self) -> Element:
        el = self._one("canvas", lambda e: True)
        if el is None:
            raise Stuck("the code area is not on the screen")
        return el

    def _canvas_blocks(self) -> list[Element]:
        return [e for e in self.elements if e.type == "blocks" and e.meta.get("block_id")]

    def _block(self, gid: str) -> Element:
        cid = self.on_canvas.get(gid)
        el = next((e for e in self._canvas_blocks() if e.meta.get("block_id") == cid), None)
        if el is None:
            raise Stuck(f"block {self.opcodes.get(gid, gid)} is not visible on the code area")
        return el

    def _slots_of(self, gid: str) -> list[Element]:
        cid = self.on_canvas.get(gid)
        found = [e for e in self.elements if e.type == "inputs" and e.meta.get("block_id") == cid]
        if not found:
            return []
        top = min(e.y for e in found)
        return sorted((e for e in found if e.y < top + 20), key=lambda e: e.x)

    def _palette_block(self, opcode: str, name: str | None) -> Element | None:
        canvas = self._canvas()
        for e in self.elements:
            if e.type != "blocks" or e.meta.get("block_id") or e.meta.get("opcode") != opcode:
                continue
            if name is not None and _norm(e.meta.get("label")) != _norm(name):
                continue
            if e.y >= canvas.y and e.y + e.h <= canvas.y + canvas.h - 2:
                return e
        return None

    # ---- the plan ------------------------------------------------------------------------------
    def _run(self) -> Steps:
        for action in self.data.get(None, []):
            yield from self._make_data(action)
        for name in self.todo:
            yield from self._select(name)
            for action in self.data.get(name, []):
                yield from self._make_data(action)
            yield from self._clear_scripts()
            golden = next(t for t in self.golden["targets"] if target_name(t) == name)
            blocks = golden.get("blocks") or {}
            for script in build_plan(blocks):
                yield from self._build(script)
        for name, strokes in self.drawing.items():
            yield from self._select(name)
            yield from self._paint(strokes)

    def _paint(self, strokes: list[list[tuple[float, float]]]) -> Steps:
        """Draw `strokes` on the selected sprite's costume (paint_plan.paint_steps)."""
        assert self.obs is not None
        plan = paint_steps(strokes, self.obs)
        try:
            action, why = next(plan)
            while True:
                yield self._do(action, why)
                action, why = plan.send(self.obs)
        except StopIteration:
            return
        except PaintStuck as exc:
            raise Stuck(str(exc)) from None

    def _select(self, name: str) -> Steps:
        def is_it(e: Element) -> bool:
            return bool(e.meta.get("stage")) if name == "Stage" else _norm(e.text) == _norm(name)

        el = self._one("sprites", is_it)
        if el is None:
            raise Stuck(f"{name} is not in the sprite list")
        if not el.meta.get("selected"):
            yield self._do({"api": "click", "args": {"index": el.index}}, f"Select {name}.")
            el = self._one("sprites", is_it)
            if el is None or not el.meta.get("selected"):
                raise Stuck(f"clicking {name} in the sprite list did not select it")

    def _clear_scripts(self) -> Steps:
        for _ in range(100):
            blocks = self._canvas_blocks()
            if not blocks:
                return
            top = min(blocks, key=lambda e: (e.y, e.x))
            yield self._drag(
                (top.x + GRAB_DX, top.y + min(GRAB_DY, top.h / 2)),
                PALETTE_DROP,
                f"Delete the script under {top.meta.get('opcode')}: drop it on the palette.",
            )
        raise Stuck("the code area does not empty")

    def _make_data(self, action: Action) -> Steps:
        is_list = action["api"] == "add_list"
        name, local = action["args"]["name"], action["args"].get("scope") == "sprite"
        yield from self._open_category("variables")
        label = "make a list" if is_list else "make a variable"
        button = self._one("flyout_buttons", lambda e: _norm(e.text) == label)
        if button is None:
            raise Stuck(f"the palette shows no {label!r} button")
        yield self._do({"api": "click", "args": {"index": button.index}}, f"Open {label}.")
        yield self._do({"api": "type", "args": {"text": name}}, f"Name it {name}.")
        if local:
            radio = self._one("inputs", lambda e: "this sprite only" in _norm(e.text))
            if radio is None:
                raise Stuck("the new variable dialog has no 'This sprite only' choice")
            yield self._do({"api": "click", "args": {"index": radio.index}}, "Only this sprite.")
        ok = self._one("buttons", lambda e: _norm(e.text) == "ok")
        if ok is None:
            raise Stuck("the new variable dialog has no OK button")
        yield self._do({"api": "click", "args": {"index": ok.index}}, f"Create {name}.")
        opcode = "data_listcontents" if is_list else "data_variable"
        if self._palette_block(opcode, name) is None:
            raise Stuck(f"{name} did not appear in the palette after creating it")

    def _open_category(self, category: str) -> Steps:
        menu = self._one("category_menu", lambda e: e.meta.get("id") == category)
        if menu is None:
            raise Stuck(f"the category menu has no {category}")
        yield self._do({"api": "click", "args": {"index": menu.index}}, f"Open {menu.text}.")

    def _find_in_palette(self, opcode: str, name: str | None) -> Generator[Action, Any, Element]:
        el = self._palette_block(opcode, name)
        if el is not None:
            return el
        yield from self._open_category(category_of(opcode))
        for _ in range(MAX_SCROLLS):
            el = self._palette_block(opcode, name)
            if el is not None:
                return el
            yield self._do(
                {"api": "scroll", "args": {"direction": "down", "amount": 2, "x": 180, "y": 420}},
                f"Scroll the palette to find {opcode}.",
            )
        raise Stuck(f"{opcode}{f' ({name})' if name else ''} is not in the palette")

    def _drag(self, start: tuple[float, float], end: tuple[float, float], why: str) -> Action:
        sx, sy = start
        ex, ey = end
        args = {"start_x": round(sx), "start_y": round(sy), "end_x": round(ex), "end_y": round(ey)}
        return self._do({"api": "drag_and_drop", "args": args}, why)

    # ---- building a script ---------------------------------------------------------------------
    def _build(self, script: list[Step]) -> Steps:
        for step in script:
            if isinstance(step, Place):
                self.opcodes[step.gid] = step.opcode
                yield from self._place(step, script)
            else:
                yield from self._set_slot(step)

    def _target_of(self, step: Place, size: Element, script: list[Step]) -> tuple[float, float]:
        """Where the new block's corner must land for the connection `step` asks for."""
        if step.where == "script":
            return self._free_spot(script_height(script))
        assert step.parent is not None
        parent = self._block(step.parent)
        if step.where == "next":
            return parent.x, parent.y + parent.h - TAB
        if step.where == "substack":
            return parent.x + SUBSTACK_DX, self._mouth_top(parent)
        if step.where == "substack2":
            return parent.x + SUBSTACK_DX, parent.y + parent.h - SUBSTACK2_UP
        if step.where == "condition":
            opcode = self.opcodes.get(step.parent, "")
            if opcode in CONDITION_DX:
                return parent.x + CONDITION_DX[opcode], parent.y + CONDITION_DY
            return parent.x + (8 if step.slot == 0 else parent.w - 35), parent.y + 3
        shown = self._slots_of(step.parent)
        if step.slot >= len(shown):
            raise Stuck(f"{self.opcodes.get(step.parent)} shows no slot {step.slot + 1}")
        slot = shown[step.slot]
        return slot.x, slot.y + slot.h / 2 - size.h / 2  # a slot's box is its oval

    def _mouth_top(self, c_block: Element) -> float:
        """Where the first substack of a C-block starts: below its top row, which a condition
        or a reporter in it makes taller than the usual 48 units."""
        top = c_block.y + SUBSTACK_DY
        for e in self._canvas_blocks():
            in_row = c_block.y <= e.y <= c_block.y + ROW_ITEM_DY
            if e is not c_block and in_row and c_block.x < e.x < c_block.x + c_block.w:
                top = max(top, e.y + e.h + ROW_PAD)
        return top

    def _free_spot(self, height: float) -> tuple[float, float]:
        canvas = self._canvas()
        blocks = self._canvas_blocks()
        best: tuple[float, float] | None = None
        for column in range(2):
            x = canvas.x + 24 + column * COLUMN_WIDTH
            below = [b.y + b.h for b in blocks if x - 10 <= b.x < x + COLUMN_WIDTH - 10]
            y = max(below) + SCRIPT_GAP if below else canvas.y + 30
            if y + height <= canvas.y + canvas.h - 10:
                return x, y
            best = best or (x, y)
        assert best is not None
        return best

    def _place(self, step: Place, script: list[Step]) -> Steps:
        source = yield from self._find_in_palette(step.opcode, step.name)
        gx = GRAB_DX
        gy = source.h - 16 if is_hat(step.opcode) else min(GRAB_DY, source.h / 2)
        x, y = self._target_of(step, source, script)
        canvas = self._canvas()
        room_x = x + gx + (STAGING_DX if step.where in STACKED else 0)
        if not (
            canvas.x <= room_x < canvas.x + canvas.w and canvas.y <= y + gy < canvas.y + canvas.h
        ):
            raise Stuck(f"no room on the code area for {step.opcode} at ({x:.0f}, {y:.0f})")
        before = {e.meta.get("block_id") for e in self._canvas_blocks()}
        what = f"{step.opcode}{f' ({step.name})' if step.name else ''}"
        if step.where in STACKED:
            # On its way from the palette a block passes other connections: the editor shows
            # where it would go there, shifts the blocks below, and sticks to that choice near
            # the end. So the block first lands clear of the script, level with its connection,
            # and then comes back to it from the right.
            # Below the end of a script nothing else can catch it; inside a C-block's mouth the
            # connection under the C-block would, so there it comes from the right.
            x_free, y_free = x + STAGING_DX, y
            room_below = y + STAGING_DY + gy < canvas.y + canvas.h - 4
            if step.where == "next" and not step.nested and room_below:
                x_free, y_free = x, y + STAGING_DY
            source = yield from self._from_palette(
                step, before, (x_free + gx, y_free + gy), (gx, gy), "near where it goes"
            )
            if abs(source.x - x_free) > SNAPPED or abs(source.y - y_free) > SNAPPED:
                raise Stuck(f"{what} connected somewhere on its way from the palette")
            x, y = self._target_of(step, source, script)
            end = (x + gx + AIM_OFF, y + gy)  # aimed off: a block exactly on it has snapped
            yield self._drag((source.x + gx, source.y + gy), end, f"Drag {what} to {step.where}.")
            block = self._new_block(before, step.opcode, what, (x, y))
        else:
            block = yield from self._from_palette(
                step, before, (x + gx, y + gy), (gx, gy), f"to {step.where}"
            )
        self.on_canvas[step.gid] = str(block.meta.get("block_id"))
        if step.where in STACKED:
            if abs(block.x - x) > SNAPPED or abs(block.y - y) > SNAPPED:
                raise Stuck(
                    f"{what} did not snap into place ({step.where}): it is at "
                    f"({block.x:g}, {block.y:g}), the connection at ({x:.0f}, {y:.0f})"
                )
        elif step.where in ("slot", "condition"):
            assert step.parent is not None
            parent = self._block(step.parent)
            inside = parent.x < block.x < parent.x + parent.w and parent.y <= block.y
            if not inside or block.y > parent.y + 40:
                raise Stuck(f"{what} did not go into its slot of {self.opcodes[step.parent]}")

    def _from_palette(
        self,
        step: Place,
        before: set[Any],
        end: tuple[float, float],
        grab: tuple[float, float],
        where: str,
    ) -> Generator[Action, Any, Element]:
        """Drag a new block of `step` from the palette, holding it at `grab` from its corner,
        and release it at `end`; the block it made. The palette may still have been scrolling
        when it was observed (a busy machine): a drag that made no block is tried again."""
        what = f"{step.opcode}{f' ({step.name})' if step.name else ''}"
        for _ in range(PALETTE_TRIES):
            source = yield from self._find_in_palette(step.opcode, step.name)
            start = (source.x + grab[0], source.y + grab[1])
            yield self._drag(start, end, f"Drag {what} from the palette {where}.")
            new = self._new_blocks(before, step.opcode)
            if new:
                return min(
                    new, key=lambda e: abs(e.x + grab[0] - end[0]) + abs(e.y + grab[1] - end[1])
                )
            log.info("primitive oracle: dragging %s made no block; trying again", what)
        raise Stuck(f"dragging {what} from the palette put no block on the code area")

    def _new_blocks(self, before: set[Any], opcode: str) -> list[Element]:
        return [
            e
            for e in self._canvas_blocks()
            if e.meta.get("block_id") not in before and e.meta.get("opcode") == opcode
        ]

    def _new_block(
        self, before: set[Any], opcode: str, what: str, near: tuple[float, float]
    ) -> Element:
        """The block of `opcode` that appeared since `before` (the one nearest `near`)."""
        new = [
            e
            for e in self._canvas_blocks()
            if e.meta.get("block_id") not in before and e.meta.get("opcode") == opcode
        ]
        if not new:
            raise Stuck(f"dragging {what} from the palette put no block on the code area")
        return min(new, key=lambda e: abs(e.x - near[0]) + abs(e.y - near[1]))

    def _set_slot(self, step: SetSlot) -> Steps:
        owner = self.opcodes.get(step.gid, step.gid)

        def slot() -> Element:
            shown = self._slots_of(step.gid)
            if step.slot >= len(shown):
                raise Stuck(f"{owner} shows no slot {step.slot + 1} (it shows {len(shown)})")
            return shown[step.slot]

        el = slot()
        if step.kind == "text":
            if _norm(el.meta.get("value")) == _norm(step.value):
                return
            yield self._do({"api": "click", "args": {"index": el.index}}, f"Edit {owner}.")
            yield self._do({"api": "hotkey", "args": {"keys": ["ctrl", "a"]}}, "Select the text.")
            yield self._do({"api": "type", "args": {"text": step.value}}, f"Type {step.value}.")
            yield self._do({"api": "key", "args": {"key": "Enter"}}, "Confirm.")
        else:
            label = menu_label(step.value)
            if _norm(el.meta.get("value")) == _norm(label):
                return
            yield self._do({"api": "click", "args": {"index": el.index}}, f"Open {owner}'s menu.")
            item = self._one("menu_items", lambda e: _norm(e.text) == _norm(label))
            if item is None:
                yield self._do({"api": "key", "args": {"key": "Escape"}}, "Close the menu.")
                raise Stuck(f"the menu of {owner} has no item {label!r}")
            yield self._do({"api": "click", "args": {"index": item.index}}, f"Pick {label}.")
        got = slot().meta.get("value")
        want = step.value if step.kind == "text" else menu_label(step.value)
        if _norm(got) != _norm(want):
            raise Stuck(f"{owner} shows {got!r} after setting it to {want!r}")

"""Primitive mode: the agent sees a screenshot and an element list, and acts with mouse and keys.

Observation (FORMATS.md section 3): a PNG screenshot of the 1280x720 page plus the element list
that `resources/js/elements.js` collects from the DOM (visible, topmost, inside the viewport),
fused with OCR text boxes (`episodes.ocr.fuse`). Element order: by type in the order of
`studio.services.runtime.page_lists.ELEMENT_TYPES` (inputs, sprites, blocks - canvas blocks before
flyout blocks -, category_menu, flyout_buttons, buttons, menu_items, monitors, stage, canvas),
within a type top-to-bottom then left-to-right; OCR `text` boxes come last. Indexes are
0..n-1 and refer to that observation until the next one.

Actions are real Playwright mouse and keyboard input, nothing semantic: an index resolves to
the centre of the element in the last observation, exactly as an agent clicking there would. A
`stroke` presses at its first point, moves through the others and releases at the last.
Every outcome names the element under the press point (`"blocks: motion_movesteps"`).
`execute` dispatches through `PRIMITIVE_ACTIONS` (episodes.action_table): one typed handler
per kind of `PRIMITIVE_APIS`.
"""

from __future__ import annotations

import asyncio
import base64
import os
import re
import time
from typing import Any

from playwright.async_api import Error as PlaywrightError

from studio.models.agent import (
    PRIMITIVE_APIS,
    ActionError,
    ClickArgs,
    DragArgs,
    Element,
    HotkeyArgs,
    KeyArgs,
    Mode,
    Observation,
    PointArgs,
    ScrollArgs,
    StrokeArgs,
    TypeArgs,
)
from studio.services.episodes.action_table import ENDS_EPISODE, ActionTable, handles
from studio.services.episodes.modes import VIEWPORT, ActionOutcome
from studio.services.episodes.ocr import CachedOcr, OcrBackend, OcrBox, make_backend
from studio.services.episodes.ocr.fuse import MIN_SCORE, covering_rects, fuse
from studio.services.runtime import page_scripts
from studio.services.runtime.page_seam import EditorPage
from studio.services.runtime.screenshots import shot_png

__all__ = [
    "ACTION_SETTLE_MS", "DRAG_STEPS_PER_S", "MIN_DRAG_STEPS", "NO_ELEMENT_LIST",
    "OBSERVE_SETTLE_MS", "PRIMITIVE_ACTIONS", "WHEEL_PX_PER_UNIT", "PrimitiveMode", "check_point",
    "element_centre", "normalize_key", "ocr_enabled_by_default",
]  # fmt: skip

MIN_DRAG_STEPS = 10
DRAG_STEPS_PER_S = 60  # mouse moves per second of a drag given a duration
WHEEL_PX_PER_UNIT = 100  # one scroll unit is one wheel notch
OBSERVE_SETTLE_MS = 1500  # wait for flyout / workspace scrolling to end before a screenshot
ACTION_SETTLE_MS = 600
NO_ELEMENT_LIST = (
    "No element list in this episode (screenshots only): give every point as x and y in "
    "screenshot pixels."
)

_KEY_ALIASES = {
    "enter": "Enter",
    "return": "Enter",
    "backspace": "Backspace",
    "bksp": "Backspace",
    "tab": "Tab",
    "esc": "Escape",
    "escape": "Escape",
    "space": "Space",
    "spacebar": "Space",
    " ": "Space",
    "delete": "Delete",
    "del": "Delete",
    "insert": "Insert",
    "home": "Home",
    "end": "End",
    "pageup": "PageUp",
    "pgup": "PageUp",
    "pagedown": "PageDown",
    "pgdn": "PageDown",
    "up": "ArrowUp",
    "down": "ArrowDown",
    "left": "ArrowLeft",
    "right": "ArrowRight",
    "arrowup": "ArrowUp",
    "arrowdown": "ArrowDown",
    "arrowleft": "ArrowLeft",
    "arrowright": "ArrowRight",
    "ctrl": "Control",
    "control": "Control",
    "alt": "Alt",
    "option": "Alt",
    "shift": "Shift",
    "meta": "Meta",
    "cmd": "Meta",
    "command": "Meta",
    "win": "Meta",
    "super": "Meta",
    "capslock": "CapsLock",
}


def normalize_key(name: str) -> str:
    """A Playwright key name for what agents commonly write ("enter", "ctrl+a", "space")."""
    if len(name) > 1 and "+" in name.strip("+"):
        return "+".join(normalize_key(part) for part in name.split("+") if part)
    alias = _KEY_ALIASES.get(name.lower()) or _KEY_ALIASES.get(name.strip().lower())
    if alias:
        return alias
    if re.fullmatch(r"[fF]([1-9]|1[0-9]|2[0-4])", name):
        return name.upper()
    return name


def ocr_enabled_by_default() -> bool:
    """OCR is on unless `$STUDIO_OCR` says off (off, 0, none, false)."""
    return os.environ.get("STUDIO_OCR", "").strip().lower() not in ("off", "0", "none", "false")


def element_centre(elements: list[Element], index: int, observed: bool) -> tuple[float, float]:
    """The centre of element `index` of the last observation; ActionError saying what to fix."""
    if not observed:
        raise ActionError(f"index {index}: there is no observation yet; observe, then use an index")
    if not 0 <= index < len(elements):
        span = f"0-{len(elements) - 1}" if elements else "none"
        raise ActionError(
            f"index {index} does not exist: the last observation listed {len(elements)} "
            f"elements (indexes {span}); use one of them or give x/y"
        )
    el = elements[index]
    return el.x + el.w / 2, el.y + el.h / 2


def check_point(x: float, y: float, width: int, height: int, what: str = "point") -> None:
    """Raise ActionError unless (x, y) lies inside the width x height viewport."""
    if not (0 <= x < width and 0 <= y < height):
        raise ActionError(
            f"{what} ({x:g}, {y:g}) is outside the {width}x{height} viewport; "
            f"use 0 <= x < {width} and 0 <= y < {height}"
        )


class PrimitiveMode:
    """ModeHandler for primitive mode: screenshot + fused element list; mouse and keys.

    `ocr=False` skips OCR (DOM elements only); the default is on unless `$STUDIO_OCR` is
    `off`. `element_list=False` is ScratchWorld's "screenshots only" ablation: the agent's
    observation has no elements (the mode still reads them, to name what an action hit and
    where an unpointed scroll acts; OCR is off), and an action naming an element index is
    refused: the agent acts by coordinates only. The backend defaults to the offline RapidOCR
    one (`$STUDIO_OCR=paddleocr` picks PaddleOCR); recognized boxes are cached by screenshot
    hash. `last_timings` holds the duration of the parts of the last observation (ms), for
    benchmarks and the debugger.
    """

    mode = Mode.PRIMITIVE

    def __init__(
        self,
        ocr: bool | None = None,
        backend: OcrBackend | None = None,
        min_score: float = MIN_SCORE,
        element_list: bool = True,
    ) -> None:
        self.element_list = element_list
        self.ocr = (ocr_enabled_by_default() if ocr is None else ocr) and element_list
        self.min_score = min_score
        self._backend = backend
        self._ocr: CachedOcr | None = None
        self._observed = False
        self.elements: list[Element] = []
        self.last_timings: dict[str, float] = {}

    # ---- page helpers -----------------------------------------------------------------------
    async def _js(self, page: EditorPage, name: str, *args: Any) -> Any:
        return await page_scripts.call(page, page_scripts.ELEMENTS, name, *args)

    def _ocr_engine(self) -> CachedOcr:
        if self._ocr is None:
            self._ocr = CachedOcr(self._backend or make_backend())
        return self._ocr

    @staticmethod
    def _viewport(page: EditorPage) -> tuple[int, int]:
        size = page.viewport_size or VIEWPORT
        return int(size["width"]), int(size["height"])

    # ---- ModeHandler ------------------------------------------------------------------------
    async def setup(self, page: EditorPage) -> None:
        """Inject the element collector and load the OCR models before the first step."""
        await page_scripts.install(page, page_scripts.ELEMENTS)
        if self.ocr:
            warm_up = getattr(self._ocr_engine().backend, "warm_up", None)
            if warm_up is not None:
                await warm_up()

    async def observe(self, page: EditorPage, step: int) -> Observation:
        t0 = time.perf_counter()
        await self._js(page, "settle", OBSERVE_SETTLE_MS, 2)
        t1 = time.perf_counter()
        png = await shot_png(page)
        t2 = time.perf_counter()
        dom = fuse(await self._js(page, "collect"))
        t3 = time.perf_counter()
        boxes: list[OcrBox] = []
        if self.ocr:
            boxes = await self._ocr_engine().recognize(png, covering_rects(dom))
        self.elements = fuse(dom, boxes, self.min_score)
        self._observed = True
        t4 = time.perf_counter()
        self.last_timings = {
            "settle_ms": (t1 - t0) * 1000,
            "screenshot_ms": (t2 - t1) * 1000,
            "elements_ms": (t3 - t2) * 1000,
            "ocr_ms": (t4 - t3) * 1000,
            "total_ms": (t4 - t0) * 1000,
        }
        return Observation(
            mode=Mode.PRIMITIVE,
            step=step,
            screenshot_png_b64=base64.b64encode(png).decode("ascii"),
            elements=self.elements if self.element_list else [],
            text=None if self.element_list else NO_ELEMENT_LIST,
        )

    async def execute(self, page: EditorPage, action: Any) -> ActionOutcome:
        """Perform `action` through `PRIMITIVE_ACTIONS`, then let the editor settle; done and
        failed do nothing on the page (the episode ends itself)."""
        if PRIMITIVE_ACTIONS.ends(action.api):
            return ActionOutcome()
        outcome = await PRIMITIVE_ACTIONS.perform(self, page, action.api, action.args)
        await self._js(page, "settle", ACTION_SETTLE_MS, 2)
        return outcome

    # ---- actions ----------------------------------------------------------------------------
    def _point(
        self, page: EditorPage, x: float | None, y: float | None, index: int | None, what: str
    ) -> tuple[float, float]:
        if index is not None and not self.element_list:
            raise ActionError(
                f"{what}: index {index}: this episode has no element list (screenshots only); "
                "give x and y"
            )
        if index is not None:
            x, y = element_centre(self.elements, index, self._observed)
        if x is None or y is None:
            raise ActionError(f"{what}: give x and y or an index")
        check_point(x, y, *self._viewport(page), what=what)
        return float(x), float(y)

    async def _do_click(self, page: EditorPage, args: ClickArgs) -> ActionOutcome:
        x, y = self._point(page, args.x, args.y, args.index, "click point")
        target = await self._js(page, "describeAt", x, y)
        await page.mouse.click(x, y, button=args.button)
        return ActionOutcome(target, {"x": x, "y": y, "button": args.button})

    async def _do_double_click(self, page: EditorPage, args: PointArgs) -> ActionOutcome:
        x, y = self._point(page, args.x, args.y, args.index, "double-click point")
        target = await self._js(page, "describeAt", x, y)
        await page.mouse.dblclick(x, y)
        return ActionOutcome(target, {"x": x, "y": y})

    async def _do_drag_and_drop(self, page: EditorPage, args: DragArgs) -> ActionOutcome:
        sx, sy = self._point(page, args.start_x, args.start_y, args.start_index, "drag start")
        ex, ey = self._point(page, args.end_x, args.end_y, args.end_index, "drag end")
        target, end_target = await self._js(page, "describePoints", [[sx, sy], [ex, ey]], True)
        duration = args.duration or 0.0
        steps = max(MIN_DRAG_STEPS, round(duration * DRAG_STEPS_PER_S))
        await page.mouse.move(sx, sy)
        await page.mouse.down()
        try:
            if duration > 0:
                for i in range(1, steps + 1):
                    f = i / steps
                    await page.mouse.move(sx + (ex - sx) * f, sy + (ey - sy) * f)
                    await asyncio.sleep(duration / steps)
            else:
                await page.mouse.move(ex, ey, steps=steps)
        finally:
            await page.mouse.up()
        detail = {"start": [sx, sy], "end": [ex, ey], "steps": steps, "end_target": end_target}
        return ActionOutcome(target, detail)

    async def _do_stroke(self, page: EditorPage, args: StrokeArgs) -> ActionOutcome:
        """Press at the first point, move through the others in order, release at the last;
        every point must lie on the screen (checked before anything is pressed)."""
        width, height = self._viewport(page)
        points = [(float(x), float(y)) for x, y in args.points]
        for n, (x, y) in enumerate(points, 1):
            check_point(x, y, width, height, what=f"stroke point {n}")
        target = await self._js(page, "describeAt", *points[0])
        pause = (args.duration or 0.0) / (len(points) - 1)
        await page.mouse.move(*points[0])
        await page.mouse.down()
        try:
            for x, y in points[1:]:
                await page.mouse.move(x, y, steps=MIN_DRAG_STEPS)
                if pause > 0:
                    await asyncio.sleep(pause)
        finally:
            await page.mouse.up()
        return ActionOutcome(target, {"points": [list(p) for p in points]})

    async def _do_scroll(self, page: EditorPage, args: ScrollArgs) -> ActionOutcome:
        if args.index is None and args.x is None:
            x, y = await self._canvas_centre(page)
        else:
            x, y = self._point(page, args.x, args.y, args.index, "scroll point")
        pixels = args.amount * WHEEL_PX_PER_UNIT
        dx = {"left": -pixels, "right": pixels}.get(args.direction, 0.0)
        dy = {"up": -pixels, "down": pixels}.get(args.direction, 0.0)
        target = await self._js(page, "describeAt", x, y)
        await page.mouse.move(x, y)
        await page.mouse.wheel(dx, dy)
        return ActionOutcome(target, {"x": x, "y": y, "dx": dx, "dy": dy})

    async def _canvas_centre(self, page: EditorPage) -> tuple[float, float]:
        for el in self.elements:
            if el.type == "canvas":
                return el.x + el.w / 2, el.y + el.h / 2
        box = await self._js(page, "canvasBox")
        if box:
            return box["x"] + box["w"] / 2, box["y"] + box["h"] / 2
        width, height = self._viewport(page)
        return width / 2, height / 2

    async def _do_type(self, page: EditorPage, args: TypeArgs) -> ActionOutcome:
        target = await self._js(page, "describeFocus")
        await page.keyboard.type(args.text)
        return ActionOutcome(target, {"text": args.text})

    async def _do_key(self, page: EditorPage, args: KeyArgs) -> ActionOutcome:
        key = normalize_key(args.key)
        target = await self._js(page, "describeFocus")
        try:
            await page.keyboard.press(key)
        except PlaywrightError as exc:
            raise ActionError(f"key {args.key!r} is not a key name ({_first_line(exc)})") from None
        return ActionOutcome(target, {"key": key})

    async def _do_hotkey(self, page: EditorPage, args: HotkeyArgs) -> ActionOutcome:
        keys = [normalize_key(k) for k in args.keys]
        target = await self._js(page, "describeFocus")
        pressed: list[str] = []
        try:
            for key in keys:
                await page.keyboard.down(key)
                pressed.append(key)
        except PlaywrightError as exc:
            raise ActionError(
                f"hotkey {args.keys!r}: {keys[len(pressed)]!r} is not a key name "
                f"({_first_line(exc)})"
            ) from None
        finally:
            for key in reversed(pressed):
                await page.keyboard.up(key)
        return ActionOutcome(target, {"keys": keys})


# Each primitive action kind of the models (`PRIMITIVE_APIS`) and what performs it.
PRIMITIVE_ACTIONS: ActionTable[PrimitiveMode] = ActionTable(
    {
        "click": handles(ClickArgs, PrimitiveMode._do_click),
        "double_click": handles(PointArgs, PrimitiveMode._do_double_click),
        "drag_and_drop": handles(DragArgs, PrimitiveMode._do_drag_and_drop),
        "stroke": handles(StrokeArgs, PrimitiveMode._do_stroke),
        "scroll": handles(ScrollArgs, PrimitiveMode._do_scroll),
        "type": handles(TypeArgs, PrimitiveMode._do_type),
        "key": handles(KeyArgs, PrimitiveMode._do_key),
        "hotkey": handles(HotkeyArgs, PrimitiveMode._do_hotkey),
        "done": ENDS_EPISODE,
        "failed": ENDS_EPISODE,
    }
)
PRIMITIVE_ACTIONS.check(PRIMITIVE_APIS, "primitive")


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__

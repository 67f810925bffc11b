# ruff: noqa: E501, UP031  (page scripts are kept as they read in the browser)
"""Write the published-style diagnostics fixture (see the package docstring).

    PYTHONPATH=. .venv/bin/python -m tests.helpers.published_diag.build OUT [ID...]

Takes a few minutes: every feasible point is a real drag. With IDs, only those items are
written (to try an item out; the questions are not written then).

Between trials, the drag is undone and the screen put back as it was, the palette's scroll
included: a press beside a palette block drags the palette itself.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.services.core.projectbuild import ProjectBuilder
from studio.services.core.sb3 import build_sb3
from studio.services.diagnostics.drag.page import open_window
from studio.services.runtime import page_scripts
from studio.services.runtime.browser import BrowserPool
from tests.helpers.published_set.kit import b, changex, flag, goto, look, move, op, say, show

GRID = 5
STEPS = 15  # the published drag_and_drop: max(10, int(0.5 * 30)) mouse steps
PAGES = 3


@dataclass
class ItemSpec:
    id: str
    category: str
    instruction: str
    make: Any  # () -> ProjectBuilder
    positions: dict[str, tuple[float, float]]  # opcode of a top block -> workspace x, y
    target: tuple[str, str]  # ("canvas" | "flyout", opcode)
    reference: str  # opcode
    connection: str
    input_name: str | None = None
    sprite: str | None = None
    categories: list[str] = field(default_factory=list)  # palette categories to click
    flyout_wheel: int = 0
    zoom_in: int = 0
    wheel: tuple[int, int] = (0, 0)  # code-area wheel scroll (right, down)
    variable_name: str | None = None
    tail: str | None = None  # opcode of the dragged stack's last block


def _cat_ball_star(ball: list[Any], star: list[Any] | None = None) -> ProjectBuilder:
    p = ProjectBuilder()
    cat = p.add_sprite("Cat", [look("cat", 60, 50, "#f7a21b", bitmap=True)], x=-60)
    cat.add_script(flag(), say("Hello!"))
    ball_sprite = p.add_sprite("Ball", [look("ball", 40, 40, "#4c97ff", "circle", True)], x=60)
    for script in ball:
        ball_sprite.add_script(*script)
    if star is not None:
        star_sprite = p.add_sprite("Star", [look("star", 36, 36, "#ffd500", bitmap=True)], y=80)
        for script in star:
            star_sprite.add_script(*script)
    return p


def _cat(*scripts: list[Any], variables: tuple[str, ...] = ()) -> ProjectBuilder:
    p = ProjectBuilder()
    for name in variables:
        p.add_variable(name, 0)
    cat = p.add_sprite("Cat", [look("cat", 60, 50, "#f7a21b", bitmap=True, resolution=1)])
    for script in scripts:
        cat.add_script(*script)
    return p


SPECS = [
    ItemSpec(
        "T1_001",
        "T1",
        "Drag the 'change x by' block so it attaches below the 'show' block.",
        lambda: _cat_ball_star([[flag(), goto(0, 0), show()], [b("motion_changexby", DX=10)]]),
        {"event_whenflagclicked": (520, 560), "motion_changexby": (840, 690)},
        ("canvas", "motion_changexby"),
        "looks_show",
        "next",
        sprite="Ball",
        wheel=(0, 300),
    ),
    ItemSpec(
        "T1_002",
        "T1",
        "Drag the 'set x' stack so it sits above the 'turn' block.",
        lambda: _cat_ball_star(
            [[flag(), show()]],
            [
                [b("motion_turnright", DEGREES=15), move(10)],
                [b("motion_setx", X=0), b("motion_changeyby", DY=5)],
            ],
        ),
        {"motion_turnright": (420, 420), "motion_setx": (160, 140)},
        ("canvas", "motion_setx"),
        "motion_turnright",
        "parent",
        sprite="Star",
        categories=["Looks"],
        flyout_wheel=120,
        tail="motion_changeyby",
    ),
    ItemSpec(
        "T1_003",
        "T1",
        "Drag the 'add' block into the input of the 'change x by' block.",
        lambda: _cat([flag(), goto(0, 0), changex(10)], [op("add", 1, 2)]),
        {"event_whenflagclicked": (300, 420), "operator_add": (520, 640)},
        ("canvas", "operator_add"),
        "motion_changexby",
        "input",
        input_name="DX",
        zoom_in=1,
        wheel=(0, 250),
    ),
    ItemSpec(
        "T2_001",
        "T2",
        "Drag a 'next costume' block from the palette so it attaches below the 'go to x: y:' "
        "block.",
        lambda: _cat([flag(), goto(0, 0)]),
        {"event_whenflagclicked": (260, 160)},
        ("flyout", "looks_nextcostume"),
        "motion_gotoxy",
        "next",
        categories=["Looks"],
    ),
]


def build_project(spec: ItemSpec) -> tuple[bytes, dict[str, Any]]:
    p = spec.make()
    data = p.to_json()
    for target in data["targets"]:
        for block in target["blocks"].values():
            if block.get("topLevel") and block["opcode"] in spec.positions:
                block["x"], block["y"] = spec.positions[block["opcode"]]
    return build_sb3(data, p.assets()), data


def block_id(data: dict[str, Any], sprite: str, opcode: str) -> str:
    for target in data["targets"]:
        if target["name"] == sprite:
            for bid, block in target["blocks"].items():
                if block["opcode"] == opcode:
                    return str(bid)
    raise KeyError(f"{sprite} has no {opcode}")


# ---- the page, prepared as a person would ------------------------------------------------------
CENTRE_OF = """([kind, name]) => {
  const centre = (el) => { const r = el.getBoundingClientRect();
    return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]; };
  if (kind === 'sprite') {
    const tile = [...document.querySelectorAll('[class*="sprite-selector_sprite-wrapper"]')]
      .find((t) => (t.innerText || '').trim().split('\\n')[0] === name);
    return tile ? centre(tile) : null;
  }
  if (kind === 'category') {
    const item = [...document.querySelectorAll('.blocklyToolboxCategory, .scratchCategoryMenuItem')]
      .find((i) => (i.innerText || '').trim() === name);
    return item ? centre(item) : null;
  }
  if (kind === 'flyout') { const f = document.querySelector('.blocklyFlyout');
    return f ? centre(f) : null; }
  if (kind === 'code') { const c = document.querySelector('.blocklyMainBackground');
    const r = c.getBoundingClientRect();
    return [Math.round(r.left + r.width * 0.6), Math.round(r.top + r.height * 0.5)]; }
  if (kind === 'zoom_in') { const z = document.querySelector('.blocklyZoom > image, .blocklyZoom image');
    const all = [...document.querySelectorAll('.blocklyZoom image')];
    const el = all.find((i) => /zoom-in/.test(i.getAttribute('xlink:href') || i.getAttribute('href') || '')) || z;
    return el ? centre(el) : null; }
  return null;
}"""

WORKSPACE_STATE = """() => { const w = window.workspace;
  const t = document.querySelector('.blocklyMainBackground').parentNode
    .querySelector('.blocklyBlockCanvas').getAttribute('transform') || '';
  const m = /translate\\(([-\\d.e]+)[ ,]+([-\\d.e]+)\\)/.exec(t);
  return { tx: m ? Number(m[1]) : null, ty: m ? Number(m[2]) : null, scale: w.scale,
           scrollX: w.scrollX, scrollY: w.scrollY, transform: t }; }"""

FLYOUT_Y = "() => window.workspace.getFlyout().getWorkspace().scrollY"

SNAPSHOT = """() => { const bl = window.vm.editingTarget.blocks._blocks;
  return JSON.stringify(Object.keys(bl).sort().map((id) => { const k = bl[id];
    return [id, k.opcode, k.parent, k.next, k.topLevel, k.topLevel ? Math.round(k.x) : 0,
      k.topLevel ? Math.round(k.y) : 0, JSON.stringify(k.inputs)]; })); }"""

# The same without shadow blocks, whose ids are new at every load.
SHAPE = """() => { const bl = window.vm.editingTarget.blocks._blocks;
  return JSON.stringify(Object.keys(bl).filter((id) => !bl[id].shadow).sort().map((id) => {
    const k = bl[id]; return [id, k.opcode, k.parent, k.next, k.topLevel, Math.round(k.x || 0),
      Math.round(k.y || 0)]; })); }"""

# The published check (SCRATCHWORLD_API.md section 9, step 7), on the VM's blocks.
VERDICT = """async ([spec, before]) => {
  await window.studioDrag.settle(); await window.studioDrag.settle();
  const bl = window.vm.editingTarget.blocks._blocks;
  let id = spec.target_id;
  if (!id) id = Object.keys(bl).find((k) => !before.includes(k) && bl[k].opcode === spec.opcode
    && !bl[k].shadow) || null;
  const b = id && bl[id];
  const ref = bl[spec.reference_id];
  let moved = Boolean(b) && (spec.target_id ? (b.parent !== spec.parent0 ||
    Math.round(b.x || 0) !== spec.x0 || Math.round(b.y || 0) !== spec.y0) : true);
  let ok = false;
  if (b && ref) {
    if (spec.connection === 'next') ok = ref.next === id;
    else if (spec.connection === 'parent') {
      let cur = id; for (let i = 0; i < 50 && bl[cur]; i += 1) {
        if (bl[cur].next === spec.reference_id) { ok = true; break; } cur = bl[cur].next; }
    } else if (spec.connection === 'substack_1') ok = (ref.inputs.SUBSTACK || {}).block === id;
    else if (spec.connection === 'input') ok = (ref.inputs[spec.input] || {}).block === id;
    if (ok && spec.variable) ok = (b.fields.VARIABLE || [])[0] === spec.variable ||
      (b.fields.VARIABLE || {}).value === spec.variable;
  }
  return { moved, ok };
}"""

UNDO = (
    """async ([snapshot, state]) => { const w = window.workspace;
  const snap = () => (%s)();
  for (let i = 0; i < 12 && snap() !== snapshot && w.getUndoStack().length; i += 1) {
    w.undo(false); await window.studioDrag.settle(); }
  w.clearUndo();
  if (w.scrollX !== state.scrollX || w.scrollY !== state.scrollY) {
    w.scroll(state.scrollX, state.scrollY); await window.studioDrag.settle(); }
  // a press beside the palette block drags the palette's own scroll: put it back
  const fly = w.getFlyout(); const fw = fly.getWorkspace();
  if (Math.abs(fw.scrollY - state.flyoutY) > 0.01) {
    if (fly.scrollbar) fly.scrollbar.set(-state.flyoutY); else fw.scroll(fw.scrollX, state.flyoutY);
    await window.studioDrag.settle(); }
  return snap() === snapshot && Math.abs(w.scrollX - state.scrollX) < 0.01 &&
    Math.abs(w.scrollY - state.scrollY) < 0.01 && Math.abs(fw.scrollY - state.flyoutY) < 0.01;
}"""
    % SNAPSHOT
)


class Page:
    def __init__(self, page: Any) -> None:
        self.page = page

    async def centre(self, kind: str, name: str = "") -> list[int]:
        point = await self.page.evaluate(CENTRE_OF, [kind, name])
        if point is None:
            raise RuntimeError(f"no {kind} {name} on the page")
        return list(point)

    async def frames(self, n: int = 20) -> None:
        for _ in range(n):
            await self.page.evaluate("() => window.studioDrag.settle()")

    async def prepare(self, spec: ItemSpec, sb3: bytes) -> dict[str, Any]:
        """Load, small stage, clicks and scrolls as a person; the actions and the state."""
        import base64

        page = self.page
        await page.evaluate(
            "([b, n]) => window.studioBridge.loadProjectBase64(b, n, n)",
            [base64.b64encode(sb3).decode(), f"{spec.id}.sb3"],
        )
        await page_scripts.call(page, page_scripts.HELPERS, "clickSmallStage")
        await self.frames(10)
        await page.evaluate("() => window.dispatchEvent(new Event('resize'))")
        await self.frames(10)
        switch: list[dict[str, Any]] = []
        locate: list[dict[str, Any]] = []
        if spec.sprite:
            x, y = await self.centre("sprite", spec.sprite)
            await page.mouse.click(x, y)
            switch.append({"api": "click", "args": {"x": x, "y": y}})
            await self.frames(30)
        for name in spec.categories:
            x, y = await self.centre("category", name)
            await page.mouse.click(x, y)
            locate.append({"api": "click", "args": {"x": x, "y": y}})
            await self.frames(40)
        if spec.flyout_wheel:
            x, y = await self.centre("flyout")
            await page.mouse.move(x, y)
            await page.mouse.wheel(0, spec.flyout_wheel)
            args = {"direction": "down", "amount": spec.flyout_wheel, "x": x, "y": y}
            locate.append({"api": "scroll", "args": args})
            await self.frames(40)
        for _ in range(spec.zoom_in):
            x, y = await self.centre("zoom_in")
            await page.mouse.click(x, y)
            await self.frames(30)
        if spec.wheel != (0, 0):
            x, y = await self.centre("code")
            await page.mouse.move(x, y)
            await page.mouse.wheel(spec.wheel[0], spec.wheel[1])
            await self.frames(30)
        await page.evaluate(
            "() => { const rt = window.vm.runtime; clearInterval(rt._steppingInterval); }"
        )
        await page.evaluate("() => window.workspace.clearUndo()")
        state = await page.evaluate(WORKSPACE_STATE)
        return {"switch": switch, "locate": locate, "state": state}

    async def drag(self, start: tuple[float, float], end: tuple[float, float]) -> None:
        m = self.page.mouse
        await m.move(*start)
        await m.down()
        for i in range(1, STEPS + 1):
            f = i / STEPS
            await m.move(start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f)
        await m.up()


class Trials:
    """Trial drags over several pages prepared identically; each verdict read, then undone."""

    def __init__(self, pages: list[Page], spec: dict[str, Any], state: dict[str, Any]) -> None:
        self.pages, self.spec, self.state = pages, spec, state
        self.undo_state: dict[str, Any] = dict(state)
        self.snapshot: dict[int, str] = {}
        self.before: dict[int, list[str]] = {}

    async def mark(self) -> None:
        shapes = set()
        for p in self.pages:
            self.snapshot[id(p)] = await p.page.evaluate(SNAPSHOT)
            self.before[id(p)] = await p.page.evaluate(
                "() => Object.keys(window.vm.editingTarget.blocks._blocks)"
            )
            shapes.add(await p.page.evaluate(SHAPE))
            if await p.page.evaluate(WORKSPACE_STATE) != self.state:
                raise RuntimeError("the pages' screens differ")
            fly = await p.page.evaluate(FLYOUT_Y)
            if self.undo_state.setdefault("flyoutY", fly) != fly:
                raise RuntimeError("the pages' palettes differ")
        if len(shapes) != 1:
            raise RuntimeError("the pages were not prepared alike")

    async def one(
        self, page: Page, start: tuple[float, float], end: tuple[float, float]
    ) -> dict[str, bool]:
        await page.drag(start, end)
        out = await page.page.evaluate(VERDICT, [self.spec, self.before[id(page)]])
        if not await page.page.evaluate(UNDO, [self.snapshot[id(page)], self.undo_state]):
            raise RuntimeError(f"could not undo the drag {start} -> {end}")
        return dict(out)

    async def run(
        self, jobs: list[tuple[tuple[float, float], tuple[float, float]]]
    ) -> list[dict[str, bool]]:
        results: list[dict[str, bool] | None] = [None] * len(jobs)
        queue: asyncio.Queue[int] = asyncio.Queue()
        for i in range(len(jobs)):
            queue.put_nowait(i)

        async def worker(page: Page) -> None:
            while not queue.empty():
                i = queue.get_nowait()
                results[i] = await self.one(page, *jobs[i])

        await asyncio.gather(*(worker(p) for p in self.pages))
        return [r for r in results if r is not None]


async def flood(
    trials: Trials, seed_near: tuple[float, float], job: Any, key: str
) -> tuple[list[list[int]], list[int]]:
    """The seed paper's expanding search for a seed, then a 4-neighbour flood fill."""
    sx, sy = round(seed_near[0] / GRID) * GRID, round(seed_near[1] / GRID) * GRID
    ring = sorted(
        ((sx + dx * GRID, sy + dy * GRID) for dx in range(-8, 9) for dy in range(-8, 9)),
        key=lambda p: ((p[0] - seed_near[0]) ** 2 + (p[1] - seed_near[1]) ** 2, p),
    )
    seed = None
    for i in range(0, len(ring), len(trials.pages)):
        batch = ring[i : i + len(trials.pages)]
        verdicts = await trials.run([job(p) for p in batch])
        hits = [p for p, v in zip(batch, verdicts, strict=True) if v[key]]
        if hits:
            seed = hits[0]
            break
    if seed is None:
        raise RuntimeError(f"no {key} seed near {seed_near}")
    inside, seen = {seed}, {seed}
    frontier = deque([seed])
    while frontier:
        wave = []
        while frontier:
            x, y = frontier.popleft()
            for n in ((x + GRID, y), (x - GRID, y), (x, y + GRID), (x, y - GRID)):
                if n not in seen and 0 <= n[0] < 1280 and 0 <= n[1] < 720:
                    seen.add(n)
                    wave.append(n)
        verdicts = await trials.run([job(p) for p in wave])
        for p, v in zip(wave, verdicts, strict=True):
            if v[key]:
                inside.add(p)
                frontier.append(p)
    return sorted([list(p) for p in inside], key=lambda p: (p[1], p[0])), list(seed)


GEOMETRY = """([spec]) => { const SB = window.ScratchBlocks; const w = window.workspace;
  const fly = w.getFlyout(); const fw = fly && fly.getWorkspace();
  const scr = (ws, x, y) => { const p = SB.utils.svgMath.wsToScreenCoordinates(ws, new SB.utils.Coordinate(x, y)); return [p.x, p.y]; };
  let src = null, srcWs = w;
  if (spec.target_id) src = w.getBlockById(spec.target_id);
  else { srcWs = fw; src = fw.getTopBlocks(false).filter((k) => k.type === spec.opcode)
    .find((k) => !spec.variable || (k.getField('VARIABLE') && k.getField('VARIABLE').getText() === spec.variable)); }
  const rect = src.getSvgRoot().querySelector(':scope > path').getBoundingClientRect();
  const ref = w.getBlockById(spec.reference_id);
  let last = src; while (last.getNextBlock()) last = last.getNextBlock();
  const dc = { next: src.previousConnection, substack_1: src.previousConnection,
    input: src.outputConnection, parent: last.nextConnection }[spec.connection];
  const rc = spec.connection === 'next' ? ref.nextConnection : spec.connection === 'parent'
    ? ref.previousConnection : ref.getInput(spec.connection === 'input' ? spec.input : 'SUBSTACK').connection;
  // a palette block's copy measures its connections from its top left corner
  const corner = src.getRelativeToSurfaceXY();
  const dragged = spec.target_id ? scr(w, dc.x, dc.y) : scr(fw, corner.x, corner.y);
  return { box: [rect.left, rect.top, rect.width, rect.height],
    dragged, aim: scr(w, rc.x, rc.y) }; }"""


async def build_item(pool: BrowserPool, spec: ItemSpec, out: Path) -> tuple[dict[str, Any], bytes]:
    sb3, data = build_project(spec)
    owner = spec.sprite or "Cat"
    tid = block_id(data, owner, spec.target[1]) if spec.target[0] == "canvas" else None
    rid = block_id(data, owner, spec.reference)
    assert pool.server is not None
    pages = [Page(await open_window(pool.context, pool.server)) for _ in range(PAGES)]
    try:
        prepared = [await p.prepare(spec, sb3) for p in pages]
        state = prepared[0]["state"]
        shot = await pages[0].page.screenshot()
        vspec: dict[str, Any] = {
            "target_id": tid,
            "opcode": spec.target[1],
            "reference_id": rid,
            "connection": spec.connection,
            "input": spec.input_name,
            "variable": spec.variable_name,
            "parent0": None,
            "x0": 0,
            "y0": 0,
        }
        if tid:
            blk = next(t for t in data["targets"] if t["name"] == owner)["blocks"][tid]
            vspec.update(
                parent0=blk.get("parent"), x0=round(blk.get("x", 0)), y0=round(blk.get("y", 0))
            )
        trials = Trials(pages, vspec, state)
        await trials.mark()
        geo = await pages[0].page.evaluate(GEOMETRY, [vspec])
        bx, by, _bw, bh = geo["box"]
        code = await pages[0].centre("code")
        dest = (code[0] + 150.0, code[1] + 150.0)
        starts, seed = await flood(
            trials, (bx + 12, by + min(14, bh / 2)), lambda p: (p, dest), "moved"
        )
        start = (float(seed[0]), float(seed[1]))
        guess = (
            start[0] + geo["aim"][0] - geo["dragged"][0],
            start[1] + geo["aim"][1] - geo["dragged"][1],
        )
        ends, first = await flood(trials, guess, lambda p: (start, p), "ok")
    finally:
        for p in pages:
            await p.page.close()
    config: dict[str, Any] = {
        "target_block_opcode": spec.target[1],
        "target_block_id": tid,
        "reference_block_id": rid,
        "reference_block_opcode": spec.reference,
        "connection_type": spec.connection,
        "target_input_name": spec.input_name,
        "description": spec.instruction,
        "seed_point": list(start),
        "drag_start_point": list(start),
        "first_valid_point": first,
        "feasible_points": ends,
        "feasible_start_points": starts,
        "workspace_state": state,
        "pan_canvas_actions": [
            {
                "api": "custom_js",
                "args": {
                    "fn": "async ({ws, payload}) => ws.scroll(ws.scrollX + payload.dx, ws.scrollY + payload.dy)",
                    "payload": {"dx": 0, "dy": 0},
                },
            }
        ],
    }
    if spec.target[0] == "flyout":
        config["use_flyout"] = True
    if prepared[0]["locate"]:
        config["locate_target_actions"] = prepared[0]["locate"]
    if prepared[0]["switch"]:
        config["switch_sprite_actions"] = prepared[0]["switch"]
    if spec.tail:
        config["target_stack_tail_block_id"] = block_id(data, owner, spec.tail)
    if spec.variable_name:
        config["variable_name"] = spec.variable_name
    record: dict[str, Any] = {
        "id": spec.id,
        "category": spec.category,
        "instruction": spec.instruction,
        "init_project": f"{spec.id}.sb3",
        "evaluation_config": config,
    }
    if spec.sprite:
        record["sprite"] = spec.sprite
    (out / "scratch-gui" / "static").mkdir(parents=True, exist_ok=True)
    (out / "scratch-gui" / "static" / f"{spec.id}.sb3").write_bytes(sb3)
    tasks = out / "single_step_drag_benchmark" / "tasks"
    tasks.mkdir(parents=True, exist_ok=True)
    (tasks / f"{spec.id}.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(f"{spec.id}: {len(starts)} start points, {len(ends)} end points", flush=True)
    return record, shot


QUESTIONS = [
    # (file n, screenshot of item, type, tag, question, truth, hint, indent)
    (
        1,
        "T1_001",
        "existence",
        "existence_yes",
        "Is there a 'change x by' block in the code area?",
        "YES",
        "change x by",
        2,
    ),
    (
        2,
        "T1_001",
        "connection",
        "connection_yes",
        "Is the 'show' block attached directly below the 'go to x: y:' block?",
        "YES",
        "show / go to",
        2,
    ),
    (
        3,
        "T1_001",
        "field",
        "field_number",
        "What number is in the input of the 'change x by' block?",
        "10",
        "change x by",
        4,
    ),
    (
        4,
        "T1_002",
        "existence",
        "existence_no",
        "Is there a ‘glide’ block in the code area?",
        "NO",
        "glide",
        4,
    ),
]


def write_questions(out: Path, shots: dict[str, bytes]) -> None:
    base = out / "visual_perception_benchmark"
    (base / "tasks").mkdir(parents=True, exist_ok=True)
    (base / "screenshots_final").mkdir(parents=True, exist_ok=True)
    for n, item, kind, tag, question, truth, hint, indent in QUESTIONS:
        name = f"workspace_{item.lower()}.png"
        (base / "screenshots_final" / name).write_bytes(shots[item])
        prompt = f"Write a {kind} question about the Scratch code area in the screenshot."
        answer = json.dumps({"question": question, "answer": truth})
        record = {
            "task_id": f"vp_{n:03d}",
            "instruction": question,
            "screenshot": name,
            "task_type": kind,
            "tag": tag,
            "ground_truth": truth,
            "focus_hint": hint,
            "prompt": prompt,
            "response_content": answer,
            "full_response": {
                "id": f"resp-{n}",
                "model": "generator",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": answer}}],
            },
        }
        text = json.dumps(record, indent=indent, ensure_ascii=indent == 2)
        (base / "tasks" / f"{n}.json").write_text(
            text + ("\n" if indent == 2 else ""), encoding="utf-8"
        )


async def main(out: Path, only: set[str]) -> None:
    pool = await BrowserPool(spares=0).start()
    try:
        shots = {}
        cache = out / ".build"  # screens of items already built (a rerun skips them)
        cache.mkdir(parents=True, exist_ok=True)
        for spec in [s for s in SPECS if not only or s.id in only]:
            shot = cache / f"{spec.id}.png"
            if not shot.is_file():
                _, data = await build_item(pool, spec, out)
                shot.write_bytes(data)
            shots[spec.id] = shot.read_bytes()
        if only:  # a partial build for trying items out: keep the cache
            return
        write_questions(out, shots)
        for done in cache.iterdir():
            done.unlink()
        cache.rmdir()
    finally:
        await pool.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), set(sys.argv[2:])))

# ruff: noqa: E501, UP031  (page scripts are kept as they read in the browser)
"""Write the grab-point fixture (see the package docstring): regions for each item's own grab
point, made with nothing of the studio's region code, set-up replay or edition adapter.

    PYTHONPATH=. .venv/bin/python -m tests.helpers.published_grab.build OUT [ID...]

What is shared with the other fixture builders is a person's preparation of the screen
(`published_diag.build.Page.prepare`: clicks and wheel scrolls with the mouse), the 15-step
drag (`Page.drag`) and the seed paper's expanding search and flood fill (`flood`). The
published restore, the pan, the connection check and the undo between trials are written
here, from SCRATCHWORLD_API.md sections 9 and 11.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.services.core.projectbuild import ProjectBuilder
from studio.services.diagnostics.drag.page import open_window
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.editions import Edition
from tests.helpers.published_diag.build import ItemSpec, Page, block_id, build_project, flood
from tests.helpers.published_grab import FIXTURE
from tests.helpers.published_set.kit import (
    b,
    changex,
    flag,
    forever,
    goto,
    key_pressed,
    look,
    op,
    say,
    setx,
    show,
    touching,
    until,
)

PAGES = 3
FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"

# The published generator's pan: a custom_js whose payload carries the pan and whose function
# sets the canvas transform itself (scratch-blocks 1.x scrolls only mid-drag).
PAN_FN = (
    "async ({ws, payload}) => { const c = ws.getCanvas(); "
    "const m = /translate\\(\\s*([-\\d.e]+)[ ,]+([-\\d.e]+)\\)\\s*scale\\(([-\\d.e]+)\\)/"
    ".exec(c.getAttribute('transform') || ''); "
    "const s = m ? Number(m[3]) : ws.scale; "
    "const tx = (m ? Number(m[1]) : 0) + payload.dx, ty = (m ? Number(m[2]) : 0) + payload.dy; "
    "const t = `translate(${tx},${ty}) scale(${s})`; c.setAttribute('transform', t); "
    "const bc = ws.getBubbleCanvas(); if (bc) bc.setAttribute('transform', t); "
    "ws.scrollX = -tx / s; ws.scrollY = -ty / s; return { transform: t }; }"
)

# custom_js as the published server awaits it: fn({vm, SB, ws, payload, getVM, ...}).
CUSTOM_JS = (
    """async ([code, payload]) => { const fn = (0, eval)(`(${code})`);
  const out = await fn({ vm: window.vm, SB: window.ScratchBlocks, ws: window.workspace, payload,
    getVM: () => window.vm, getWorkspace: () => window.workspace,
    getScratchBlocks: () => window.ScratchBlocks });
  await (%s)(); return out; }"""
    % FRAMES
)

# workspace_state as the published items hold it, from the block canvas's transform.
STATE = """() => { const w = window.workspace;
  const t = w.getCanvas().getAttribute('transform') || '';
  const m = /translate\\(([-\\d.e]+)[ ,]+([-\\d.e]+)\\)/.exec(t);
  const tx = m ? Number(m[1]) : 0, ty = m ? Number(m[2]) : 0, s = w.scale;
  const r = (v) => Math.round(v * 1e6) / 1e6;
  return { tx: r(tx), ty: r(ty), scale: s, scrollX: r(-tx / s) + 0, scrollY: r(-ty / s) + 0,
    transform: `translate(${r(tx)}, ${r(ty)}) scale(${s})` }; }"""

# The published drag runner's set_workspace_state (SCRATCHWORLD_API.md section 11).
RESTORE = (
    """async (p) => { const w = window.workspace; const frame = %s;
  const num = (v) => typeof v === 'number' && Number.isFinite(v);
  const scale = num(p.scale) ? p.scale : w.scale;
  w.setScale(scale); await frame();
  const sx = num(p.scrollX) ? p.scrollX : (num(p.tx) ? -p.tx / scale : 0);
  const sy = num(p.scrollY) ? p.scrollY : (num(p.ty) ? -p.ty / scale : 0);
  if (w.scrollbar && typeof w.scrollbar.set === 'function') w.scrollbar.set(sx, sy);
  else if (typeof w.translate === 'function') { w.translate(-sx, -sy); w.scrollX = sx; w.scrollY = sy; }
  else w.scroll(sx - w.scrollX, sy - w.scrollY);
  const t = `translate(${-sx * scale},${-sy * scale}) scale(${scale})`;
  for (const c of [w.getCanvas(), w.getBubbleCanvas()]) if (c) c.setAttribute('transform', t);
  w.scrollX = sx; w.scrollY = sy; await frame();
  return w.getCanvas().getAttribute('transform'); }"""
    % FRAMES
)

SNAPSHOT = """() => { const bl = window.vm.editingTarget.blocks._blocks;
  return JSON.stringify(Object.keys(bl).sort().map((id) => { const k = bl[id];
    const inputs = {}; for (const n of Object.keys(k.inputs).sort()) {
      if (k.inputs[n].block || k.inputs[n].shadow) inputs[n] = [k.inputs[n].block, k.inputs[n].shadow]; }
    return [id, k.opcode, k.parent, k.next, k.topLevel, k.topLevel ? Math.round(k.x) : 0,
      k.topLevel ? Math.round(k.y) : 0, JSON.stringify(inputs)]; })); }"""

SHAPE = """() => { const bl = window.vm.editingTarget.blocks._blocks;
  return JSON.stringify(Object.keys(bl).filter((id) => !bl[id].shadow).sort().map((id) => {
    const k = bl[id]; return [k.opcode, k.parent ? bl[k.parent].opcode : null, k.next ? bl[k.next].opcode : null,
      Math.round(k.x || 0), Math.round(k.y || 0)]; })); }"""

# The published runner's connection check (section 9, step 7) on the VM's blocks.
VERDICT = """async ([spec, before]) => { await (%s)(); await (%s)();
  const bl = window.vm.editingTarget.blocks._blocks;
  let id = spec.target_id;
  if (!id) id = Object.keys(bl).find((k) => !before.includes(k) && bl[k].opcode === spec.opcode && !bl[k].shadow) || null;
  const b = id && bl[id]; const ref = bl[spec.reference_id];
  const moved = Boolean(b) && (spec.target_id ? (b.parent !== spec.parent0 ||
    Math.round(b.x || 0) !== spec.x0 || Math.round(b.y || 0) !== spec.y0) : true);
  let ok = false;
  if (b && ref) {
    if (spec.connection === 'next') ok = ref.next === id;
    else if (spec.connection === 'parent') { let cur = id;
      for (let i = 0; i < 50 && bl[cur]; i += 1) { if (bl[cur].next === spec.reference_id) { ok = true; break; } cur = bl[cur].next; } }
    else if (spec.connection === 'substack_1') ok = (ref.inputs.SUBSTACK || {}).block === id;
    else if (spec.connection === 'substack_2') ok = (ref.inputs.SUBSTACK2 || {}).block === id;
    else if (spec.connection === 'input') ok = (ref.inputs[spec.input] || {}).block === id;
    if (ok && spec.variable) { const f = b.fields.VARIABLE || {}; ok = f.value === spec.variable || f[0] === spec.variable; }
  }
  return { moved, ok }; }""" % (FRAMES, FRAMES)

UNDO = """async ([snapshot, state]) => { const w = window.workspace; const frame = %s;
  const snap = %s; const restore = %s;
  for (let i = 0; i < 12 && snap() !== snapshot && (w.undoStack_ || []).length; i += 1) { w.undo(false); await frame(); }
  w.clearUndo();
  const fl = w.getFlyout(); const fw = fl.getWorkspace();
  if (Math.abs(fw.scrollY - state.flyoutY) > 0.01) {
    fl.scrollbar_.set(-state.flyoutY);
    if (Math.abs(fw.scrollY - state.flyoutY) > 0.01) { const m = fl.getMetrics_();
      fw.scrollY = state.flyoutY; fw.translate(fw.scrollX + m.absoluteLeft, state.flyoutY + m.absoluteTop); }
    await frame(); }
  await restore(state);
  const ok = snap() === snapshot && w.getCanvas().getAttribute('transform') === state.restored &&
    Math.abs(fw.scrollY - state.flyoutY) < 0.01;
  return ok || [snap(), w.getCanvas().getAttribute('transform'), fw.scrollY]; }""" % (
    FRAMES,
    SNAPSHOT,
    RESTORE,
)

# The dragged block's box, and (to guess the end region's seed) where its connection and the
# aim are on the screen; a palette block's copy keeps the palette block's corner.
GEOMETRY = """([spec]) => { const w = window.workspace; const fw = w.getFlyout().getWorkspace();
  const src = spec.target_id ? w.getBlockById(spec.target_id) : fw.getTopBlocks(false)
    .filter((k) => k.type === spec.opcode).find((k) => !spec.variable ||
      (k.getField('VARIABLE') && k.getField('VARIABLE').getText() === spec.variable));
  const rect = src.getSvgRoot().querySelector(':scope > path').getBoundingClientRect();
  const ref = w.getBlockById(spec.reference_id);
  let last = src; while (last.getNextBlock()) last = last.getNextBlock();
  const dc = { next: src.previousConnection, substack_1: src.previousConnection,
    substack_2: src.previousConnection, input: src.outputConnection, parent: last.nextConnection }[spec.connection];
  const rc = spec.connection === 'next' ? ref.nextConnection : spec.connection === 'parent'
    ? ref.previousConnection : ref.getInput(spec.connection === 'input' ? spec.input
      : spec.connection === 'substack_2' ? 'SUBSTACK2' : 'SUBSTACK').connection;
  const m = w.getCanvas().getScreenCTM();
  const scr = (x, y) => [m.a * x + m.e, m.d * y + m.f];
  let dragged;
  if (spec.target_id) dragged = scr(dc.x_, dc.y_);
  else { const xy = src.getRelativeToSurfaceXY(); const f = fw.getCanvas().getScreenCTM();
    const off = dc.offsetInBlock_ || { x: 0, y: 0 };
    dragged = [f.a * xy.x + f.e + off.x * w.scale, f.d * xy.y + f.f + off.y * w.scale]; }
  return { box: [rect.left, rect.top, rect.width, rect.height], dragged, aim: scr(rc.x_, rc.y_) }; }"""


@dataclass
class GrabSpec:
    """An item, where it is grabbed (a fraction of the block's box plus an off-grid offset) and
    the pan of its screen (px)."""

    item: ItemSpec
    grab: tuple[float, float]
    off: tuple[float, float]
    pan: tuple[float, float]


class Trials:
    """Trial drags over pages prepared alike, each judged, undone and the screen restored."""

    def __init__(self, pages: list[Page], spec: dict[str, Any], state: dict[str, Any]) -> None:
        self.pages, self.spec, self.state = pages, spec, dict(state)
        self.snapshot: dict[int, str] = {}
        self.before: dict[int, list[str]] = {}

    async def mark(self) -> None:
        shapes = set()
        for p in self.pages:
            restored = await p.page.evaluate(RESTORE, self.state)
            if self.state.setdefault("restored", restored) != restored:
                raise RuntimeError("the pages' screens differ")
            fly = await p.page.evaluate("() => window.workspace.getFlyout().getWorkspace().scrollY")
            if self.state.setdefault("flyoutY", fly) != fly:
                raise RuntimeError("the pages' palettes differ")
            self.snapshot[id(p)] = await p.page.evaluate(SNAPSHOT)
            self.before[id(p)] = await p.page.evaluate(
                "() => Object.keys(window.vm.editingTarget.blocks._blocks)"
            )
            shapes.add(await p.page.evaluate(SHAPE))
        if len(shapes) != 1:
            raise RuntimeError("the pages were not prepared alike")

    async def one(
        self, page: Page, start: tuple[float, float], end: tuple[float, float]
    ) -> dict[str, bool]:
        await page.drag(start, end)
        out = await page.page.evaluate(VERDICT, [self.spec, self.before[id(page)]])
        undone = await page.page.evaluate(UNDO, [self.snapshot[id(page)], self.state])
        if undone is not True:
            raise RuntimeError(f"could not undo the drag {start} -> {end}: {undone}")
        return dict(out)

    async def run(
        self, jobs: list[tuple[tuple[float, float], tuple[float, float]]]
    ) -> list[dict[str, bool]]:
        results: list[dict[str, bool] | None] = [None] * len(jobs)
        queue = list(range(len(jobs)))

        async def worker(page: Page) -> None:
            while queue:
                i = queue.pop(0)
                results[i] = await self.one(page, *jobs[i])

        await asyncio.gather(*(worker(p) for p in self.pages))
        return [r for r in results if r is not None]


def _cat(
    *scripts: list[Any], variables: tuple[str, ...] = (), ball: bool = False
) -> ProjectBuilder:
    p = ProjectBuilder()
    for name in variables:
        p.add_variable(name, 0)
    cat = p.add_sprite("Cat", [look("cat", 44, 44, "#f7a21b", bitmap=True)], x=-80)
    for script in scripts:
        cat.add_script(*script)
    if ball:
        other = p.add_sprite("Ball", [look("ball", 40, 40, "#4c97ff", "circle", True)], x=60)
        other.add_script(flag(), show())
    return p


def _ball(*scripts: list[Any], variables: tuple[str, ...] = ()) -> ProjectBuilder:
    p = ProjectBuilder()
    for name in variables:
        p.add_variable(name, 0)
    cat = p.add_sprite("Cat", [look("cat", 44, 44, "#f7a21b", bitmap=True)], x=-80)
    cat.add_script(flag(), say("Hello!"))
    ball = p.add_sprite("Ball", [look("ball", 40, 40, "#4c97ff", "circle", True)], x=60)
    for script in scripts:
        ball.add_script(*script)
    return p


SPECS = [
    # a canvas block held on its right part; a sprite switch, a scrolled code area, a pan
    GrabSpec(
        ItemSpec(
            "T1_101",
            "T1",
            "Drag the 'change x by' block so it attaches below the 'show' block.",
            lambda: _ball([flag(), goto(0, 0), show()], [b("motion_changexby", DX=10)]),
            {"event_whenflagclicked": (400, 500), "motion_changexby": (760, 640)},
            ("canvas", "motion_changexby"),
            "looks_show",
            "next",
            sprite="Ball",
            wheel=(0, 260),
        ),
        grab=(0.72, 0.5),
        off=(1.4, 2.3),
        pan=(-70.0, 35.0),
    ),
    # a reporter into an input on a zoomed code area (scale 0.81), panned
    GrabSpec(
        ItemSpec(
            "T1_102",
            "T1",
            "Drag the 'add' block into the input of the 'change x by' block.",
            lambda: _cat([flag(), goto(0, 0), changex(10)], [op("add", 1, 2)]),
            {"event_whenflagclicked": (300, 420), "operator_add": (560, 640)},
            ("canvas", "operator_add"),
            "motion_changexby",
            "input",
            input_name="DX",
            zoom_in=1,
            wheel=(0, 250),
        ),
        grab=(0.5, 0.45),
        off=(2.2, -1.1),
        pan=(40.0, -30.0),
    ),
    # a palette block into a C-block's mouth: "set my variable to" into "repeat until"
    GrabSpec(
        ItemSpec(
            "T2_101",
            "T2",
            "Drag a 'set my variable to' block from the palette into the 'repeat until' block.",
            lambda: _cat([flag(), until(key_pressed("space"))], variables=("my variable",)),
            {"event_whenflagclicked": (260, 160)},
            ("flyout", "data_setvariableto"),
            "control_repeat_until",
            "substack_1",
            categories=["Variables"],
            variable_name="my variable",
        ),
        grab=(0.4, 0.5),
        off=(1.7, 0.8),
        pan=(-25.0, 20.0),
    ),
    # a palette reporter into an input, grabbed in its middle, panned
    GrabSpec(
        ItemSpec(
            "T2_102",
            "T2",
            "Drag a 'pick random' block from the palette into the input of the 'say' block.",
            lambda: _cat([flag(), say("Hello!")]),
            {"event_whenflagclicked": (240, 200)},
            ("flyout", "operator_random"),
            "looks_say",
            "input",
            input_name="MESSAGE",
            categories=["Operators"],
        ),
        grab=(0.55, 0.5),
        off=(-1.3, 1.6),
        pan=(30.0, 25.0),
    ),
    # a palette block into a C-block's mouth on a zoomed code area
    GrabSpec(
        ItemSpec(
            "T2_103",
            "T2",
            "Drag a 'change x by' block from the palette into the 'forever' block.",
            lambda: _cat([flag(), forever()]),
            {"event_whenflagclicked": (220, 140)},
            ("flyout", "motion_changexby"),
            "control_forever",
            "substack_1",
            zoom_in=1,
        ),
        grab=(0.6, 0.5),
        off=(0.9, -2.1),
        pan=(-20.0, -15.0),
    ),
    # "set my variable to" from the palette into a "repeat until" mouth again, the published
    # shape that missed: on another sprite, two variables, a block below the C-block (its
    # next connection competes with the mouth), a scrolled and panned code area
    GrabSpec(
        ItemSpec(
            "T2_104",
            "T2",
            "Drag a 'set my variable to' block from the palette into the 'repeat until' block.",
            lambda: _ball(
                [flag(), setx(0), until(touching("_edge_")), say("done")],
                variables=("my variable", "score"),
            ),
            {"event_whenflagclicked": (300, 240)},
            ("flyout", "data_setvariableto"),
            "control_repeat_until",
            "substack_1",
            sprite="Ball",
            categories=["Variables"],
            variable_name="my variable",
            wheel=(0, 120),
        ),
        grab=(0.3, 0.5),
        off=(2.4, -1.3),
        pan=(35.0, -20.0),
    ),
]


def _off_grid(v: float) -> int:
    """A whole pixel (the published drag_and_drop takes integers) off the 5 px grid."""
    n = round(v)
    return n + 2 if n % 5 == 0 else n


async def build_item(pool: BrowserPool, gspec: GrabSpec, out: Path) -> dict[str, Any]:
    spec = gspec.item
    sb3, data = build_project(spec)
    owner = spec.sprite or "Cat"
    tid = block_id(data, owner, spec.target[1]) if spec.target[0] == "canvas" else None
    rid = block_id(data, owner, spec.reference)
    assert pool.server is not None
    pages = [
        Page(await open_window(pool.context, pool.server, Edition.CLASSIC)) for _ in range(PAGES)
    ]
    payload = {"dx": gspec.pan[0], "dy": gspec.pan[1]}
    try:
        prepared = [await p.prepare(spec, sb3) for p in pages]
        for p in pages:
            await p.page.evaluate(CUSTOM_JS, [PAN_FN, payload])
        state = await pages[0].page.evaluate(STATE)
        for p in pages[1:]:
            if await p.page.evaluate(STATE) != state:
                raise RuntimeError(f"{spec.id}: the pages were prepared to other screens")
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
        bx, by, bw, bh = geo["box"]
        code = await pages[0].centre("code")
        dest = (code[0] + 150.0, code[1] + 150.0)
        grab = (
            float(_off_grid(bx + gspec.grab[0] * bw + gspec.off[0])),
            float(_off_grid(by + gspec.grab[1] * bh + gspec.off[1])),
        )
        if not (await trials.run([(grab, dest)]))[0]["moved"]:
            raise RuntimeError(f"{spec.id}: a drag from the grab point {grab} moves nothing")
        starts, seed = await flood(trials, grab, lambda p: (p, dest), "moved")
        guess = (
            grab[0] + geo["aim"][0] - geo["dragged"][0],
            grab[1] + geo["aim"][1] - geo["dragged"][1],
        )
        ends, first = await flood(trials, guess, lambda p: (grab, p), "ok")
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
        "seed_point": [float(seed[0]), float(seed[1])],
        "drag_start_point": list(grab),
        "first_valid_point": first,
        "feasible_points": ends,
        "feasible_start_points": starts,
        "workspace_state": state,
        "pan_canvas_actions": [{"api": "custom_js", "args": {"fn": PAN_FN, "payload": payload}}],
    }
    if spec.target[0] == "flyout":
        config["use_flyout"] = True
    if prepared[0]["locate"]:
        config["locate_target_actions"] = prepared[0]["locate"]
    if prepared[0]["switch"]:
        config["switch_sprite_actions"] = prepared[0]["switch"]
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
    print(f"{spec.id}: grab {grab}, {len(starts)} start points, {len(ends)} end points", flush=True)
    return record


async def main(out: Path, only: set[str]) -> None:
    pool = await BrowserPool(spares=0).start()
    try:
        for gspec in [s for s in SPECS if not only or s.item.id in only]:
            await build_item(pool, gspec, out)
    finally:
        await pool.close()


if __name__ == "__main__":
    given = sys.argv[1:]
    target = Path(given.pop(0)) if given and not given[0].startswith(("T1_", "T2_")) else FIXTURE
    asyncio.run(main(target, set(given)))

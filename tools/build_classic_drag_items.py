# ruff: noqa: E501, UP031  (page scripts are kept as they read in the browser)
"""Build published-style drag items on the classic editor edition (the published benchmark's).

    .venv/bin/python tools/build_classic_drag_items.py [OUT] [ID...]

OUT defaults to tests/fixtures/scratchworld_classic (committed). With IDs only those items are
written. It takes several minutes: every feasible point is a real drag.

Each item is made as the published generator made its items, on the classic editor page
(scratch-gui 5.1.89 playground, resources/web/classic/editor.html) at 1280x720 in small stage
mode: a person's clicks on the sprite tile and the palette categories, wheel scrolls on the
palette and the code area and clicks on the zoom button prepare the screen (written as the
record's `switch_sprite_actions` / `locate_target_actions`); `workspace_state` is read from the
block canvas's transform, `translate(tx, ty) scale(scale)`, with scrollX = -tx/scale and
scrollY = -ty/scale (the published items' relation); then the published runner's forced
restore (studioEdition.restorePublished) is applied and the regions are the seed paper's
4-neighbour flood fill in that screen, every grid point a real drag of 15 mouse steps (the
published drag_and_drop) judged on the VM's blocks as the published runner judges it. Nothing
of the studio's region computation is used: the stored regions are an independent truth for it.

Writes, in the published layout, `single_step_drag_benchmark/tasks/<id>.json` and
`scratch-gui/static/<id>.sb3`. Palette items (`use_flyout`) drag a new block out of the palette.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from studio.services.core.projectbuild import ProjectBuilder  # noqa: E402
from studio.services.diagnostics.drag.page import open_window  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402
from studio.services.runtime.editions import Edition  # noqa: E402
from tests.helpers.published_diag.build import (  # noqa: E402
    SHAPE,
    VERDICT,
    ItemSpec,
    Page,
    Trials,
    block_id,
    build_project,
    flood,
)
from tests.helpers.published_set.kit import (  # noqa: E402
    b,
    changex,
    flag,
    forever,
    goto,
    look,
    move,
    on_key,
    op,
    repeat,
    say,
    show,
    xpos,
)

OUT = ROOT / "tests" / "fixtures" / "scratchworld_classic"
PAGES = 3

# The program as a comparable string; an input holding nothing counts as absent (a loaded
# project has no SUBSTACK entry in an empty C-block, a connection undone leaves an empty one).
SNAPSHOT = """() => { const bl = window.vm.editingTarget.blocks._blocks;
  return JSON.stringify(Object.keys(bl).sort().map((id) => { const k = bl[id];
    const inputs = {}; for (const n of Object.keys(k.inputs).sort()) {
      if (k.inputs[n].block || k.inputs[n].shadow) inputs[n] = [k.inputs[n].block, k.inputs[n].shadow]; }
    return [id, k.opcode, k.parent, k.next, k.topLevel, k.topLevel ? Math.round(k.x) : 0,
      k.topLevel ? Math.round(k.y) : 0, JSON.stringify(inputs)]; })); }"""

# The published item's workspace_state, read from the block canvas's transform.
STATE = """() => { const w = window.workspace;
  const t = w.getCanvas().getAttribute('transform') || '';
  const m = /translate\\(([-\\d.e]+)[ ,]+([-\\d.e]+)\\)/.exec(t);
  const tx = m ? Number(m[1]) : 0, ty = m ? Number(m[2]) : 0, s = w.scale;
  const r = (v) => Math.round(v * 1e6) / 1e6;
  return { tx: r(tx), ty: r(ty), scale: s, scrollX: r(-tx / s) + 0, scrollY: r(-ty / s) + 0,
    transform: `translate(${r(tx)}, ${r(ty)}) scale(${s})` }; }"""

# The published runner's restore of that state (on classic: its forced canvas transform).
RESTORE = """async (state) => { const w = window.workspace;
  await window.studioEdition.restorePublished(w, state, window.studioDrag.settle);
  return w.getCanvas().getAttribute('transform'); }"""

FLYOUT_Y = "() => window.workspace.getFlyout().getWorkspace().scrollY"

UNDO = (
    """async ([snapshot, state]) => { const w = window.workspace; const D = window.studioEdition.drag;
  const snap = () => (%s)();
  for (let i = 0; i < 12 && snap() !== snapshot && D.undoCount(w); i += 1) {
    w.undo(false); await window.studioDrag.settle(); }
  w.clearUndo();
  const fw = w.getFlyout().getWorkspace();
  if (Math.abs(fw.scrollY - state.flyoutY) > 0.01) {
    window.studioEdition.blockly.scrollFlyout(w, state.flyoutY); await window.studioDrag.settle(); }
  await window.studioEdition.restorePublished(w, state, window.studioDrag.settle);
  const ok = snap() === snapshot && w.getCanvas().getAttribute('transform') === state.restored &&
    Math.abs(fw.scrollY - state.flyoutY) < 0.01;
  return ok || [snap(), w.getCanvas().getAttribute('transform'), fw.scrollY, D.undoCount(w)];
}"""
    % SNAPSHOT
)

# Where the drag's connection and the aim are on the screen (to guess the end region's seed).
GEOMETRY = """([spec]) => { const SB = window.ScratchBlocks; const w = window.workspace;
  const D = window.studioEdition.drag; const fw = w.getFlyout().getWorkspace();
  let src = null;
  if (spec.target_id) src = w.getBlockById(spec.target_id);
  else src = fw.getTopBlocks(false).filter((k) => k.type === spec.opcode)
    .find((k) => !spec.variable || (k.getField('VARIABLE') && k.getField('VARIABLE').getText() === spec.variable));
  const rect = src.getSvgRoot().querySelector(':scope > path').getBoundingClientRect();
  const ref = w.getBlockById(spec.reference_id);
  let last = src; while (last.getNextBlock()) last = last.getNextBlock();
  const dc = { next: src.previousConnection, substack_1: src.previousConnection,
    input: src.outputConnection, parent: last.nextConnection }[spec.connection];
  const rc = spec.connection === 'next' ? ref.nextConnection : spec.connection === 'parent'
    ? ref.previousConnection : ref.getInput(spec.connection === 'input' ? spec.input : 'SUBSTACK').connection;
  const scr = (ws, c) => { const xy = D.connectionXY(c); const p = D.toScreen(SB, ws, xy.x, xy.y); return [p.x, p.y]; };
  const dragged = spec.target_id ? scr(w, dc) : (() => {
    const p = D.paletteDragPoint(SB, w, fw, src, dc); return [p.x, p.y]; })();
  return { box: [rect.left, rect.top, rect.width, rect.height], dragged, aim: scr(w, rc) }; }"""


class ClassicTrials(Trials):
    """Trials whose screen is the published restore's; every drag undone and restored."""

    async def mark(self) -> None:
        shapes = set()
        for p in self.pages:
            self.snapshot[id(p)] = await p.page.evaluate(SNAPSHOT)
            self.before[id(p)] = await p.page.evaluate(
                "() => Object.keys(window.vm.editingTarget.blocks._blocks)"
            )
            shapes.add(await p.page.evaluate(SHAPE))
            restored = await p.page.evaluate(RESTORE, self.state)
            if self.undo_state.setdefault("restored", restored) != restored:
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
        undone = await page.page.evaluate(UNDO, [self.snapshot[id(page)], self.undo_state])
        if undone is not True:
            raise RuntimeError(
                f"could not undo the drag {start} -> {end}: now {undone}, "
                f"was {self.snapshot[id(page)]}, {self.undo_state}"
            )
        return dict(out)


# ---- the items -----------------------------------------------------------------------------
def _sprites(**scripts: list[list[Any]]) -> ProjectBuilder:
    p = ProjectBuilder()
    p.add_variable("score", 0)
    colours = {"Cat": "#f7a21b", "Ball": "#4c97ff", "Star": "#ffd500"}
    x = -80
    for name, stacks in scripts.items():
        sprite = p.add_sprite(
            name, [look(name.lower(), 44, 44, colours.get(name, "#888888"), bitmap=True)], x=x
        )
        x += 80
        for stack in stacks:
            sprite.add_script(*stack)
    return p


SPECS = [
    ItemSpec(
        "T1_001",
        "T1",
        "Drag the 'change x by' block so it attaches below the 'show' block.",
        lambda: _sprites(
            Cat=[[flag(), say("Hello!")]],
            Ball=[[flag(), goto(0, 0), show()], [b("motion_changexby", DX=10)]],
        ),
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
        lambda: _sprites(
            Cat=[[flag(), show()]],
            Star=[
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
        lambda: _sprites(Cat=[[flag(), goto(0, 0), changex(10)], [op("add", 1, 2)]]),
        {"event_whenflagclicked": (300, 420), "operator_add": (520, 640)},
        ("canvas", "operator_add"),
        "motion_changexby",
        "input",
        input_name="DX",
        zoom_in=1,
        wheel=(0, 250),
    ),
    ItemSpec(
        "T1_004",
        "T1",
        "Drag the 'move' block into the 'forever' block.",
        lambda: _sprites(Cat=[[flag(), forever()], [move(10)]]),
        {"event_whenflagclicked": (80, 80), "motion_movesteps": (420, 300)},
        ("canvas", "motion_movesteps"),
        "control_forever",
        "substack_1",
    ),
    ItemSpec(
        "T1_005",
        "T1",
        "Drag the 'say' block so it attaches below the 'when green flag clicked' block.",
        lambda: _sprites(Cat=[[flag()], [say("Hi!")], [on_key("space"), move(5)]]),
        {
            "event_whenflagclicked": (60, 60),
            "looks_say": (360, 200),
            "event_whenkeypressed": (60, 330),
        },
        ("canvas", "looks_say"),
        "event_whenflagclicked",
        "next",
    ),
    ItemSpec(
        "T1_006",
        "T1",
        "Drag the 'x position' block into the input of the 'say' block.",
        lambda: _sprites(Cat=[[flag(), say("Hello!")], [xpos()]]),
        {"event_whenflagclicked": (100, 100), "motion_xposition": (380, 320)},
        ("canvas", "motion_xposition"),
        "looks_say",
        "input",
        input_name="MESSAGE",
        wheel=(0, 120),
    ),
    ItemSpec(
        "T2_001",
        "T2",
        "Drag a 'next costume' block from the palette so it attaches below the 'go to x: y:' "
        "block.",
        lambda: _sprites(Cat=[[flag(), goto(0, 0)]]),
        {"event_whenflagclicked": (260, 160)},
        ("flyout", "looks_nextcostume"),
        "motion_gotoxy",
        "next",
        categories=["Looks"],
    ),
    ItemSpec(
        "T2_002",
        "T2",
        "Drag a 'turn right' block from the palette so it attaches below the 'when green flag "
        "clicked' block.",
        lambda: _sprites(Cat=[[flag()]], Ball=[[flag(), show()]]),
        {"event_whenflagclicked": (300, 240)},
        ("flyout", "motion_turnright"),
        "event_whenflagclicked",
        "next",
    ),
    ItemSpec(
        "T2_003",
        "T2",
        "Drag a 'pick random' block from the palette into the input of the 'change x by' block.",
        lambda: _sprites(Cat=[[flag(), changex(10)]]),
        {"event_whenflagclicked": (240, 200)},
        ("flyout", "operator_random"),
        "motion_changexby",
        "input",
        input_name="DX",
        categories=["Operators"],
    ),
    ItemSpec(
        "T2_004",
        "T2",
        "Drag a 'wait' block from the palette into the 'repeat' block.",
        lambda: _sprites(Cat=[[flag(), repeat(10)]]),
        {"event_whenflagclicked": (280, 160)},
        ("flyout", "control_wait"),
        "control_repeat",
        "substack_1",
        categories=["Control"],
    ),
    ItemSpec(
        "T2_005",
        "T2",
        "Drag the 'score' variable block from the palette into the input of the 'say' block.",
        lambda: _sprites(Cat=[[flag(), say("Hello!")]]),
        {"event_whenflagclicked": (260, 180)},
        ("flyout", "data_variable"),
        "looks_say",
        "input",
        input_name="MESSAGE",
        categories=["Variables"],
        variable_name="score",
    ),
]


async def build_item(pool: BrowserPool, spec: ItemSpec, out: Path) -> dict[str, Any]:
    sb3, data = build_project(spec)
    owner = spec.sprite or "Cat"
    tid = block_id(data, owner, spec.target[1]) if spec.target[0] == "canvas" else None
    rid = block_id(data, owner, spec.reference)
    assert pool.server is not None
    pages = [
        Page(await open_window(pool.context, pool.server, Edition.CLASSIC)) for _ in range(PAGES)
    ]
    try:
        prepared = [await p.prepare(spec, sb3) for p in pages]
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
        trials = ClassicTrials(pages, vspec, state)
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
    return record


async def main(out: Path, only: set[str]) -> None:
    pool = await BrowserPool(spares=0).start()
    try:
        for spec in [s for s in SPECS if not only or s.id in only]:
            await build_item(pool, spec, out)
    finally:
        await pool.close()


if __name__ == "__main__":
    given = sys.argv[1:]
    target = Path(given.pop(0)) if given and not given[0].startswith(("T1_", "T2_")) else OUT
    asyncio.run(main(target, set(given)))

"""Build the classic-edition perception QA fixture: `python tools/build_classic_qa.py [OUT]`
(default: tests/fixtures/scratchworld_qa_classic).

Questions about two screens of the classic editor (scratch-gui 5.1.89, the published
benchmark's editor), each prepared as the published benchmark's screens are: the project
loaded, small stage mode, the sprite and palette category shown, a block taken out of its
script (a "gap" for connection questions), then the published workspace restore (zoom, scroll
and the forced canvas transform, `edition-classic.js`). Everything goes through the studio's
own capture path (`labeling.qa.screens.prepare`, `qa.capture.capture` and `make_item`,
what `studio qa capture --edition classic --small-stage --published-state ...` runs): the
ground truth of each question is the answer the VM gives on that screen, and each item records
its screen (stage, view, published state) and the box of the block it asks about.

The output is the published layout, written by the studio's own exporter:

    visual_perception_benchmark/tasks/<task_id>.json   published keys + "studio" (capture, ...)
    visual_perception_benchmark/screenshots_final/     1280x720 PNGs (shared by questions)
    scratch-gui/static/<screen>.sb3                    each screen's project as shown

so `studio qa recapture` (given the project) makes the same screens again; the classic edition's
e2e test does, and compares.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from studio.models.qa_item import QaType, Subject  # noqa: E402
from studio.services.diagnostics.drag.page import open_window  # noqa: E402
from studio.services.diagnostics.qa import screens  # noqa: E402
from studio.services.diagnostics.qa.capture import capture, make_item  # noqa: E402
from studio.services.diagnostics.qa.item import QaSet  # noqa: E402
from studio.services.formats.scratchworld.items.sets import export_diagnostics_only  # noqa: E402
from studio.services.runtime.browser import BrowserPool  # noqa: E402
from studio.services.runtime.editions import Edition  # noqa: E402

DEFAULT_OUT = ROOT / "tests" / "fixtures" / "scratchworld_qa_classic"
PROJECTS = Path("scratch-gui") / "static"


@dataclass
class ScreenSpec:
    name: str  # the screenshot's stem
    project: Path
    screen: screens.Screen
    questions: list[tuple[str, QaType, Subject, str, str]]  # id, type, subject, question, hint


SPECS = [
    ScreenSpec(
        "classic_cat_walk_gap",
        ROOT / "tasks" / "create_cat_walk" / "golden.sb3",
        screens.Screen(
            target="Cat",
            category="control",
            detach="Cat-3",
            offset=(60.0, 50.0),
            small_stage=True,
            published={"scale": 0.9, "scrollX": -340.0, "scrollY": -20.0},
        ),
        [
            (
                "cq_conn_repeat_gap",
                QaType.CONNECTION,
                Subject(block_id="Cat-3"),
                "Is the 'repeat' block directly connected to the block above it?",
                "repeat",
            ),
            (
                "cq_conn_move_in_repeat",
                QaType.CONNECTION,
                Subject(block_id="Cat-4"),
                "Is the 'move steps' block connected inside the 'repeat' block?",
                "move / repeat",
            ),
            (
                "cq_exist_move",
                QaType.EXISTENCE,
                Subject(opcode="motion_movesteps"),
                "Is there a 'move steps' block in the code area?",
                "move",
            ),
            (
                "cq_exist_forever",
                QaType.EXISTENCE,
                Subject(opcode="control_forever"),
                "Is there a 'forever' block in the code area?",
                "forever",
            ),
            (
                "cq_field_wait",
                QaType.FIELD,
                Subject(block_id="Cat-5", field="DURATION"),
                "How many seconds does the 'wait' block wait?",
                "wait",
            ),
        ],
    ),
    ScreenSpec(
        "classic_sum_to_n_gap",
        ROOT / "tasks" / "compute_sum_to_n" / "golden.sb3",
        screens.Screen(
            target="Robot",
            category="variables",
            detach="Robot-9",
            offset=(50.0, 60.0),
            small_stage=True,
            published={"scale": 0.675, "scrollX": -490.0, "scrollY": -45.0},
        ),
        [
            (
                "cq_conn_say_gap",
                QaType.CONNECTION,
                Subject(block_id="Robot-9"),
                "Is the 'say' block directly connected to the block above it?",
                "say",
            ),
            (
                "cq_field_change_counter",
                QaType.FIELD,
                Subject(block_id="Robot-7", field="VALUE"),
                "By how much does the first 'change' block change its variable?",
                "change counter",
            ),
            (
                "cq_exist_ask",
                QaType.EXISTENCE,
                Subject(opcode="sensing_askandwait"),
                "Is there an 'ask and wait' block in the code area?",
                "ask",
            ),
        ],
    ),
]


async def build(qa: QaSet, projects: Path) -> None:
    async with BrowserPool(spares=0) as pool:
        assert pool.server is not None
        page = await open_window(pool.context, pool.server, Edition.CLASSIC)
        for spec in SPECS:
            shot = f"{spec.name}.png"
            # loaded under the name it is kept by, so that a recapture shows the same title
            await screens.prepare(page, spec.project.read_bytes(), f"{spec.name}.sb3", spec.screen)
            png, info = await capture(page, "window")
            info.update(spec.screen.record())
            for task_id, kind, subject, question, hint in spec.questions:
                item = await make_item(page, task_id, question, kind, subject, shot, hint, info)
                qa.save(item, png)
                print(f"{task_id}: {item.ground_truth} ({item.tag})", flush=True)
            shown = await screens.shown_project(page)
            (projects / f"{spec.name}.sb3").write_bytes(shown)


def main(out: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="classic-qa-") as tmp:
        diag = Path(tmp) / "diagnostics"
        projects = Path(tmp) / "projects"
        projects.mkdir()
        asyncio.run(build(QaSet(diag / "qa"), projects))
        staged = Path(tmp) / "out"
        export_diagnostics_only(diag, staged)
        (staged / PROJECTS).mkdir(parents=True)
        for project in projects.iterdir():
            shutil.copyfile(project, staged / PROJECTS / project.name)
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(staged, out)
    print(f"written to {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT)

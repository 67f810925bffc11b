"""QA capture and propose's behaviour traces on the classic edition (the published benchmark's
editor), in the session's shared browser.

- The classic QA fixture (tests/fixtures/scratchworld_qa_classic, built by
  tools/build_classic_qa.py on the classic editor with the published restore) is imported
  as a ScratchWorld set is, and the studio's own recapture makes one of its screens again on
  classic from the fixture's project: the picture is the committed one, the block boxes are
  the recorded ones, and the VM still suggests every truth. The screen is the classic one
  (a current editor draws no backpack bar, other menus and palette), so a capture that ran on
  the wrong edition or skipped the published restore would not match.
- The behaviour trace recorder of `studio propose` runs on the classic evaluation page and
  records what it records on the current one.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from studio.services.core import paths
from studio.services.core.store import load_task
from studio.services.diagnostics.drag.page import open_window
from studio.services.diagnostics.qa.item import QaSet
from studio.services.diagnostics.qa.screens import recapture
from studio.services.formats.scratchworld.items.common import Report
from studio.services.formats.scratchworld.items.qa import QA_SHOTS, import_qa
from studio.services.formats.scratchworld.tasks.reports import ImportReport
from studio.services.propose import trace
from studio.services.propose.pipeline import read_projects
from studio.services.propose.scenarios import build_scenarios
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.editions import Edition
from studio.services.runtime.evaluator import Evaluator
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "scratchworld_qa_classic"
SCREEN = "classic_sum_to_n_gap"
CHANNEL_TOLERANCE = 24  # anti-aliasing of text and curves may differ a little between runs
# of the 1280x720 pixels: a capture again of the same screen differed in up to 0.21 % (a loaded
# CI run), the fixture's other screen differs in 11.3 %
DIFFERENT_SHARE = 0.005
FRAME_MS = 17


def _differing_share(a: bytes, b: bytes) -> float:
    first, second = (cv2.imdecode(np.frombuffer(x, np.uint8), cv2.IMREAD_COLOR) for x in (a, b))
    assert first.shape == second.shape
    gap = np.abs(first.astype(np.int16) - second.astype(np.int16)).max(axis=2)
    return float((gap > CHANNEL_TOLERANCE).mean())


def test_a_classic_qa_screen_is_made_again_by_the_studios_capture(
    loop_thread: LoopThread, browser_pool: BrowserPool, tmp_path: Path
) -> None:
    qa = QaSet(tmp_path / "qa")
    report: Report = ImportReport(FIXTURE, tmp_path)
    import_qa(FIXTURE, qa.root, report)
    assert not report.skipped and not report.warnings
    shown = [i for i in qa.items() if i.screenshot == f"{SCREEN}.png"]
    recorded = {i.task_id: i.capture.get("subject_box") for i in shown}
    assert len(shown) == 3 and all(i.capture.get("published_state") for i in shown)
    project = FIXTURE / "scratch-gui" / "static" / f"{SCREEN}.sb3"

    async def go() -> Any:
        assert browser_pool.server is not None
        page = await open_window(browser_pool.context, browser_pool.server, Edition.CLASSIC)
        try:
            return await recapture(page, qa, f"{SCREEN}.png", shown, project)
        finally:
            await page.close()

    done = loop_thread.run(go())
    assert done.disagree == []
    for item in done.items:
        box, was = item.capture.get("subject_box"), recorded[item.task_id]
        assert (box is None) == (was is None), item.task_id
        if box is not None:
            assert all(abs(box[k] - was[k]) <= 1 for k in "xywh"), (item.task_id, box, was)
    again = qa.screenshot_path(f"{SCREEN}.png").read_bytes()
    committed = (FIXTURE / QA_SHOTS / f"{SCREEN}.png").read_bytes()
    assert _differing_share(again, committed) <= DIFFERENT_SHARE


def test_propose_records_the_same_behaviour_on_classic(
    loop_thread: LoopThread, browser_pool: BrowserPool, classic_pool: BrowserPool
) -> None:
    entry = load_task(paths.BUNDLED_TASKS / "debug_score_reset")
    golden, gj, _, ij = read_projects(entry)
    scenarios = build_scenarios(gj, ij, entry.task.instruction)

    async def record(pool: BrowserPool) -> Any:
        with tempfile.TemporaryDirectory(prefix="studio-propose-") as tmp:
            runner = trace.ScriptRunner(Evaluator(pool), entry, Path(tmp))
            trace.use_trace_script(runner, scenarios)
            return trace.traces_of(await runner.run(golden, "golden.sb3", 0), "golden.sb3")

    classic = loop_thread.run(record(classic_pool))
    current = loop_thread.run(record(browser_pool))
    assert classic and classic.keys() == current.keys()
    for sid, mine in classic.items():
        theirs = current[sid]
        assert mine.end == theirs.end and mine.questions == theirs.questions, sid
        pairs = [(mine.changes[key], theirs.changes.get(key, [])) for key in mine.changes] + [
            (mine.says, theirs.says),
            (mine.broadcasts, theirs.broadcasts),
        ]
        assert mine.changes.keys() == theirs.changes.keys(), sid
        for a, b in pairs:  # the same events, at the same virtual times (within a frame:
            # a loaded machine may move a recording by a millisecond, on either edition)
            assert [e[1:] for e in a] == [e[1:] for e in b], sid
            assert all(abs(x[0] - y[0]) <= FRAME_MS for x, y in zip(a, b, strict=True)), sid

"""The run viewer opens a ScratchWorld task runner's task folder (tests/fixtures/sw_results)
as it opens a studio trajectory: steps, screenshots, the action marks, what is missing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.views.viewer.marks import mark_for
from studio.views.viewer.recorded import open_run

TASKS = Path(__file__).resolve().parents[2] / "fixtures" / "sw_results"
PRIM = TASKS / "result_gpt-4o_primitive_scratch_agent"


def test_a_task_runner_folder_opens_with_its_steps_and_marks(qapp: Any) -> None:
    opened = open_run(PRIM / "create" / "create_balloon_score")
    assert "gpt-4o (scratch_agent) on create_balloon_score" in opened.title
    assert "PASS 3/3 tests" in opened.title
    assert [s.record.action["api"] for s in opened.steps] == [
        "click", "drag_and_drop", "type", "done",
    ]  # fmt: skip
    assert all(s.screenshot_path is not None for s in opened.steps)
    drag = mark_for(opened.steps[1])
    assert drag.kind == "drag" and drag.points == [(75.0, 160.0), (520.0, 300.0)]


def test_missing_recording_and_screenshot_are_in_the_title(qapp: Any) -> None:
    opened = open_run(PRIM / "debug" / "debug_pong_paddle")
    assert opened.steps[1].missing == ["screenshot step_2.png"]
    assert "recording.webm: recording missing" in opened.title

"""compare: two runs aligned by step, final results by test, warnings for mismatched runs."""

from __future__ import annotations

from pathlib import Path

from studio.models.agent import Mode
from studio.services.runs.trajectories.compare import compare
from studio.services.runs.trajectories.text import format_comparison
from studio.services.runs.trajectories.view import load_view

from .build import result, run_info, step, write_trajectory


def test_steps_align_by_index_and_the_shorter_run_leaves_gaps(tmp_path: Path) -> None:
    a_steps = [step(1, x=1, y=1), step(2, x=2, y=2), step(3, "done")]
    b_steps = [step(1, x=1, y=1), step(2, x=9, y=9)]
    a = load_view(write_trajectory(tmp_path / "a", a_steps))
    b = load_view(write_trajectory(tmp_path / "b", b_steps))
    cmp = compare(a, b)
    assert [(r.index, r.same_action) for r in cmp.rows] == [(1, True), (2, False), (3, False)]
    assert cmp.rows[2].step_a is a.steps[2] and cmp.rows[2].step_b is None
    assert cmp.first_divergence == 2
    assert cmp.warnings == []


def test_final_results_side_by_side_by_test_name(tmp_path: Path) -> None:
    ra = run_info(eval=result("t1", {"moves": True, "says hi": False}))
    rb = run_info(eval=result("t1", {"says hi": True, "loops": True}))
    a = load_view(write_trajectory(tmp_path / "a", [step(1)], run=ra))
    b = load_view(write_trajectory(tmp_path / "b", [step(1)], run=rb))
    cmp = compare(a, b)
    rows = [(t.name, t.outcome_a, t.outcome_b) for t in cmp.tests]
    assert rows == [("moves", "pass", None), ("says hi", "fail", "pass"), ("loops", None, "pass")]
    assert "FAIL 1/2" in cmp.verdict_a and "PASS 2/2" in cmp.verdict_b
    text = format_comparison(cmp)
    assert "same actions throughout" in text and "says hi  fail      pass" in text


def test_different_tasks_modes_and_missing_verdicts_are_warned(tmp_path: Path) -> None:
    a = load_view(write_trajectory(tmp_path / "a", [step(1)], run=run_info("t1")))
    b = load_view(
        write_trajectory(tmp_path / "b", [step(1)], run=run_info("t2", mode=Mode.COMPOSITE))
    )
    cmp = compare(a, b)
    assert any("different tasks: t1" in w and "t2" in w for w in cmp.warnings)
    assert any("different modes" in w for w in cmp.warnings)
    assert cmp.verdict_a == "not evaluated" and cmp.tests == []
    (tmp_path / "b" / "run.json").unlink()
    cmp = compare(a, load_view(tmp_path / "b"))
    assert len(cmp.warnings) == 1 and "no readable run.json" in cmp.warnings[0]
    assert cmp.to_json()["steps"][0]["same_action"] is True

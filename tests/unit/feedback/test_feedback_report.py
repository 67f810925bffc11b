"""Best-so-far PSR beside final PSR, and turn 1 -> final with the improvement, in reports."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.agent import EpisodeStatus, Mode
from studio.models.evaluation import EvalResult
from studio.models.trajectory import RunInfo
from studio.services.runs.feedback_figures import episode_turns
from studio.services.runs.reports import format_table, report_for


def _episode(
    folder: Path, task_id: str, passed: int, total: int, meta: dict[str, Any], agent: str = "llm"
) -> None:
    result = EvalResult(
        task_id=task_id, project="f.sb3", success=passed == total, passed_tests=passed,
        total_tests=total, partial_success_rate=passed / total,
    )  # fmt: skip
    run = RunInfo(
        episode_id=task_id, task_id=task_id, mode=Mode.COMPOSITE, agent=agent, steps=3,
        started_at=datetime(2026, 1, 1, tzinfo=UTC), ended_at=datetime(2026, 1, 1, tzinfo=UTC),
        status=EpisodeStatus.DONE, eval=result, meta=meta,
    )  # fmt: skip
    folder.mkdir(parents=True)
    (folder / "run.json").write_text(run.model_dump_json())


def _turn(n: int, passed: int, total: int) -> dict[str, Any]:
    return {
        "turn": n, "after_step": n, "passed": passed, "total": total, "psr": passed / total,
        "success": passed == total, "failing": [], "error": None,
    }  # fmt: skip


def test_turn_one_final_improvement_and_best_so_far(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    # create_a: turn 1 at 1/4, turn 2 at 4/4, then broke it: final 2/4 (best so far 1.0)
    _episode(runs / "create_a", "create_a", 2, 4,
             {"feedback_turns": 2, "feedback": [_turn(1, 1, 4), _turn(2, 4, 4)]})  # fmt: skip
    # debug_b: one turn at 0/2, fixed after it: final 2/2
    _episode(runs / "debug_b", "debug_b", 2, 2,
             {"feedback_turns": 2, "feedback": [_turn(1, 0, 2)]})  # fmt: skip
    # extend_c: asked for none: turn 1 is its final 1/2
    _episode(runs / "extend_c", "extend_c", 1, 2, {"feedback_turns": 2})
    report = report_for(runs)
    (row,) = report.rows
    f = row.feedback
    assert f["episodes"] == 3 and f["turns_used"] == 3 and f["episodes_with_turns"] == 2
    assert f["budget"] == 2
    assert abs(f["turn1_psr"] - (0.25 + 0.0 + 0.5) / 3) < 1e-9
    assert abs(f["final_psr"] - (0.5 + 1.0 + 0.5) / 3) < 1e-9
    assert abs(f["best_psr"] - (1.0 + 1.0 + 0.5) / 3) < 1e-9
    assert abs(f["improvement_psr"] - (f["final_psr"] - f["turn1_psr"])) < 1e-9
    assert (f["turn1_sr"], abs(f["final_sr"] - 1 / 3) < 1e-9) == (0.0, True)
    text = format_table(report)
    assert "llm (composite): best so far 0.83, final 0.67 (3 episodes)" in text
    assert "turn 1 PSR 0.25 SR 0.00 -> final PSR 0.67 SR 0.33 (improvement +0.42 PSR" in text
    assert "3 feedback turns in 2 episodes, budget 2" in text


def test_without_feedback_best_so_far_comes_from_recorded_evaluations(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    evaluations = [{"passed": 2, "total": 2}, {"passed": 0, "total": 2}]  # SW routes, twice
    _episode(runs / "a" / "create_a", "create_a", 0, 2, {"evaluations": evaluations})
    _episode(runs / "b" / "create_a", "create_a", 1, 2, {}, agent="oracle")
    report = report_for(runs)
    rows = {r.agent: r.feedback for r in report.rows}
    assert rows["oracle"] == {"episodes": 1, "best_psr": 0.5, "final_psr": 0.5}
    assert rows["llm"]["best_psr"] == 1.0 and rows["llm"]["final_psr"] == 0.0
    assert rows["llm"]["turn1_psr"] == 1.0 and rows["llm"]["improvement_psr"] == -1.0
    assert episode_turns(tmp_path / "missing", 0.5, False).best_psr == 0.5


def test_the_html_report_shows_the_figures(tmp_path: Path) -> None:
    from studio.services.runs.report_html import render_html

    runs = tmp_path / "runs"
    _episode(runs / "create_a", "create_a", 2, 2,
             {"feedback_turns": 1, "feedback": [_turn(1, 1, 2)]})  # fmt: skip
    page = render_html(report_for(runs))
    assert "best so far 1.00, final 1.00" in page and "turn 1 PSR 0.50" in page
    assert json.loads(report_for(runs).model_dump_json())["rows"][0]["feedback"]["budget"] == 1

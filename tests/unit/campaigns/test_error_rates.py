"""Invalid-action and repeated-action rates per agent and mode in `studio report`."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from studio.models.agent import EpisodeStatus, Mode, StepRecord
from studio.models.evaluation import EvalResult
from studio.models.trajectory import RunInfo
from studio.services.episodes.recorder import TrajectoryRecorder
from studio.services.runs.error_rates import episode_counts
from studio.services.runs.reports import format_table, report_for

CLICK = {"api": "click", "args": {"x": 5, "y": 5}}
DRAG = {"api": "drag_and_drop", "args": {"start_index": 9, "end_x": 1, "end_y": 1}}


def _episode(
    folder: Path, task_id: str, steps: list[tuple[dict, bool]], agent: str = "llm"
) -> None:
    run = RunInfo(
        episode_id=task_id, task_id=task_id, mode=Mode.PRIMITIVE, agent=agent, steps=len(steps),
        started_at=datetime(2026, 1, 1, tzinfo=UTC), ended_at=datetime(2026, 1, 1, tzinfo=UTC),
        status=EpisodeStatus.DONE, eval=EvalResult(task_id=task_id, project="f.sb3"),
    )  # fmt: skip
    rec = TrajectoryRecorder(folder, run)
    for n, (action, ok) in enumerate(steps, 1):
        rec.append(StepRecord(index=n, at=datetime.now(UTC), action=action, ok=ok))
    rec.write_run()


def test_rates_count_refused_and_repeated_steps(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    # click, the same click again, a refused drag, the refused drag again, done
    _episode(runs / "create_a", "create_a",
             [(CLICK, True), (CLICK, True), (DRAG, False), (DRAG, False),
              ({"api": "done", "args": {}}, True)])  # fmt: skip
    _episode(runs / "debug_b", "debug_b", [(DRAG, False), ({"api": "done", "args": {}}, True)])
    (runs / "debug_b" / "steps.jsonl").open("a").write('{"index": 3, "act')  # torn last line
    assert episode_counts(runs / "create_a") == (5, 2, 2)
    assert episode_counts(runs / "debug_b") == (2, 1, 0)
    assert episode_counts(tmp_path / "nothing") == (0, 0, 0)
    report = report_for(runs)
    (row,) = report.rows
    assert row.error_rates["invalid"] == 3 and row.error_rates["steps"] == 7
    assert abs(row.error_rates["repeated_rate"] - 2 / 7) < 1e-9
    assert "llm (primitive): invalid 42.86% (3/7 steps), repeated 28.57% (2/7)" in format_table(
        report
    )


def test_episodes_evaluated_more_than_once_are_counted_and_flagged(tmp_path: Path) -> None:
    import json

    from studio.services.runs.error_rates import evaluation_count

    runs = tmp_path / "runs"
    _episode(runs / "create_a", "create_a", [(CLICK, True)])
    _episode(runs / "debug_b", "debug_b", [(CLICK, True)])
    path = runs / "create_a" / "run.json"
    run = json.loads(path.read_text())
    run["meta"]["evaluations"] = [
        {"at": "2026-01-01T00:00:00+00:00", "after_step": 1, "passed": 0, "total": 2},
        {"at": "2026-01-01T00:01:00+00:00", "after_step": 1, "passed": 2, "total": 2},
    ]
    path.write_text(json.dumps(run))
    assert evaluation_count(runs / "create_a") == 2 and evaluation_count(runs / "debug_b") == 0
    report = report_for(runs)
    assert report.rows[0].error_rates["evaluated_more_than_once"] == 1
    assert "FLAG: 1 episode(s) evaluated more than once" in format_table(report)


def test_steps_are_compared_with_the_oracles_on_shared_tasks(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    _episode(runs / "o" / "create_a", "create_a", [(CLICK, True)] * 2, agent="oracle")
    _episode(runs / "o" / "debug_b", "debug_b", [(CLICK, True)] * 4, agent="oracle")
    _episode(runs / "l" / "create_a", "create_a", [(CLICK, True)] * 6)  # 3x the oracle's
    _episode(runs / "l" / "debug_b", "debug_b", [(CLICK, True)] * 4)  # 1x
    _episode(runs / "l" / "extend_c", "extend_c", [(CLICK, True)] * 9)  # no oracle run
    report = report_for(runs)
    llm = next(r for r in report.rows if r.agent == "llm")
    oracle = next(r for r in report.rows if r.agent == "oracle")
    assert llm.error_rates["steps_vs_oracle"] == 2.0 and llm.error_rates["oracle_tasks"] == 2
    assert "steps_vs_oracle" not in oracle.error_rates
    assert "steps x2.00 the oracle's (2 tasks)" in format_table(report)


def test_sr_by_difficulty_and_tag_from_the_task_folders(tmp_path: Path) -> None:
    import json

    from tests.helpers.tasks import make_task

    lib = tmp_path / "lib"
    make_task(lib / "a", task_id="create_a", metadata={"difficulty": "easy", "tags": ["loops"]})
    make_task(lib / "b", task_id="debug_b", metadata={"difficulty": "hard", "tags": ["loops"]})
    runs = tmp_path / "runs"
    for task_id, folder, ok in (("create_a", "a", True), ("debug_b", "b", False)):
        _episode(runs / task_id, task_id, [(CLICK, True)])
        path = runs / task_id / "run.json"
        run = json.loads(path.read_text())
        run["task_folder"] = str(lib / folder)
        run["eval"].update(success=ok, passed_tests=2 if ok else 0, total_tests=2)
        path.write_text(json.dumps(run))
    report = report_for(runs)
    cells = report.rows[0].breakdowns
    assert cells["difficulty"] == {"easy": {"tasks": 1, "sr": 1.0}, "hard": {"tasks": 1, "sr": 0.0}}
    assert cells["tags"] == {"loops": {"tasks": 2, "sr": 0.5}}
    assert "by difficulty: easy 100.00% (1), hard 0.00% (1); by tag: loops 50.00% (2)" in (
        format_table(report)
    )

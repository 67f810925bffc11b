"""Whose failure an episode is (studio.services.runs.failures), in a batch, its ledger and the
report; and broken tasks found before any agent plays (studio.services.runs.preflight)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.agent import EpisodeStatus, Mode
from studio.models.evaluation import Clock, ErrorKind, EvalError, EvalResult
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.core.store import TaskFolder, load_task
from studio.services.runs import campaign
from studio.services.runs.batch import AgentFactory, run_batch
from studio.services.runs.failures import outcome_of, verdict_failure
from studio.services.runs.preflight import project_problems, record_problems
from studio.services.runs.reports import format_table, report_for
from studio.services.runtime.page_guard import PageLost
from tests.helpers.tasks import make_task


def _result(passed: int, total: int, kind: ErrorKind | None = None) -> EvalResult:
    return EvalResult(
        task_id="t",
        project="final.sb3",
        success=kind is None and passed == total > 0,
        passed_tests=passed,
        total_tests=total,
        partial_success_rate=passed / total if total else 0.0,
        error=EvalError(kind=kind, message="boom") if kind else None,
    )


def test_whose_failure_a_verdict_is() -> None:
    assert verdict_failure(_result(2, 2)) is None
    assert verdict_failure(_result(1, 2)) == "agent"
    assert verdict_failure(_result(0, 0, ErrorKind.SYNTAX)) == "task"
    assert verdict_failure(_result(0, 0, ErrorKind.RESULT)) == "task"
    assert verdict_failure(_result(0, 0, ErrorKind.CRASH)) == "environment"
    assert verdict_failure(_result(0, 1, ErrorKind.SCRIPT)) == "agent"
    assert outcome_of(None, None, agent_ended=False) == "unfinished"
    assert outcome_of(None, "agent", agent_ended=False) == "finished"
    assert outcome_of(None, "environment", agent_ended=False) == "environment"
    assert outcome_of(_result(1, 1), "task", agent_ended=False) == "task"


class VerdictRunner:
    """Plays every task to the verdict `verdict_of(task id)`, or raises what it gives."""

    def __init__(self, verdict_of: Callable[[str], EvalResult | BaseException]) -> None:
        self.verdict_of = verdict_of

    async def play(
        self,
        task: TaskFolder,
        agent_for: AgentFactory,
        position: int,
        mode: Mode,
        record_to: Path,
        clock: Clock,
        named: Callable[[str], None],
    ) -> tuple[EvalResult, Path | None, str]:
        verdict = self.verdict_of(task.task.id)
        if isinstance(verdict, BaseException):
            raise verdict
        return verdict, None, "fake"


def test_a_batch_counts_only_the_agent_s_episodes_and_names_the_others(tmp_path: Path) -> None:
    ids = ["create_pass", "create_fail", "debug_syntax", "extend_lost"]
    tasks = [load_task(make_task(tmp_path / "lib" / i, task_id=i)) for i in ids]
    verdicts: dict[str, EvalResult | BaseException] = {
        "create_pass": _result(2, 2),
        "create_fail": _result(1, 2),
        "debug_syntax": _result(0, 0, ErrorKind.SYNTAX),
        "extend_lost": PageLost("the editor page crashed (click action)"),
    }
    run_dir = tmp_path / "run"
    batch = asyncio.run(
        run_batch(
            VerdictRunner(verdicts.__getitem__),  # type: ignore[arg-type]
            tasks,
            lambda t, p: None,  # type: ignore[arg-type,return-value]
            Mode.PRIMITIVE,
            run_dir,
            agent_name="fake",
            ledger=campaign.Ledger(run_dir),
        )
    )
    failures = {o.task.task.id: o.failure for o in batch.outcomes}
    assert failures == {
        "create_pass": None,
        "create_fail": "agent",
        "debug_syntax": "task",
        "extend_lost": "environment",
    }
    assert batch.sr == 0.5 and len(batch.finished) == 2  # 1 of the agent's 2 episodes
    assert (batch.task_failures, batch.env_failures) == (1, 1)
    syntax = next(o for o in batch.outcomes if o.task.task.id == "debug_syntax")
    assert "the task's failure, not the agent's" in syntax.line()
    # a resume plays the task's and the environment's episodes again
    assert set(campaign.Ledger(run_dir).done) == {("create_pass", 1), ("create_fail", 1)}
    run = json.loads((run_dir / "debug_syntax" / RUN_FILE).read_text())
    assert run["meta"]["failure"] == "task"

    report = report_for(run_dir)
    (row,) = report.rows
    assert row.overall.sr == 0.5 and row.overall.episodes == 2
    assert (row.overall.task_failures, row.overall.env_failures) == (1, 1)
    text = format_table(report)
    assert "not counted in SR: 1 environment failures, 1 task failures" in text
    assert "not counted: extend_lost: environment failure: the editor page crashed" in text
    assert "not counted: debug_syntax: the task's failure: syntax: boom" in text


def test_a_corrupt_initial_project_is_the_task_s_problem_and_recorded_so(tmp_path: Path) -> None:
    good = load_task(make_task(tmp_path / "lib" / "good", task_id="create_good"))
    bad = load_task(make_task(tmp_path / "lib" / "bad", task_id="create_bad"))
    bad.initial_path.write_bytes(b"PK\x03\x04 not a zip at all")
    problems = project_problems([good, bad])
    assert [p.task.task.id for p in problems] == ["create_bad"]
    assert problems[0].line().startswith("TASK PROBLEM create_bad: initial project ")
    assert str(bad.initial_path) in problems[0].message

    run_dir = tmp_path / "run"
    jobs, _ = campaign.plan_jobs([good, bad], run_dir, epochs=2)
    record_problems(problems, jobs, Mode.COMPOSITE, "oracle")
    assert not (run_dir / "create_good").exists()
    for epoch in (1, 2):
        run = RunInfo.model_validate_json(
            (run_dir / "create_bad" / f"epoch-{epoch}" / RUN_FILE).read_text()
        )
        assert run.meta["failure"] == "task" and run.meta["epoch"] == epoch
        assert run.eval is None and run.status is EpisodeStatus.CLOSED
    (row,) = report_for(run_dir).rows
    assert row.overall.tasks == 0 and row.overall.task_failures == 2
    assert row.not_counted[0].startswith("create_bad: the task's failure: ")


def test_an_episode_killed_half_way_is_shown_apart(tmp_path: Path) -> None:
    now = datetime.now(UTC)
    for task_id, result in (("create_a", _result(1, 1)), ("create_b", None)):
        folder = tmp_path / task_id
        folder.mkdir()
        run = RunInfo(
            episode_id="e",
            task_id=task_id,
            mode=Mode.COMPOSITE,
            agent="oracle",
            started_at=now,
            ended_at=now,
            status=EpisodeStatus.CLOSED,
            eval=result,
        )
        (folder / RUN_FILE).write_text(run.model_dump_json())
    (row,) = report_for(tmp_path).rows
    assert row.overall.sr == 1.0 and row.overall.unfinished == 1
    assert row.not_counted == ["create_b: unfinished: not evaluated (status closed)"]


def test_studio_run_prints_each_episode_s_line_as_it_ends(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    import contextlib

    import studio.app.campaigns.play as play
    import studio.cli.run as run_cli
    from studio.cli import build_parser

    for task_id in ("create_a", "create_b"):
        make_task(tmp_path / "lib" / task_id, task_id=task_id)
    seen_before: dict[str, str] = {}

    class Home:
        async def play(self, task: TaskFolder, *_: Any) -> tuple[EvalResult, None, str]:
            seen_before[task.task.id] = capsys.readouterr().out
            return _result(1, 1), None, "fake"

    @contextlib.asynccontextmanager
    async def episodes(*_: Any) -> Any:
        yield Home()

    async def no_problems(*_: Any) -> list[Any]:
        return []

    monkeypatch.setattr(play, "episode_home", episodes)
    monkeypatch.setattr(play, "check_tasks", no_problems)
    args = build_parser().parse_args(
        ["run", str(tmp_path / "lib"), "--agent", "idle", "--out", str(tmp_path / "runs")]
    )
    assert asyncio.run(run_cli.run_campaign(args)) == 0
    assert "PASS  create_a: 1/1 tests" in seen_before["create_b"]  # printed before B played
    assert "SR 100.00% (2/2 finished episodes)" in capsys.readouterr().out


def test_the_html_report_names_the_episodes_not_counted(tmp_path: Path) -> None:
    from studio.services.runs.report_html import render_html

    test_an_episode_killed_half_way_is_shown_apart(tmp_path)
    page = render_html(report_for(tmp_path))
    assert "<h2>Not counted in SR</h2>" in page
    assert "oracle (composite): create_b: unfinished: not evaluated (status closed)" in page

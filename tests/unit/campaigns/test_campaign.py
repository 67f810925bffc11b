"""Campaigns without a browser: epochs, the results ledger, resume, retries, torn files."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Error as PlaywrightError

from studio.models.agent import EpisodeStatus, Mode
from studio.models.errors import StudioError
from studio.models.evaluation import Clock, ErrorKind, EvalError, EvalResult
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.core.store import TaskFolder, load_task
from studio.services.episodes.agents.base import Agent
from studio.services.runs import campaign
from studio.services.runs.batch import AgentFactory, BatchResult, run_batch
from studio.services.runs.reports import report_for
from tests.helpers.tasks import make_task


class FakeRunner:
    """Plays episodes by writing the run.json a recorder writes; `fail(task, epoch)` may raise."""

    def __init__(self, fail: Callable[[str, int], BaseException | None] | None = None) -> None:
        self.plays: Counter[tuple[str, int]] = Counter()
        self.positions: dict[tuple[str, int], int] = {}
        self.fail = fail

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
        epoch = 1 if record_to.parent.name != task.task.id else int(record_to.name.split("-")[1])
        self.plays[(task.task.id, epoch)] += 1
        self.positions[(task.task.id, epoch)] = position
        error = self.fail(task.task.id, epoch) if self.fail else None
        if error is not None:
            raise error
        passed = (position % 2) * 2  # odd positions pass
        result = EvalResult(
            task_id=task.task.id,
            project="final.sb3",
            success=passed == 2,
            passed_tests=passed,
            total_tests=2,
            partial_success_rate=passed / 2,
        )
        run = RunInfo(
            episode_id="e",
            task_id=task.task.id,
            task_folder=str(task.folder),
            mode=mode,
            agent="fake",
            started_at=datetime.now(UTC),
            ended_at=datetime.now(UTC),
            status=EpisodeStatus.DONE,
            eval=result,
        )
        record_to.mkdir(parents=True, exist_ok=True)
        (record_to / RUN_FILE).write_text(run.model_dump_json(), encoding="utf-8")
        return result, record_to, "fake"


@pytest.fixture
def tasks(tmp_path: Path) -> list[TaskFolder]:
    lib = tmp_path / "lib"
    return [
        load_task(make_task(lib / "a", task_id="create_a")),
        load_task(make_task(lib / "b", task_id="debug_b", category="debug")),
    ]


def _run(runner: FakeRunner, tasks: list[TaskFolder], run_dir: Path, **kw: Any) -> BatchResult:
    ledger = campaign.Ledger(run_dir)
    coro = run_batch(
        runner, tasks, _no_agent, Mode.COMPOSITE, run_dir, 2, "fake", ledger=ledger, **kw
    )
    return asyncio.run(coro)


def _no_agent(task: TaskFolder, position: int) -> Agent:
    raise AssertionError("the fake runner makes no agent")


def test_epochs_play_each_task_k_times_with_fixed_seed_positions(
    tasks: list[TaskFolder], tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    runner = FakeRunner()
    batch = _run(runner, tasks, run_dir, epochs=3)
    assert len(batch.outcomes) == 6 and set(runner.plays.values()) == {1}
    # position = (epoch - 1) * tasks + index: the same on a resume, whatever was finished
    assert runner.positions[("create_a", 1)] == 0 and runner.positions[("debug_b", 3)] == 5
    assert (run_dir / "debug_b" / "epoch-3" / RUN_FILE).is_file()
    run = json.loads((run_dir / "create_a" / "epoch-2" / RUN_FILE).read_text())
    assert run["meta"] == {"epoch": 2, "seed_position": 2, "failure": "agent"}
    lines = (run_dir / campaign.RESULTS_FILE).read_text().splitlines()
    assert sorted((json.loads(x)["task"], json.loads(x)["epoch"]) for x in lines) == sorted(
        runner.plays
    )
    cell = report_for(run_dir).rows[0].overall
    assert (cell.tasks, cell.episodes) == (2, 6) and cell.pass_at_k.keys() == {1, 2, 3}


def test_resume_plays_only_unfinished_episodes_and_never_a_finished_one(
    tasks: list[TaskFolder], tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    first = FakeRunner(fail=lambda t, e: KeyboardInterrupt() if e == 2 else None)
    with pytest.raises(KeyboardInterrupt):  # stopped in epoch 2: epoch 1 finished
        _run(first, tasks, run_dir, epochs=2)
    ledger = campaign.Ledger(run_dir)
    assert set(ledger.done) == {("create_a", 1), ("debug_b", 1)}
    # an episode that finished (verdict in run.json) but died before its ledger line
    second = FakeRunner()
    asyncio.run(
        second.play(tasks[0], _no_agent, 2, Mode.COMPOSITE, run_dir / "create_a" / "epoch-2",
                    Clock.REAL, print)
    )  # fmt: skip
    verdicts = {k: (v["success"], v["passed"]) for k, v in ledger.done.items()}
    third = FakeRunner()
    _run(third, tasks, run_dir, epochs=2)
    assert dict(third.plays) == {("debug_b", 2): 1}
    done = campaign.Ledger(run_dir).done
    assert len(done) == 4
    assert {k: (v["success"], v["passed"]) for k, v in done.items() if k in verdicts} == verdicts
    lines = (run_dir / campaign.RESULTS_FILE).read_text().splitlines()
    assert len(lines) == 4  # one line per episode, none twice


def test_environment_failures_are_retried_and_reported_apart(
    tasks: list[TaskFolder], tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    crashes = Counter[str]()

    def fail(task: str, epoch: int) -> BaseException | None:
        crashes[task] += 1
        if task == "create_a" and crashes[task] == 1:
            return PlaywrightError("Target page, context or browser has been closed")
        if task == "debug_b":
            return TimeoutError("page did not answer")
        return None

    runner = FakeRunner(fail)
    batch = _run(runner, tasks, run_dir, retries=2)
    assert runner.plays == Counter({("create_a", 1): 2, ("debug_b", 1): 3})
    assert (batch.env_retries, batch.env_failures) == (3, 1)
    a = json.loads((run_dir / "create_a" / RUN_FILE).read_text())
    assert a["eval"] is not None and a["meta"]["env_retries"] == 1
    b = json.loads((run_dir / "debug_b" / RUN_FILE).read_text())
    assert b["meta"]["failure"] == "environment" and b["meta"]["env_retries"] == 2
    row = report_for(run_dir).rows[0]
    assert row.overall.env_failures == 1 and row.overall.episodes == 1  # not counted in SR
    # not finished: a resume plays it again; an agent's failure is finished
    again = FakeRunner(lambda t, e: ValueError("the agent broke"))
    _run(again, tasks, run_dir)
    assert dict(again.plays) == {("debug_b", 1): 1}
    assert campaign.Ledger(run_dir).done[("debug_b", 1)]["failure"] == "agent"
    last = FakeRunner()
    _run(last, tasks, run_dir)
    assert not last.plays


def test_torn_manifest_and_result_lines_are_named(tasks: list[TaskFolder], tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    manifest = campaign.new_manifest(tasks, "fake", Mode.COMPOSITE, 2, 0, steps=None)
    campaign.write_manifest(run_dir, manifest)
    assert campaign.read_manifest(run_dir).task_ids() == ["create_a", "debug_b"]
    assert manifest.tasks[0].script_sha256 == campaign.script_hash(tasks[0].script_path)
    path = run_dir / campaign.MANIFEST_FILE
    path.write_text(path.read_text()[:40])
    with pytest.raises(StudioError, match=f"{path}: torn or invalid manifest"):
        campaign.read_manifest(run_dir)
    results = run_dir / campaign.RESULTS_FILE
    good = json.dumps({"task": "create_a", "epoch": 1, "success": True}) + "\n"
    results.write_text(good + '{"task": "debug_b", "ep')  # killed while writing
    ledger = campaign.Ledger(run_dir)
    assert ledger.warnings == [
        f"{results}: line 2 is torn (the run was killed while writing it); dropped, that "
        "episode is looked up in its folder"
    ]
    assert results.read_text() == good and list(ledger.done) == [("create_a", 1)]
    results.write_text("not json\n" + good)
    with pytest.raises(StudioError, match=f"{results}: line 1: not a result line"):
        campaign.Ledger(run_dir)


def test_resume_checks_the_tasks_given(tasks: list[TaskFolder], tmp_path: Path) -> None:
    manifest = campaign.new_manifest(tasks, "fake", Mode.COMPOSITE, 1, 0)
    assert campaign.check_resume(manifest, tasks) == []
    with pytest.raises(StudioError, match=r"missing: \['debug_b'\]"):
        campaign.check_resume(manifest, tasks[:1])
    tasks[1].script_path.write_text("module.exports = async () => ({});\n")
    (warning,) = campaign.check_resume(manifest, tasks)
    assert warning == f"{tasks[1].script_path}: evaluation script changed since the campaign began"


class StalledEvaluations(FakeRunner):
    """Plays every episode, but the first `bad` evaluations of a task end with `kind`."""

    def __init__(self, kind: ErrorKind, bad: int) -> None:
        super().__init__()
        self.kind, self.bad = kind, bad

    async def play(self, task: TaskFolder, *args: Any) -> tuple[EvalResult, Path | None, str]:
        result, folder, name = await super().play(task, *args)
        if sum(n for (t, _), n in self.plays.items() if t == task.task.id) <= self.bad:
            error = EvalError(kind=self.kind, message="the page stopped answering")
            result = result.model_copy(
                update={"error": error, "success": False, "passed_tests": 0, "total_tests": 0}
            )
        return result, folder, name


@pytest.mark.parametrize("kind", [ErrorKind.STALLED, ErrorKind.CRASH])
def test_an_evaluation_the_environment_broke_is_retried_and_never_finished(
    tasks: list[TaskFolder], tmp_path: Path, kind: ErrorKind
) -> None:
    run_dir = tmp_path / "run"
    once = StalledEvaluations(kind, bad=1)
    batch = _run(once, tasks, run_dir, retries=1)
    assert (batch.env_retries, batch.env_failures) == (2, 0)  # each task played twice
    assert all(line["total"] == 2 for line in campaign.Ledger(run_dir).done.values())
    always = StalledEvaluations(kind, bad=99)
    other = tmp_path / "other"
    batch = _run(always, tasks, other, retries=1)
    assert batch.env_failures == 2
    assert campaign.Ledger(other).done == {}  # a resume plays them again
    run = json.loads((other / "create_a" / RUN_FILE).read_text())
    assert run["meta"]["failure"] == "environment" and kind.value in run["meta"]["error"]


def test_a_script_that_runs_out_of_time_is_the_agents_verdict(
    tasks: list[TaskFolder], tmp_path: Path
) -> None:
    batch = _run(StalledEvaluations(ErrorKind.TIMEOUT, bad=99), tasks, tmp_path / "run")
    assert batch.env_failures == 0 and len(campaign.Ledger(tmp_path / "run").done) == 2


class TornDownOnStop(FakeRunner):
    """An episode that is still playing when the run stops, and fails on what the stop tore
    down (an AttributeError where a closed manager dropped its pages) instead of ending as
    cancelled."""

    def __init__(self) -> None:
        super().__init__()
        self.playing = asyncio.Event()

    async def play(self, task: TaskFolder, *args: Any) -> tuple[EvalResult, Path | None, str]:
        if task.task.id == "create_a":
            return await super().play(task, *args)
        self.playing.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            raise AttributeError("'NoneType' object has no attribute 'top_up'") from None
        raise AssertionError("not reached")


def test_an_episode_broken_by_the_stop_of_its_run_is_not_finished(
    tasks: list[TaskFolder], tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    runner = TornDownOnStop()

    async def stop_while_playing() -> None:
        ledger = campaign.Ledger(run_dir)
        run = asyncio.ensure_future(
            run_batch(runner, tasks, _no_agent, Mode.COMPOSITE, run_dir, 2, "fake", ledger=ledger)
        )
        await runner.playing.wait()
        run.cancel()  # what Ctrl+C does to `studio run`
        with pytest.raises(asyncio.CancelledError):
            await run

    asyncio.run(stop_while_playing())
    assert set(campaign.Ledger(run_dir).done) == {("create_a", 1)}  # a resume plays debug_b
    assert not (run_dir / "debug_b" / RUN_FILE).exists()

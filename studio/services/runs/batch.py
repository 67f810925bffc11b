"""Batch runs: one agent on many tasks in one mode, several episodes side by side.

Each episode is recorded under `<run dir>/<task id>/` (run.json, steps.jsonl, screenshots), so
`studio report` can read the batch back. An episode that crashes (the agent's endpoint is down,
the editor would not load the project) is recorded as a run without a verdict, counted as a
failure, and the batch goes on. A crash of the environment (the browser, a page or endpoint
time-out, a transient answer of the model's endpoint: `failure_kind`; an evaluation whose page
crashed or stalled, or that found no browser: `ENVIRONMENT_KINDS`) is retried up to
`retries` times from a clean folder, in a relaunched browser when the old one died (the manager's
`ensure_alive`, before each episode); what is left is recorded as `meta.failure` "environment",
apart from the agent's own failures ("agent").

With `epochs` each task is played that many times (studio.services.runs.campaign says where and with
which seed); with a campaign `ledger` the episodes it holds are skipped and each finished one
is added to it, so a resumed campaign never plays a finished episode again. An episode left
to an environment failure (or the task's) is not added: a resume plays it again.

Every outcome says whose failure it is (`failure`): the agent's (its program failed, or it
crashed), the task's (its script does not parse or gave no result: `TASK_KINDS`) or the
environment's. SR and PSR count only the agent's own episodes (`finished`); the others are
counted apart (`env_failures`, `task_failures`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import shutil
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from studio.models.agent import EpisodeStatus, Mode
from studio.models.errors import StudioError
from studio.models.evaluation import Clock, EvalResult
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.core import atomic
from studio.services.core.store import TaskFolder
from studio.services.episodes.agents.base import Agent, run_episode
from studio.services.episodes.limits import Limits, PriceTable
from studio.services.runs.campaign import Job, Ledger, plan_jobs, result_line
from studio.services.runs.failures import (
    ENVIRONMENT_KINDS,
    NOT_COUNTED,
    TASK_KINDS,
    verdict_failure,
)

if TYPE_CHECKING:
    from studio.services.episodes.manager import EpisodeManager

__all__ = [
    "ENVIRONMENT_KINDS", "NOT_COUNTED", "TASK_KINDS", "AgentFactory", "BatchResult",
    "EnvironmentFailure", "EpisodeOutcome", "EpisodeRunner", "ManagerEpisodes", "failure_kind",
    "run_batch", "run_dir_name", "verdict_failure",
]  # fmt: skip

log = logging.getLogger(__name__)

AgentFactory = Callable[[TaskFolder, int], Agent]  # (task, its position in the batch) -> agent


@dataclass
class EpisodeOutcome:
    """How one task went: the verdict (None when the episode crashed) and where it is recorded."""

    task: TaskFolder
    result: EvalResult | None
    folder: Path
    seconds: float
    error: str | None = None
    epoch: int = 1
    failure: str | None = None  # whose failure it is: "agent" | "task" | "environment"
    retries: int = 0  # environment failures retried before this outcome

    @property
    def label(self) -> str:
        return self.task.task.id if self.epoch == 1 else f"{self.task.task.id}#{self.epoch}"

    @property
    def success(self) -> bool:
        return self.result is not None and self.result.ok

    @property
    def counted(self) -> bool:
        """Does the episode count in SR and PSR (the agent's own success or failure)?"""
        return self.failure not in NOT_COUNTED

    @property
    def psr(self) -> float:
        if self.result is None or self.result.error is not None:
            return 0.0
        return self.result.partial_success_rate

    def line(self) -> str:
        """One line for the terminal."""
        tid = self.label
        if self.error is not None:
            return f"ERROR {tid} ({self.failure or 'agent'}): {self.error}"
        assert self.result is not None
        verdict = "PASS " if self.success else "FAIL "
        tests = f"{self.result.passed_tests}/{self.result.total_tests} tests"
        extra = f" ({self.result.error.kind.value})" if self.result.error else ""
        if self.failure == "task":
            extra += ": the task's failure, not the agent's (not counted in SR)"
        return f"{verdict} {tid}: {tests}{extra} in {self.seconds:.1f} s"


@dataclass
class BatchResult:
    """All outcomes of a batch, with SR and PSR over its tasks."""

    run_dir: Path
    agent: str
    mode: Mode
    outcomes: list[EpisodeOutcome] = field(default_factory=list)
    seconds: float = 0.0
    run_meta: dict[str, Any] = field(default_factory=dict)  # into every run.json's meta

    @property
    def finished(self) -> list[EpisodeOutcome]:
        """The episodes that count: the agent's own successes and failures (not those the
        task or the environment caused)."""
        return [o for o in self.outcomes if o.counted]

    @property
    def sr(self) -> float:
        done = self.finished
        return sum(o.success for o in done) / len(done) if done else 0.0

    @property
    def psr(self) -> float:
        done = self.finished
        return sum(o.psr for o in done) / len(done) if done else 0.0

    @property
    def task_failures(self) -> int:
        return sum(o.failure == "task" for o in self.outcomes)

    @property
    def errors(self) -> int:
        return sum(o.error is not None for o in self.outcomes)

    @property
    def env_failures(self) -> int:
        return sum(o.failure == "environment" for o in self.outcomes)

    @property
    def env_retries(self) -> int:
        return sum(o.retries for o in self.outcomes)

    def spent(self) -> dict[str, Any]:
        """Tokens and cost over the episodes, from their run.json (`meta.usage`)."""
        total: dict[str, Any] = {"prompt_tokens": 0, "completion_tokens": 0, "cost": None}
        for outcome in self.outcomes:
            run = _read_run(outcome.folder)
            usage = run.meta.get("usage") if run else None
            if not isinstance(usage, dict):
                continue
            for name in ("prompt_tokens", "completion_tokens"):
                total[name] += int(usage.get(name) or 0)
            if isinstance(usage.get("cost"), int | float):
                total["cost"] = (total["cost"] or 0.0) + usage["cost"]
        return total

    def episodes_per_hour(self) -> float:
        return 3600 * len(self.outcomes) / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "run_dir": str(self.run_dir),
            "agent": self.agent,
            "mode": self.mode.value,
            "tasks": len(self.outcomes),
            "sr": self.sr,
            "psr": self.psr,
            "finished": len(self.finished),
            "errors": self.errors,
            "env_failures": self.env_failures,
            "task_failures": self.task_failures,
            "env_retries": self.env_retries,
            "usage": self.spent(),
            "seconds": round(self.seconds, 2),
            "episodes_per_hour": round(self.episodes_per_hour(), 1),
            "episodes": [
                {
                    "task": o.task.task.id,
                    "epoch": o.epoch,
                    "category": o.task.task.category.value,
                    "success": o.success,
                    "passed_tests": o.result.passed_tests if o.result else 0,
                    "total_tests": o.result.total_tests if o.result else 0,
                    "psr": o.psr,
                    "seconds": round(o.seconds, 2),
                    "folder": str(o.folder),
                    "error": o.error,
                    "failure": o.failure,
                }
                for o in self.outcomes
            ],
        }


def run_dir_name(agent: str, mode: Mode, when: datetime | None = None) -> str:
    """`<agent>-<mode>-<timestamp>`, safe as a folder name."""
    stamp = (when or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", agent).strip("_") or "agent"
    return f"{safe}-{Mode(mode).value}-{stamp}"


@runtime_checkable
class EpisodeRunner(Protocol):
    """Plays one episode of a batch: here through an episode manager (`ManagerEpisodes`), or
    on a cluster's worker (studio.services.distributed). Returns the verdict, the trajectory
    folder (None when nothing was recorded here) and the agent's name; `named(name)` is told
    the agent's name as soon as it is known here (a failed episode's record keeps it)."""

    async def play(
        self,
        task: TaskFolder,
        agent_for: AgentFactory,
        position: int,
        mode: Mode,
        record_to: Path,
        clock: Clock,
        named: Callable[[str], None],
    ) -> tuple[EvalResult, Path | None, str]: ...


class ManagerEpisodes:
    """Episodes played through an episode manager: this process's browser, or a server's;
    within `limits`, the agent's tokens priced by `prices` (run.json `meta.usage`), each
    granting `feedback_turns` mid-episode evaluations (episodes.feedback)."""

    def __init__(
        self,
        manager: EpisodeManager,
        limits: Limits | None = None,
        prices: PriceTable | None = None,
        feedback_turns: int = 0,
    ) -> None:
        self.manager = manager
        self.limits = limits
        self.prices = prices
        self.feedback_turns = feedback_turns

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
        agent = agent_for(task, position)
        named(agent.name)
        relaunch = getattr(self.manager, "ensure_alive", None)
        if relaunch is not None and await relaunch():  # a crashed browser, for a retry
            log.warning("%s: the browser had died; relaunched it", task.task.id)
        started = datetime.now(UTC)
        spent: dict[str, Any] = {}
        result, recorded = await run_episode(
            self.manager,
            task,
            mode,
            agent,
            record_to,
            clock,
            self.limits,
            self.prices,
            spent,
            self.feedback_turns,
        )
        if spent:
            _write_run(record_to, task, mode, agent.name, started, result=result, meta=spent)
        return result, recorded, agent.name


async def run_batch(
    manager: EpisodeManager | EpisodeRunner,
    tasks: list[TaskFolder],
    agent_for: AgentFactory,
    mode: Mode,
    run_dir: Path,
    workers: int = 1,
    agent_name: str = "",
    on_done: Callable[[int, int, EpisodeOutcome], None] | None = None,
    clock_for: Callable[[TaskFolder], Clock] | None = None,
    epochs: int = 1,
    ledger: Ledger | None = None,
    retries: int = 0,
    limits: Limits | None = None,
    prices: PriceTable | None = None,
    jobs: list[Job] | None = None,
    run_meta: dict[str, Any] | None = None,
    should_stop: Callable[[], bool] | None = None,
    after_episode: Callable[[Path], Awaitable[Any]] | None = None,
) -> BatchResult:
    """Run `epochs` episodes per task (less what `ledger` holds), `workers` at a time;
    `on_done(done, total, outcome)` reports each. `jobs`: the episodes `plan_jobs` already
    planned for these arguments (else they are planned here).

    `clock_for(task)` picks the evaluation clock of each task (default: real time).
    `manager` is an episode manager, or an EpisodeRunner that plays the episodes elsewhere
    (`limits` and `prices` apply to episodes played through a manager; a runner is given
    its own, as `distributed.cluster_episodes` is). `run_meta` (the run's protocol and
    settings) goes into every episode's run.json `meta`; its `feedback_turns` is each episode's
    feedback budget (episodes.feedback). Once `should_stop()` is true no
    further episode starts (those under way finish): the outcomes are those played, and the
    others, never begun, are left to a resume. `after_episode(folder)` is awaited after each
    counted episode, before its result line (the repair measures of a debug episode go into
    its run.json there); an error of it is logged and the batch goes on.
    """
    if isinstance(manager, EpisodeRunner):
        runner: EpisodeRunner = manager
    else:
        runner = ManagerEpisodes(manager, limits, prices, _feedback_budget(run_meta))
    run_dir.mkdir(parents=True, exist_ok=True)
    batch = BatchResult(run_dir, agent_name, Mode(mode), run_meta=dict(run_meta or {}))
    if jobs is None:
        jobs, _ = plan_jobs(tasks, run_dir, epochs, ledger)
    slots = asyncio.Semaphore(max(1, workers))
    t0 = time.perf_counter()

    async def one(job: Job) -> EpisodeOutcome | None:
        async with slots:
            if should_stop is not None and should_stop():
                return None  # not begun: no folder, no result
            clock = clock_for(job.task) if clock_for else Clock.REAL
            outcome = await _retried(runner, job, agent_for, batch, clock, retries)
            if after_episode is not None and outcome.counted:
                try:
                    await after_episode(job.folder)
                except Exception:
                    log.exception("%s: measuring the episode failed", job.task.task.id)
            if ledger is not None and outcome.counted:  # the others a resume plays again
                run = _read_run(job.folder)
                if run is not None:
                    ledger.add(result_line(run, job.task.task.id, job.epoch, job.folder))
        batch.outcomes.append(outcome)
        if on_done is not None:
            on_done(len(batch.outcomes), len(jobs), outcome)
        return outcome

    ordered = await asyncio.gather(*(one(job) for job in jobs))
    batch.outcomes = [outcome for outcome in ordered if outcome is not None]
    batch.seconds = time.perf_counter() - t0
    return batch


def _feedback_budget(run_meta: dict[str, Any] | None) -> int:
    """The feedback turns the run's protocol grants (`protocol.settings.feedback_turns`)."""
    protocol = (run_meta or {}).get("protocol")
    settings = protocol.get("settings") if isinstance(protocol, dict) else None
    turns = settings.get("feedback_turns") if isinstance(settings, dict) else None
    return turns if isinstance(turns, int) and not isinstance(turns, bool) else 0


class EnvironmentFailure(StudioError):
    """The episode played, but its evaluation failed for the environment's reasons."""


def failure_kind(exc: BaseException) -> str:
    """ "environment" for a crash the agent did not cause (the browser or page died or timed
    out, the model's endpoint was unreachable or answered 5xx/429), else "agent"."""
    from playwright.async_api import Error as PlaywrightError

    from studio.services.episodes.agents.llm import LlmUnavailable
    from studio.services.runtime.page_guard import PageLost

    environment = (
        PlaywrightError,
        LlmUnavailable,
        TimeoutError,
        ConnectionError,
        EnvironmentFailure,
        PageLost,
    )
    return "environment" if isinstance(exc, environment) else "agent"


async def _retried(
    runner: EpisodeRunner,
    job: Job,
    agent_for: AgentFactory,
    batch: BatchResult,
    clock: Clock,
    retries: int,
) -> EpisodeOutcome:
    """Play the job; replay it from a clean folder after an environment failure, `retries`
    times at most."""
    for attempt in range(retries + 1):
        outcome = await _episode(runner, job, agent_for, batch, clock, attempt)
        if outcome.failure != "environment" or attempt == retries:
            return outcome
        log.warning("%s: environment failure, retrying: %s", outcome.label, outcome.error)
        shutil.rmtree(job.folder, ignore_errors=True)
    raise AssertionError("unreachable")


async def _episode(
    runner: EpisodeRunner,
    job: Job,
    agent_for: AgentFactory,
    batch: BatchResult,
    clock: Clock,
    attempt: int = 0,
) -> EpisodeOutcome:
    task, folder = job.task, job.folder
    t0 = time.perf_counter()
    started = datetime.now(UTC)
    names = [batch.agent]
    meta: dict[str, Any] = {**batch.run_meta, "epoch": job.epoch, "seed_position": job.position}
    if attempt:
        meta["env_retries"] = attempt
    try:
        result, _recorded, agent_name = await runner.play(
            task, agent_for, job.position, batch.mode, folder, clock, names.append
        )
        if result.error is not None and result.error.kind in ENVIRONMENT_KINDS:
            kind, message = result.error.kind.value, result.error.message
            raise EnvironmentFailure(f"the evaluation failed ({kind}): {message}")
        failure = verdict_failure(result)
        if failure is not None:
            meta["failure"] = failure
        # the verdict is kept here too when the episode ran elsewhere (a server)
        _write_run(folder, task, batch.mode, agent_name, started, result=result, meta=meta)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        current = asyncio.current_task()
        if current is not None and current.cancelling():
            # the run is stopping (Ctrl+C) and tore down what the episode stood on: that is
            # nobody's verdict, and a resume plays the episode again
            raise asyncio.CancelledError from exc
        log.warning("%s: episode failed: %s", task.task.id, exc, exc_info=True)
        error = str(exc) or type(exc).__name__
        meta["failure"] = failure_kind(exc)
        _write_run(folder, task, batch.mode, names[-1], started, error=error, meta=meta)
        seconds = time.perf_counter() - t0
        return EpisodeOutcome(
            task, None, folder, seconds, error, job.epoch, meta["failure"], attempt
        )
    seconds = time.perf_counter() - t0
    return EpisodeOutcome(task, result, folder, seconds, None, job.epoch, failure, attempt)


def _read_run(folder: Path) -> RunInfo | None:
    try:
        return RunInfo.model_validate_json((folder / RUN_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _write_run(
    folder: Path,
    task: TaskFolder,
    mode: Mode,
    agent: str,
    started: datetime,
    result: EvalResult | None = None,
    error: str | None = None,
    meta: dict[str, Any] | None = None,
) -> None:
    """Leave or complete the run.json of an episode (recorded here, elsewhere, or crashed)."""
    path = folder / RUN_FILE
    run: RunInfo | None = None
    if path.is_file():
        with contextlib.suppress(OSError, ValueError):
            run = RunInfo.model_validate_json(path.read_text(encoding="utf-8"))
    if run is None:
        run = RunInfo(
            episode_id="",
            task_id=task.task.id,
            task_folder=str(task.folder),
            mode=mode,
            agent=agent,
            started_at=started,
            status=EpisodeStatus.CLOSED if result is None else EpisodeStatus.DONE,
        )
    run.ended_at = run.ended_at or datetime.now(UTC)
    if result is not None:
        run.eval = result
    if error is not None:
        run.meta["error"] = error
    run.meta.update(meta or {})
    folder.mkdir(parents=True, exist_ok=True)
    atomic.write_text(path, run.model_dump_json(indent=2) + "\n")

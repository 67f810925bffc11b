"""Batch runs: one agent on many tasks in one mode, several episodes side by side.

Each episode is recorded under `<run dir>/<task id>/` (run.json, steps.jsonl, screenshots), so
`studio report` can read the batch back. An episode that crashes (the agent's endpoint is down,
the editor would not load the project) is recorded as a run without a verdict, counted as a
failure, and the batch goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from studio.models.agent import EpisodeStatus, Mode
from studio.models.evaluation import Clock, EvalResult
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services import atomic
from studio.services.agents.base import Agent, run_episode
from studio.services.store import TaskFolder

if TYPE_CHECKING:
    from studio.services.env.episode import EpisodeManager

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

    @property
    def label(self) -> str:
        return self.task.task.id

    @property
    def success(self) -> bool:
        return self.result is not None and self.result.ok

    @property
    def psr(self) -> float:
        if self.result is None or self.result.error is not None:
            return 0.0
        return self.result.partial_success_rate

    def line(self) -> str:
        """One line for the terminal."""
        tid = self.label
        if self.error is not None:
            return f"ERROR {tid}: {self.error}"
        assert self.result is not None
        verdict = "PASS " if self.success else "FAIL "
        tests = f"{self.result.passed_tests}/{self.result.total_tests} tests"
        extra = f" ({self.result.error.kind.value})" if self.result.error else ""
        return f"{verdict} {tid}: {tests}{extra} in {self.seconds:.1f} s"


@dataclass
class BatchResult:
    """All outcomes of a batch, with SR and PSR over its tasks."""

    run_dir: Path
    agent: str
    mode: Mode
    outcomes: list[EpisodeOutcome] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def sr(self) -> float:
        return sum(o.success for o in self.outcomes) / len(self.outcomes) if self.outcomes else 0.0

    @property
    def psr(self) -> float:
        return sum(o.psr for o in self.outcomes) / len(self.outcomes) if self.outcomes else 0.0

    @property
    def errors(self) -> int:
        return sum(o.error is not None for o in self.outcomes)

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
            "errors": self.errors,
            "seconds": round(self.seconds, 2),
            "episodes_per_hour": round(self.episodes_per_hour(), 1),
            "episodes": [
                {
                    "task": o.task.task.id,
                    "category": o.task.task.category.value,
                    "success": o.success,
                    "passed_tests": o.result.passed_tests if o.result else 0,
                    "total_tests": o.result.total_tests if o.result else 0,
                    "psr": o.psr,
                    "seconds": round(o.seconds, 2),
                    "folder": str(o.folder),
                    "error": o.error,
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
    """Episodes played through an episode manager: this process's browser, or a server's."""

    def __init__(self, manager: EpisodeManager) -> None:
        self.manager = manager

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
        result, recorded = await run_episode(
            self.manager, task, mode, agent, record_to=record_to, clock=clock
        )
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
) -> BatchResult:
    """Run one episode per task, `workers` at a time; `on_done(done, total, outcome)` reports.

    `clock_for(task)` picks the evaluation clock of each task (default: real time).
    `manager` is an episode manager, or an EpisodeRunner that plays the episodes elsewhere.
    """
    runner = manager if isinstance(manager, EpisodeRunner) else ManagerEpisodes(manager)
    run_dir.mkdir(parents=True, exist_ok=True)
    batch = BatchResult(run_dir, agent_name, Mode(mode))
    slots = asyncio.Semaphore(max(1, workers))
    t0 = time.perf_counter()

    async def one(position: int, task: TaskFolder) -> EpisodeOutcome:
        async with slots:
            clock = clock_for(task) if clock_for else Clock.REAL
            outcome = await _episode(runner, task, agent_for, position, batch, clock)
        batch.outcomes.append(outcome)
        if on_done is not None:
            on_done(len(batch.outcomes), len(tasks), outcome)
        return outcome

    ordered = await asyncio.gather(*(one(i, t) for i, t in enumerate(tasks)))
    batch.outcomes = list(ordered)
    batch.seconds = time.perf_counter() - t0
    return batch


async def _episode(
    runner: EpisodeRunner,
    task: TaskFolder,
    agent_for: AgentFactory,
    position: int,
    batch: BatchResult,
    clock: Clock,
) -> EpisodeOutcome:
    folder = batch.run_dir / task.task.id
    t0 = time.perf_counter()
    started = datetime.now(UTC)
    names = [batch.agent]
    try:
        result, recorded, agent_name = await runner.play(
            task, agent_for, position, batch.mode, folder, clock, names.append
        )
        if recorded is None:  # the episode ran elsewhere (a server): keep its verdict here
            _write_run(folder, task, batch.mode, agent_name, started, result=result)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        log.warning("%s: episode failed: %s", task.task.id, exc, exc_info=True)
        error = str(exc) or type(exc).__name__
        _write_run(folder, task, batch.mode, names[-1], started, error=error)
        return EpisodeOutcome(task, None, folder, time.perf_counter() - t0, error)
    return EpisodeOutcome(task, result, folder, time.perf_counter() - t0)


def _write_run(
    folder: Path,
    task: TaskFolder,
    mode: Mode,
    agent: str,
    started: datetime,
    result: EvalResult | None = None,
    error: str | None = None,
) -> None:
    """Leave a run.json for an episode recorded elsewhere, or one that crashed (no verdict)."""
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
    folder.mkdir(parents=True, exist_ok=True)
    atomic.write_text(path, run.model_dump_json(indent=2) + "\n")

"""The cluster's episode runner: `batch.EpisodeRunner`, each episode played on a worker.

The task folder travels to the worker as files; the agent is made there from the same
factory as a local run; the clock is chosen here, and the limits (steps, wall time, tokens,
cost), the price table and the feedback budget go along, so an episode ends, is priced and
grants feedback turns as a local one does. The worker records the trajectory into a scratch
folder (its feedback turns in run.json `meta.feedback`, its program in `final.sb3`) and sends
its files back, with what the agent spent; they are written under the run folder on this
machine (`run.json` names this machine's task folder and holds `meta.usage` and `meta.limit`),
only once the episode finished, so an episode that ran again after a lost worker leaves one
trajectory, not two. `evaluator` evaluates on the same workers (the repair measures' drift of a
debug episode runs there: studio.services.forge.episode_measures).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.models.evaluation import Clock, EvalResult
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.core import atomic
from studio.services.core.store import TaskFolder
from studio.services.distributed import files
from studio.services.distributed.dispatch import Dispatcher
from studio.services.distributed.evaluations import ClusterEvaluator
from studio.services.distributed.worker import EpisodeJob, EpisodeReturn
from studio.services.episodes.limits import Limits, PriceTable
from studio.services.runs.batch import AgentFactory

__all__ = ["ClusterEpisodes", "write_trajectory"]


class ClusterEpisodes:
    """Play episodes on the cluster's workers, through a dispatcher."""

    def __init__(
        self,
        dispatcher: Dispatcher,
        step_limit: int | None = None,
        limits: Limits | None = None,
        prices: PriceTable | None = None,
        feedback_turns: int = 0,
    ) -> None:
        self.dispatcher = dispatcher
        self.step_limit = step_limit
        self.limits = limits
        self.prices = prices
        self.feedback_turns = feedback_turns

    @property
    def evaluator(self) -> ClusterEvaluator:
        """An evaluator on the same workers."""
        return ClusterEvaluator(self.dispatcher)

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
        job = EpisodeJob(
            files.pack(task.folder),
            task.folder.name,
            agent_for,
            position,
            Mode(mode),
            clock,
            self.step_limit,
            self.limits,
            self.prices,
            self.feedback_turns,
        )
        key = f"episode/{position}/{task.task.id}"
        back: EpisodeReturn = await self.dispatcher.run(key, "episode", job)
        named(back.agent_name)
        write_trajectory(back.trajectory, record_to, task, back.spent)
        return back.result, record_to, back.agent_name


def write_trajectory(
    trajectory: files.Files, folder: Path, task: TaskFolder, spent: dict[str, Any] | None = None
) -> None:
    """Write a trajectory sent by a worker; its run.json names this machine's task folder
    and holds what the agent spent (`meta.usage`, `meta.limit`), as a local episode's does."""
    files.unpack(trajectory, folder)
    run_file = folder / RUN_FILE
    if run_file.is_file():
        try:
            run = RunInfo.model_validate_json(run_file.read_bytes())
        except ValueError as exc:
            raise StudioError(f"{run_file}: not a run header ({exc})") from None
        run.task_folder = str(task.folder)
        run.meta.update(spent or {})
        atomic.write_text(run_file, run.model_dump_json(indent=2) + "\n")

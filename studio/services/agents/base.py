"""The agent protocol and `run_episode`, the observe -> act -> step loop on one task."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from studio.models.agent import ActionError, Mode, Observation
from studio.models.evaluation import Clock, EvalResult
from studio.services.store import TaskFolder

if TYPE_CHECKING:
    from studio.services.env.episode import EpisodeManager

log = logging.getLogger(__name__)


@runtime_checkable
class Agent(Protocol):
    """Something that picks one action per observation.

    `act` returns the action (`{"api": ..., "args": {...}}`) and the reasoning to record.
    `feedback` (optional) is told the error when the environment refused the last action.
    """

    name: str

    async def act(self, observation: Observation) -> tuple[dict[str, Any], str]: ...


async def run_episode(
    manager: EpisodeManager,
    task: TaskFolder,
    mode: Mode,
    agent: Agent,
    record_to: Path | None = None,
    clock: Clock = Clock.REAL,
) -> tuple[EvalResult, Path | None]:
    """Run `agent` on `task` until the episode ends, evaluate the program, close the episode.

    A refused action (ActionError) is recorded as a failed step and the loop goes on with a
    fresh observation; the step limit bounds the loop. `clock` is the evaluation's clock (real
    time as in the published benchmark, or virtual for speed). Returns the verdict and the
    trajectory folder (None when the manager records nowhere and `record_to` is None).
    """
    episode = await manager.create(task, mode, record_to=record_to, agent_name=agent.name)
    try:
        while episode.running:
            obs = await episode.observe()
            action, reasoning = await agent.act(obs)
            try:
                await episode.step(action, reasoning)
            except ActionError as exc:
                log.info("%s: step %d refused: %s", agent.name, episode.step_count, exc)
                notify = getattr(agent, "feedback", None)
                if callable(notify):
                    notify(str(exc))
        result = await episode.evaluate(clock=clock)
        return result, episode.trajectory_dir
    finally:
        await manager.delete(episode.id)

"""The agent protocol and `run_episode`, the observe -> act -> step loop on one task."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from studio.models.agent import ActionError, Mode, Observation
from studio.models.evaluation import Clock, EvalResult
from studio.services.core.store import TaskFolder
from studio.services.episodes.feedback import FEEDBACK_API, feedback_turn
from studio.services.episodes.limits import Limits, Meter, PriceTable

if TYPE_CHECKING:
    from studio.services.episodes.manager import EpisodeManager

__all__ = ["Agent", "run_episode"]

log = logging.getLogger(__name__)


@runtime_checkable
class Agent(Protocol):
    """Something that picks one action per observation.

    `act` returns the action (`{"api": ..., "args": {...}}`) and the reasoning to record.
    `feedback` (optional) is told the error when the environment refused the last action.
    `evaluated` (optional) is told each feedback turn it asked for with the action
    `{"api": "request_feedback"}` (episodes.feedback: the turn's record, and the text an
    agent is shown of it).
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
    limits: Limits | None = None,
    prices: PriceTable | None = None,
    spent: dict[str, Any] | None = None,
    feedback_turns: int = 0,
) -> tuple[EvalResult, Path | None]:
    """Run `agent` on `task` until the episode ends, evaluate the program, close the episode.

    A refused action (ActionError) is recorded as a failed step and the loop goes on with a
    fresh observation; the step limit bounds the loop. `clock` is the evaluation's clock (real
    time as in the published benchmark, or virtual for speed). Returns the verdict and the
    trajectory folder (None when the manager records nowhere and `record_to` is None).

    `limits` (wall time, tokens, cost) end the loop early; the program is judged as it is
    then. The tokens and cost the agent spent go with each step (`StepRecord.usage`) and, with
    the limit that ended the episode, into `spent` (`{"usage": {...}, "limit": "..."}`).

    `feedback_turns` (the protocol's, 0 by default) is how many times the agent may ask for an
    evaluation mid-episode (episodes.feedback): an action `request_feedback` with a turn left
    is no step; it evaluates the program, is recorded, and the agent hears the result
    (`evaluated`); one with none left is recorded as a refused step naming the budget.
    """
    meter = Meter(agent, prices)
    t0 = time.monotonic()
    # the budget goes with the creation: a server's episode (api.client) is granted it there
    if feedback_turns:
        episode = await manager.create(
            task, mode, record_to=record_to, agent_name=agent.name, feedback_turns=feedback_turns
        )
    else:
        episode = await manager.create(task, mode, record_to=record_to, agent_name=agent.name)
    try:
        while episode.running:
            hit = _limit_hit(limits, meter, time.monotonic() - t0)
            if hit is None:
                hit, chosen = await _act(agent, episode, limits, time.monotonic() - t0)
            if hit is not None:
                log.info("%s: %s", agent.name, hit)
                if spent is not None:
                    spent["limit"] = hit
                break
            action, reasoning = chosen
            if action.get("api") == FEEDBACK_API and episode.feedback_turns.left > 0:
                await feedback_turn(agent, episode, clock)
                continue
            usage = meter.step() if meter.metered else None
            try:
                await episode.step(action, reasoning, **({"usage": usage} if usage else {}))
            except ActionError as exc:
                log.info("%s: step %d refused: %s", agent.name, episode.step_count, exc)
                notify = getattr(agent, "feedback", None)
                if callable(notify):
                    notify(str(exc))
        if spent is not None and meter.metered:
            spent["usage"] = meter.episode()
        result = await episode.evaluate(clock=clock)
        return result, episode.trajectory_dir
    finally:
        await manager.delete(episode.id)


def _limit_hit(limits: Limits | None, meter: Meter, seconds: float) -> str | None:
    if limits is None:
        return None
    prompt, completion = meter.totals()
    return limits.exceeded(seconds, prompt + completion, meter.cost(prompt, completion))


async def _act(
    agent: Agent, episode: Any, limits: Limits | None, seconds: float
) -> tuple[str | None, tuple[dict[str, Any], str]]:
    """The agent's next action, observed and chosen within what is left of the time limit."""
    budget = None if limits is None or limits.seconds is None else limits.seconds - seconds

    async def choose() -> tuple[dict[str, Any], str]:
        obs = await episode.observe()
        return await agent.act(obs)

    if budget is None:
        return None, await choose()
    t0 = time.monotonic()
    try:
        return None, await asyncio.wait_for(choose(), max(0.0, budget))
    except TimeoutError:
        if time.monotonic() - t0 < budget:  # a time-out of its own, not the limit's
            raise
        assert limits is not None and limits.seconds is not None
        return f"time limit: {limits.seconds:g} s passed while the agent chose", ({}, "")

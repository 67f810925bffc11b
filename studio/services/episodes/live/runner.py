"""A built-in agent acting live on an episode: observe, decide, wait at the gate, act.

The loop is `agents.base.run_episode`'s, with the episode's gate set to the run's controls
so the viewer can pause before an action, let one through, resume or stop. A feedback turn
the agent asks for within the episode's budget (episodes.feedback) is taken without the gate.
Stopping ends the loop without performing the held action; the program is still evaluated,
so the viewer can show how far the agent got.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from studio.models.agent import ActionError
from studio.models.evaluation import Clock, EvalResult
from studio.services.episodes.agents.base import Agent
from studio.services.episodes.episode import Episode
from studio.services.episodes.feedback import FEEDBACK_API, feedback_turn
from studio.services.episodes.live.controls import RunControls, StoppedError

__all__ = ["LiveRun", "watch"]

log = logging.getLogger(__name__)


def watch(episode: Episode, controls: RunControls) -> None:
    """Put `controls` in front of every action of `episode` (built-in or external agent)."""
    episode.gate = controls.gate
    episode.listeners.append(lambda *_: controls.finished())


class LiveRun:
    """Runs `agent` on `episode` (whose gate is `controls`, see `watch`) until it ends;
    `run()` returns the final evaluation."""

    def __init__(
        self,
        episode: Episode,
        agent: Agent,
        controls: RunControls,
        clock: Clock = Clock.REAL,
        on_thinking: Callable[[bool], None] | None = None,
    ) -> None:
        self.episode = episode
        self.agent = agent
        self.controls = controls
        self.clock = clock
        self.on_thinking = on_thinking
        self.stopped = False

    async def run(self) -> EvalResult | None:
        """Act until the episode ends; the final evaluation (None if the episode was closed
        under the run, e.g. the window shut down)."""
        episode, controls = self.episode, self.controls
        while episode.running:
            controls.set_activity("observing the editor")
            obs = await episode.observe()
            controls.set_activity(f"waiting for {self.agent.name}")
            self._thinking(True)
            try:
                action, reasoning = await self.agent.act(obs)
            finally:
                self._thinking(False)
            if action.get("api") == FEEDBACK_API and episode.feedback_turns.left > 0:
                controls.set_activity("evaluating the program for feedback")
                await feedback_turn(self.agent, episode, self.clock)
                continue
            try:
                await episode.step(action, reasoning)
            except StoppedError:
                self.stopped = True
                break
            except ActionError as exc:
                log.info("%s: step %d refused: %s", self.agent.name, episode.step_count, exc)
                notify = getattr(self.agent, "feedback", None)
                if callable(notify):
                    notify(str(exc))
        if episode.page is None:
            return None
        controls.set_activity("evaluating the final project")
        try:
            return await episode.evaluate(clock=self.clock)
        except ActionError:  # closed while evaluating
            return None
        finally:
            controls.set_activity("")

    def _thinking(self, busy: bool) -> None:
        if self.on_thinking is not None:
            self.on_thinking(busy)

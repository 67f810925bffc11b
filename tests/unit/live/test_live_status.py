"""Issue 31, point 9: the live status says what the studio is doing now (observing, waiting
for the agent named, acting, evaluating), never a guess such as "agent thinking"."""

from __future__ import annotations

import asyncio
from typing import Any

from studio.models.evaluation import Clock
from studio.services.episodes.live.controls import WAITING_FOR_AGENT, RunControls
from studio.services.episodes.live.runner import LiveRun, watch


class _Episode:
    """Two steps, then the episode ends; the final evaluation notes what was said then."""

    def __init__(self, controls: RunControls) -> None:
        self.controls, self.steps, self.page = controls, 0, object()
        self.gate: Any = None
        self.listeners: list[Any] = []
        self.said_while_evaluating = ""

    @property
    def running(self) -> bool:
        return self.steps < 2

    async def observe(self) -> str:
        return "obs"

    async def step(self, action: dict[str, Any], reasoning: str = "") -> None:
        await self.gate(action)
        self.steps += 1
        for listener in self.listeners:
            listener(None, None, None)

    async def evaluate(self, clock: Clock = Clock.REAL) -> None:
        self.said_while_evaluating = self.controls.activity


class _Oracle:
    name = "oracle"

    def __init__(self, controls: RunControls) -> None:
        self.controls = controls
        self.said: list[str] = []

    async def act(self, obs: Any) -> tuple[dict[str, Any], str]:
        self.said.append(self.controls.activity)
        return {"api": "click", "args": {}}, ""


def test_a_builtin_run_says_what_it_does_at_each_moment() -> None:
    async def go() -> tuple[list[str], _Episode, _Oracle]:
        controls = RunControls()
        episode, oracle = _Episode(controls), _Oracle(controls)
        watch(episode, controls)  # type: ignore[arg-type]
        seen: list[str] = []
        controls.on_change.append(lambda c: seen.append(c.activity))
        await LiveRun(episode, oracle, controls).run()  # type: ignore[arg-type]
        return seen, episode, oracle

    seen, episode, oracle = asyncio.run(go())
    assert oracle.said == ["waiting for oracle", "waiting for oracle"]
    assert episode.said_while_evaluating == "evaluating the final project"
    assert "acting: click" in seen and "observing the editor" in seen
    assert not any("thinking" in text for text in seen)


def test_an_external_agents_run_waits_for_the_agent_between_actions() -> None:
    async def go() -> list[str]:
        controls = RunControls()
        said = [controls.activity]
        await controls.gate({"api": "drag"})
        said.append(controls.activity)
        controls.finished()
        said.append(controls.activity)
        return said

    assert asyncio.run(go()) == [WAITING_FOR_AGENT, "acting: drag", WAITING_FOR_AGENT]

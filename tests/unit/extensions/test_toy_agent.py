"""A toy agent added the way a new agent is: a maker registered by decorator in its own module,
touching nothing else. It is then a choice of `studio run --agent` (help included), made by
`episode_agents` as every agent is, and plays an episode through `run_batch`, the path of
`studio run`'s episodes (here on the fake episode manager); its row is in the report."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.app.agents import (
    EPISODE_AGENTS,
    AgentFactory,
    EpisodeAgentRequest,
    episode_agents,
    window_agents,
)
from studio.app.runs import report_for, run_batch, run_dir_name
from studio.models.agent import Mode, Observation
from studio.services.core.store import TaskFolder, load_task
from tests.helpers.fake_env import FakeEpisodeManager
from tests.helpers.tasks import make_task

GOAL = [
    {"api": "add_block", "args": {"blockType": "event_whenflagclicked"}},
    {"api": "add_block", "args": {"blockType": "motion_movesteps"}},
]


class ToyAgent:
    """Adds the two blocks the fake editor's goal needs (the second one `seed` times), then
    says done."""

    def __init__(self, repeats: int) -> None:
        self.name = "toy"
        self.plan = [GOAL[0]] + [GOAL[1]] * repeats
        self.seen: list[int] = []

    async def act(self, observation: Observation) -> tuple[dict[str, Any], str]:
        self.seen.append(observation.step)
        return (self.plan.pop(0) if self.plan else {"api": "done"}), "toy plan"

    def feedback(self, error: str) -> None:
        raise AssertionError(f"the toy's actions are all valid: {error}")


MADE: list[ToyAgent] = []


def make_toy(request: EpisodeAgentRequest) -> AgentFactory:
    repeats = max(1, request.seed)

    def make(_task: TaskFolder, _pos: int) -> Any:
        MADE.append(ToyAgent(repeats))
        return MADE[-1]

    return make


@pytest.fixture
def toy() -> Iterator[None]:
    EPISODE_AGENTS.register("toy", "adds two blocks, then done (a test's toy)")(make_toy)
    yield
    EPISODE_AGENTS.remove("toy")


def test_the_toy_is_a_choice_of_studio_run(toy: None, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import build_parser

    parser = build_parser()
    args = parser.parse_args(["run", "x", "--agent", "toy"])
    assert args.agent == "toy"
    with pytest.raises(SystemExit):
        parser.parse_args(["run", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert ",toy}" in shown  # the last one registered
    assert "toy: adds two blocks, then done (a test's toy)" in shown
    assert "toy" in window_agents()  # needs nothing given: the window offers it too


def test_the_toy_plays_an_episode_on_the_path_of_studio_run(toy: None, tmp_path: Path) -> None:
    tasks: list[TaskFolder] = [load_task(make_task(tmp_path / "lib" / "a", task_id="create_a"))]
    agent_for = episode_agents("toy", Mode.COMPOSITE, seed=2)
    run_dir = tmp_path / "runs" / run_dir_name("toy", Mode.COMPOSITE)

    async def play() -> Any:
        manager = FakeEpisodeManager()
        try:
            return await run_batch(
                manager, tasks, agent_for, Mode.COMPOSITE, run_dir, agent_name="toy"
            )
        finally:
            await manager.close()

    batch = asyncio.run(play())
    (outcome,) = batch.outcomes
    assert outcome.success and outcome.error is None
    assert MADE[-1].seen == [0, 1, 2, 3]  # flag block, move block twice (seed 2), done
    assert (run_dir / "create_a" / "run.json").is_file()
    (row,) = report_for(tmp_path / "runs").rows
    assert (row.agent, row.mode, row.overall.sr) == ("toy", "composite", 1.0)


def test_without_registration_the_toy_is_refused_with_the_choices() -> None:
    from studio.models.errors import StudioError

    with pytest.raises(StudioError, match=r"unknown agent 'toy' \(one of oracle, idle, random"):
        episode_agents("toy", Mode.COMPOSITE)

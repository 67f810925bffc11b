"""A toy agent added the way a new agent is: a maker registered by decorator in its own module,
touching nothing else. It is then a choice of `studio run --agent` (help included) and of the
window, and plays a campaign through the campaign use case (`studio.app.campaigns`, the path of
`studio run` and the window's Run campaign; here on the fake episode manager, the real browser
in tests/e2e/test_toy_agent_run.py); its row is in the report."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import studio.app.campaigns.play as play
from studio.app.agents import (
    EPISODE_AGENTS,
    AgentFactory,
    EpisodeAgentRequest,
    episode_agents,
    window_agents,
)
from studio.app.campaigns import CampaignRequest, open_campaign, plan_episodes, play_campaign
from studio.models.agent import Mode, Observation
from studio.services.core.store import TaskFolder
from studio.services.runs.reports import report_for
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


@pytest.fixture
def fake_home(monkeypatch: pytest.MonkeyPatch) -> FakeEpisodeManager:
    """The campaign's episodes play on the fake episode manager (no browser)."""
    manager = FakeEpisodeManager()

    @contextlib.asynccontextmanager
    async def home(*_: Any) -> AsyncIterator[FakeEpisodeManager]:
        try:
            yield manager
        finally:
            await manager.close()

    async def no_problems(*_: Any) -> list[Any]:
        return []

    monkeypatch.setattr(play, "episode_home", home)
    monkeypatch.setattr(play, "check_tasks", no_problems)
    return manager


def test_the_toy_plays_a_campaign_on_the_path_of_studio_run(
    toy: None, fake_home: FakeEpisodeManager, tmp_path: Path
) -> None:
    make_task(tmp_path / "lib" / "a", task_id="create_a")
    request = CampaignRequest(tasks=[tmp_path / "lib"], agent="toy", seed=2, out=tmp_path / "runs")
    warnings: list[str] = []
    planned = plan_episodes(open_campaign(request, warnings.append), request, warnings.append)
    result = asyncio.run(play_campaign(planned, request))
    (outcome,) = result.batch.outcomes
    assert outcome.success and outcome.error is None
    assert MADE[-1].seen == [0, 1, 2, 3]  # flag block, move block twice (seed 2), done
    assert result.run_dir.name.startswith("toy-composite-")
    (row,) = report_for(tmp_path / "runs").rows
    assert (row.agent, row.mode, row.overall.sr) == ("toy", "composite", 1.0)


def test_without_registration_the_toy_is_refused_with_the_choices() -> None:
    from studio.models.errors import StudioError

    with pytest.raises(StudioError, match=r"unknown agent 'toy' \(one of oracle, idle, random"):
        episode_agents("toy", Mode.COMPOSITE)

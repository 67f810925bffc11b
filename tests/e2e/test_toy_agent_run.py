"""A toy agent, registered in this module alone, plays a real episode through `studio run`: the
command line takes it as a choice, the campaign makes it with `episode_agents` as it makes every
agent, and it acts in the real editor in Chromium; its run is recorded and evaluated."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.app.agents import EPISODE_AGENTS, AgentFactory, EpisodeAgentRequest
from studio.cli import build_parser
from studio.cli.common import run_command
from studio.models.agent import Mode, Observation
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.core import paths

pytestmark = pytest.mark.browser


class FlagAgent:
    """Adds a 'when green flag clicked' block, then says done; keeps what it observed."""

    name = "flagger"

    def __init__(self) -> None:
        self.observed: list[Observation] = []

    async def act(self, observation: Observation) -> tuple[dict[str, Any], str]:
        self.observed.append(observation)
        if len(self.observed) == 1:
            return {"api": "add_block", "args": {"blockType": "event_whenflagclicked"}}, "flag"
        return {"api": "done"}, "that is all"

    def feedback(self, error: str) -> None:
        raise AssertionError(f"the editor refused the flagger's action: {error}")


MADE: list[FlagAgent] = []


def make_flagger(_request: EpisodeAgentRequest) -> AgentFactory:
    def make(_task: Any, _pos: int) -> Any:
        MADE.append(FlagAgent())
        return MADE[-1]

    return make


@pytest.fixture
def flagger() -> Iterator[None]:
    EPISODE_AGENTS.register("flagger", "adds a green-flag block, then done")(make_flagger)
    yield
    EPISODE_AGENTS.remove("flagger")


def test_a_registered_toy_agent_plays_a_real_episode_through_studio_run(
    flagger: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lib = tmp_path / "lib"
    shutil.copytree(paths.BUNDLED_TASKS / "create_cat_walk", lib / "create_cat_walk")
    out = tmp_path / "runs"
    args = build_parser().parse_args(
        ["run", str(lib), "--agent", "flagger", "--out", str(out), "--steps", "5", "--json"]
    )
    assert run_command(args) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["tasks"] == 1
    (agent,) = MADE
    assert [o.mode for o in agent.observed] == [Mode.COMPOSITE, Mode.COMPOSITE]
    before, after = agent.observed
    assert len(after.blocks) == len(before.blocks) + 1  # the block is in the real editor
    (run_file,) = out.rglob(RUN_FILE)
    run = RunInfo.model_validate_json(run_file.read_text())
    assert run.agent == "flagger" and run.eval is not None
    assert not run.eval.success  # a lone flag block does not walk the cat

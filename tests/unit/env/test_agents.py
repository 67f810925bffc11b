"""Built-in agents: scripted replay, idle, seeded random actions that pass validation."""

from __future__ import annotations

import asyncio
from typing import Any

from studio.models.action_parse import parse_action
from studio.models.agent import BlockInfo, Element, Mode, Observation
from studio.services.episodes.agents import Agent, IdleAgent, RandomAgent, ScriptedAgent

COMPOSITE = Observation(
    mode=Mode.COMPOSITE,
    step=0,
    text="## All Available Targets\nStage, Cat\n",
    blocks=[
        BlockInfo(index=1, id="a", opcode="event_whenflagclicked"),
        BlockInfo(
            index=2,
            id="b",
            opcode="motion_movesteps",
            parent=1,
            slot="next",
            inputs={"STEPS": "10"},
        ),
    ],
)
PRIMITIVE = Observation(
    mode=Mode.PRIMITIVE,
    step=0,
    elements=[Element(index=1, type="blocks", text="x", x=1, y=2, w=3, h=4)],
)


def _acts(agent: Any, obs: Observation, n: int) -> list[dict[str, Any]]:
    async def run() -> list[dict[str, Any]]:
        return [(await agent.act(obs))[0] for _ in range(n)]

    return asyncio.run(run())


def test_scripted_agent_replays_then_says_done() -> None:
    move = {"api": "add_block", "args": {"blockType": "motion_movesteps"}}
    agent = ScriptedAgent([move, ({"api": "select_stage", "args": {}}, "to the stage")])
    assert isinstance(agent, Agent)
    first, why = asyncio.run(agent.act(COMPOSITE))
    assert first == move and why == "scripted step"
    assert asyncio.run(agent.act(COMPOSITE)) == (
        {"api": "select_stage", "args": {}},
        "to the stage",
    )
    assert _acts(agent, COMPOSITE, 2) == [{"api": "done", "args": {}}] * 2
    agent.feedback("refused")
    assert agent.errors == ["refused"]


def test_idle_agent_is_done_at_once() -> None:
    assert _acts(IdleAgent(), COMPOSITE, 1) == [{"api": "done", "args": {}}]
    assert IdleAgent().name == "idle"


def test_random_agent_is_seeded_and_valid_in_both_modes() -> None:
    for obs in (COMPOSITE, PRIMITIVE):
        a = _acts(RandomAgent(seed=3, max_steps=40), obs, 41)
        b = _acts(RandomAgent(seed=3, max_steps=40), obs, 41)
        assert a == b
        assert a[-1]["api"] == "done"
        for action in a:
            parse_action(action, obs.mode)
        assert len({x["api"] for x in a}) >= 4
    assert _acts(RandomAgent(seed=4), COMPOSITE, 30) != _acts(RandomAgent(seed=3), COMPOSITE, 30)

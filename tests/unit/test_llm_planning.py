"""The LLM agent's planner and memories (MageBench's settings): a global planner asks once and
plays its list; action and observation memory decide what each online prompt shows; a run
records them and refuses them for agents that have none."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

import pytest

from studio import cli
from studio.app.agents import episode_agents
from studio.cli.campaign import campaign_for
from studio.models.agent import Mode, Observation
from studio.models.errors import StudioError
from studio.models.protocols import ProtocolError, protocol_label, resolve_protocol
from studio.services.core.store import load_task
from studio.services.episodes.agents.llm import LlmAgent, LlmSettings, ReplyError
from studio.services.episodes.agents.llm_planning import (
    GLOBAL_REPLY_FORMAT,
    AgentOptions,
    GlobalLlmAgent,
    make_llm_agent,
    parse_plan,
)
from tests.helpers.fake_llm_server import FakeLlmServer
from tests.helpers.tasks import make_task


def _obs(step: int, text: str = "", png: str | None = None) -> Observation:
    mode = Mode.PRIMITIVE if png else Mode.COMPOSITE
    return Observation(mode=mode, step=step, text=text or None, screenshot_png_b64=png)


PLAN = (
    "Two blocks, then done.\n```json\n"
    '[{"api": "add_block", "args": {"blockType": "event_whenflagclicked"}},\n'
    ' {"api": "add_block", "args": {"blockType": "looks_say"}}]\n```'
)


def test_parse_plan_reads_the_list_and_names_what_is_wrong() -> None:
    plan, reasoning = parse_plan(PLAN, Mode.COMPOSITE)
    assert [a["args"]["blockType"] for a in plan] == ["event_whenflagclicked", "looks_say"]
    assert reasoning == "Two blocks, then done."
    with pytest.raises(ReplyError, match="no JSON array"):
        parse_plan('```json\n{"api": "done"}\n```', Mode.COMPOSITE)
    with pytest.raises(ReplyError, match="action 1 of the list is invalid"):
        parse_plan('[{"api": "click", "args": {"x": 1, "y": 2}}]', Mode.COMPOSITE)
    with pytest.raises(ReplyError, match="is empty"):
        parse_plan("```json\n[]\n```", Mode.COMPOSITE)


def test_the_global_planner_asks_once_and_plays_its_list() -> None:
    with FakeLlmServer([PLAN]) as llm:
        settings = LlmSettings(url=llm.url, model="m", retries=0)
        agent = make_llm_agent(settings, Mode.COMPOSITE, "Say hi.", AgentOptions("global"))
        assert isinstance(agent, GlobalLlmAgent)
        acts = [asyncio.run(agent.act(_obs(n, f"view {n}")))[0] for n in range(4)]
    assert len(llm.requests) == 1  # one observation, one call
    system = llm.requests[0]["messages"][0]["content"]
    assert GLOBAL_REPLY_FORMAT in system and "One action per reply" not in system
    assert "view 0" in llm.requests[0]["messages"][1]["content"]
    assert [a["api"] for a in acts] == ["add_block", "add_block", "done", "done"]


def test_a_global_planner_without_a_usable_list_gives_up() -> None:
    with FakeLlmServer(["no list here", "still none"]) as llm:
        settings = LlmSettings(url=llm.url, model="m", retries=0)
        agent = make_llm_agent(settings, Mode.COMPOSITE, "Say hi.", AgentOptions("global"))
        action, reasoning = asyncio.run(agent.act(_obs(0, "v")))
    assert action["api"] == "failed" and "no valid plan twice" in reasoning
    assert agent.usage.malformed_replies == 2


def _user(request: dict[str, Any]) -> Any:
    return request["messages"][1]["content"]


def test_action_and_observation_memory_shape_the_online_prompt() -> None:
    reply = '```json\n{"api": "click", "args": {"x": 1, "y": 2}}\n```'
    with FakeLlmServer([reply] * 3) as llm:
        settings = LlmSettings(url=llm.url, model="m", retries=0)
        agent = make_llm_agent(settings, Mode.PRIMITIVE, "Do it.", AgentOptions("online", 1, 2))
        assert isinstance(agent, LlmAgent) and agent.settings.history == 1
        for step, png in enumerate(("QUFB", "QkJC", "Q0ND")):
            asyncio.run(agent.act(_obs(step, png=png)))
    third = _user(llm.requests[2])
    images = [p["image_url"]["url"][-4:] for p in third if p["type"] == "image_url"]
    assert images == ["QkJC", "Q0ND"]  # OM 2: the previous screenshot, then the current one
    text = third[0]["text"]
    assert "Observation before step 2" in text and "Your last 1 actions" in text
    assert "2. " in text and "1. {" not in text  # AM 1: only the last action
    first = _user(llm.requests[0])
    assert [p["type"] for p in first] == ["text", "image_url"]  # nothing earlier yet


def _args(*argv: str) -> argparse.Namespace:
    return cli.build_parser().parse_args(["run", *argv])


def test_runs_record_the_planner_and_refuse_it_where_there_is_none(tmp_path: Path) -> None:
    a = make_task(tmp_path / "lib" / "a", task_id="create_a")
    new = _args(str(a), "--agent", "llm", "--planner", "global", "--action-memory", "5",
                "--out", str(tmp_path / "runs"))  # fmt: skip
    opened = campaign_for(new)
    run_dir, manifest = opened.run_dir, opened.manifest
    settings = manifest.settings["protocol"]["settings"]
    assert (settings["planner"], settings["action_memory"], settings["observation_memory"]) == (
        "global",
        5,
        1,
    )
    assert protocol_label(new.protocol_record) == "action memory 5, global planner"
    with pytest.raises(StudioError, match=r"--planner online: the campaign in .* with global"):
        campaign_for(_args("--resume", str(run_dir), "--planner", "online"))
    with pytest.raises(ProtocolError, match="--planner: the oracle agent has no planner"):
        resolve_protocol(None, "run", {"planner": "global"}, mode="composite", agent="oracle")
    with pytest.raises(StudioError, match="--observation-memory must be at least 1"):
        campaign_for(_args(str(a), "--agent", "llm", "--observation-memory", "0",
                           "--out", str(tmp_path / "r2")))  # fmt: skip
    oracle = resolve_protocol(None, "run", {}, mode="composite", agent="oracle")
    assert "planner" not in oracle.settings


def test_the_agent_factory_builds_the_planner_it_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUDIO_LLM_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("STUDIO_LLM_MODEL", "m")
    task = load_task(make_task(tmp_path / "a", task_id="create_a"))
    factory = episode_agents("llm", Mode.COMPOSITE, settings={"planner": "global",
                             "action_memory": 5, "observation_memory": 2})  # fmt: skip
    agent = factory(task, 0)
    assert isinstance(agent, GlobalLlmAgent)
    assert (agent.settings.history, agent.settings.observations) == (5, 2)
    plain = episode_agents("llm", Mode.COMPOSITE)(task, 0)
    assert type(plain) is LlmAgent and plain.settings.history == 8

"""Feedback turns in `studio run`'s loop (fake episodes): requests within the budget are turns,
not steps, heard by the agent; beyond it a refused step naming the budget; the llm agent is
offered the turns and shown the structured feedback."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.models.protocols import ProtocolError, protocol_label, resolve_protocol
from studio.services.core.store import load_task
from studio.services.episodes.agents.base import run_episode
from studio.services.episodes.agents.llm import LlmAgent, LlmSettings
from studio.services.episodes.agents.scripted import ScriptedAgent
from studio.services.episodes.feedback import FeedbackTurns, feedback_text
from tests.helpers.fake_env import FakeEpisodeManager
from tests.helpers.fake_llm_server import FakeLlmServer
from tests.helpers.tasks import make_task

HAT = {"api": "add_block", "args": {"blockType": "event_whenflagclicked"}}
MOVE = {"api": "add_block", "args": {"blockType": "motion_movesteps"}}
ASK = {"api": "request_feedback", "args": {}}


def test_turns_within_the_budget_are_heard_and_recorded_not_steps(tmp_path: Path) -> None:
    task = load_task(make_task(tmp_path / "t"))
    agent = ScriptedAgent([HAT, ASK, MOVE, ASK, ASK])
    manager: Any = FakeEpisodeManager()
    record = tmp_path / "run"
    result, _ = asyncio.run(
        run_episode(manager, task, Mode.COMPOSITE, agent, record_to=record, feedback_turns=2)
    )
    assert result.success is True
    assert [(h["turn"], h["after_step"], h["passed"], h["total"]) for h in agent.heard] == [
        (1, 1, 1, 2),
        (2, 2, 2, 2),
    ]
    (episode,) = manager.ended
    # the third request is beyond the budget: a refused step (counted), then done
    assert [r.action["api"] for r in episode.records] == ["add_block", "add_block", "done"]
    assert len(agent.errors) == 1 and "request_feedback" in agent.errors[0]
    run = json.loads((record / "run.json").read_text())
    assert run["meta"]["feedback_turns"] == 2
    assert [t["psr"] for t in run["meta"]["feedback"]] == [0.5, 1.0]
    assert run["eval"]["passed_tests"] == 2  # the result is the evaluation at the end


def test_no_budget_leaves_a_request_to_the_step_refusal(tmp_path: Path) -> None:
    task = load_task(make_task(tmp_path / "t"))
    agent = ScriptedAgent([ASK, HAT])
    manager: Any = FakeEpisodeManager()
    asyncio.run(run_episode(manager, task, Mode.COMPOSITE, agent))
    assert agent.heard == [] and len(agent.errors) == 1
    (episode,) = manager.ended
    assert episode.feedback_turns.turns == []


def test_the_refusal_names_the_budget() -> None:
    none = FeedbackTurns()
    assert "feedback budget is 0 turns" in str(none.refusal())
    assert "feedback budget is 0 turns" in str(none.as_step())
    two = FeedbackTurns(budget=2)
    assert "POST /episodes/{id}/evaluate" in str(two.as_step())
    two.turns += [{}, {}]
    assert "budget of 2 turn(s) is used (2 of 2)" in str(two.as_step())


def test_the_feedback_text_gives_score_failing_tests_and_turns_left() -> None:
    record = {
        "turn": 1, "after_step": 4, "passed": 1, "total": 3, "psr": 1 / 3, "success": False,
        "failing": [{"name": "cat moves", "message": "x was 0"}, {"name": "says hi",
                                                                   "message": ""}],
        "error": None,
    }  # fmt: skip
    text = feedback_text(record, 1)
    assert "1/3 tests passed (score 33%)" in text
    assert "- FAILED cat moves: x was 0" in text and "- FAILED says hi" in text
    assert text.endswith("Feedback turns left: 1.")


def test_the_protocol_setting_is_the_studios_and_recorded(tmp_path: Path) -> None:
    record = resolve_protocol(None, "run", {"feedback_turns": 2}, mode="composite", agent="idle")
    assert record.settings["feedback_turns"] == 2
    assert protocol_label(record) == "feedback turns 2"
    assert resolve_protocol(None, "run", {}).settings["feedback_turns"] == 0
    with pytest.raises(ProtocolError, match="--feedback-turns: the run runs of protocol scratch"):
        resolve_protocol("scratchworld", "run", {"feedback_turns": 1})
    from studio.app.campaigns import CampaignRequest, open_campaign

    a = make_task(tmp_path / "lib" / "a", task_id="create_a")
    request = CampaignRequest(tasks=[a], agent="idle", feedback_turns=-1, out=tmp_path / "r")
    with pytest.raises(StudioError, match="--feedback-turns must be at least 0"):
        open_campaign(request, lambda _m: None)
    request = CampaignRequest(
        tasks=[a], agent="idle", feedback_turns=25, api="http://127.0.0.1:9", out=tmp_path / "r"
    )  # over the API (whose bound it is) as here: refused before anything plays
    with pytest.raises(StudioError, match="--feedback-turns must be at most 20, not 25"):
        open_campaign(request, lambda _m: None)


def test_the_llm_agent_is_offered_turns_and_shown_the_feedback(tmp_path: Path) -> None:
    def reply(action: dict[str, Any]) -> str:
        return f"Next.\n```json\n{json.dumps(action)}\n```"

    replies = [reply(HAT), reply(ASK), reply(MOVE), reply({"api": "done", "args": {}})]
    task = load_task(make_task(tmp_path / "t"))

    async def go() -> Any:
        with FakeLlmServer(replies) as llm:
            agent = LlmAgent(LlmSettings(url=llm.url, model="m"), Mode.COMPOSITE, "Walk.")
            agent.feedback_turns = 1
            manager: Any = FakeEpisodeManager()
            result, _ = await run_episode(manager, task, Mode.COMPOSITE, agent, feedback_turns=1)
        return result, llm

    result, llm = asyncio.run(go())
    assert result.success is True and len(llm.requests) == 4
    systems = [r["messages"][0]["content"] for r in llm.requests]
    assert "Feedback turns: 1 left" in systems[1] and "request_feedback" in systems[1]
    assert "Feedback turns" not in systems[2]  # used: no longer offered
    third = llm.requests[2]["messages"][1]["content"]
    assert "Latest feedback on your program:" in third
    assert "1/2 tests passed" in third and "FAILED has motion_movesteps" in third


def test_a_batch_grants_its_protocols_feedback_turns_to_every_episode(tmp_path: Path) -> None:
    """The budget reaches each episode from the run's protocol (run_meta), as a campaign
    under `--feedback-turns N` records it."""
    from studio.services.runs.batch import run_batch

    tasks = [load_task(make_task(tmp_path / "lib" / i, task_id=i)) for i in ("create_a", "b")]
    protocol = resolve_protocol(None, "run", {"feedback_turns": 1}, mode="composite")
    run_dir = tmp_path / "run"
    manager: Any = FakeEpisodeManager()
    asyncio.run(
        run_batch(
            manager,
            tasks,
            lambda _t, _p: ScriptedAgent([HAT, ASK, MOVE]),
            Mode.COMPOSITE,
            run_dir,
            agent_name="scripted",
            run_meta={"protocol": protocol.model_dump()},
        )
    )
    for task_id in ("create_a", "b"):
        run = json.loads((run_dir / task_id / "run.json").read_text())
        assert run["meta"]["protocol"]["settings"]["feedback_turns"] == 1
        assert [t["passed"] for t in run["meta"]["feedback"]] == [1]

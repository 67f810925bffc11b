"""The diagnostics' LLM agents against a stand-in OpenAI-compatible server: prompts and parsing."""

from __future__ import annotations

import asyncio
import base64

import pytest

from studio.models.qa_item import QaType
from studio.services.diagnostics.agents import DragObservation, QaObservation
from studio.services.diagnostics.llm_agent import (
    LlmDragAgent,
    LlmQaAgent,
    parse_drag_reply,
    parse_qa_reply,
)
from studio.services.episodes.agents.llm import LlmError, LlmSettings, ReplyError
from tests.helpers.fake_llm_server import FakeLlmServer

PNG = b"\x89PNG\r\n\x1a\nfake"
PNG_URL = "data:image/png;base64," + base64.b64encode(PNG).decode()
DRAG_OBS = DragObservation("t1", "Drag the 'say' block below the 'repeat' block.", PNG)


def settings(llm: FakeLlmServer) -> LlmSettings:
    return LlmSettings(url=llm.url, model="fake-vlm", retries=0, temperature=0.5)


def test_drag_prompt_has_the_screenshot_and_the_instruction() -> None:
    reply = (
        'The say block is at the left.\n```json\n{"start": [120, 300], "end": [410.5, 222]}\n```'
    )
    with FakeLlmServer([reply]) as llm:
        agent = LlmDragAgent(settings(llm))
        decision = asyncio.run(agent.drag(DRAG_OBS))
    assert (decision.start, decision.end) == ((120.0, 300.0), (410.5, 222.0))
    assert decision.reasoning == "The say block is at the left." and decision.error is None
    request = llm.requests[0]
    assert request["model"] == "fake-vlm" and request["temperature"] == 0.5
    system, user = request["messages"]
    assert "1280x720" in system["content"] and '"start": [x, y]' in system["content"]
    text, image = user["content"]
    assert DRAG_OBS.instruction in text["text"]
    assert image == {"type": "image_url", "image_url": {"url": PNG_URL}}
    assert agent.name == "fake-vlm" and agent.usage.calls == 1


def test_unusable_drag_reply_is_a_wrong_attempt_with_the_reason() -> None:
    with FakeLlmServer(["I would drag the block to the repeat."]) as llm:
        agent = LlmDragAgent(settings(llm))
        decision = asyncio.run(agent.drag(DRAG_OBS))
    assert decision.start is None and decision.end is None
    assert decision.error == 'unusable reply: it holds no JSON object with "start" and "end"'
    assert decision.reasoning == "I would drag the block to the repeat."
    assert len(llm.requests) == 1 and agent.usage.malformed_replies == 1


@pytest.mark.parametrize(
    ("reply", "start", "end"),
    [
        ('{"start": [1, 2], "end": [3, 4]}', (1, 2), (3, 4)),
        (
            'first {"start": [1, 2], "end": [3, 4]} then {"start": [5, 6], "end": [7, 8]}',
            (5, 6),
            (7, 8),
        ),
        ('```json\n{"drag": {"start": ["10", "20"], "end": [30, 40]}}\n```', (10, 20), (30, 40)),
        ('```\n{"start_x": 1, "start_y": 2, "end_x": 3, "end_y": 4}\n```\nDone.', (1, 2), (3, 4)),
        ('```json\n{broken\n```\nso: {"start": [1, 1], "end": [2, 2]}', (1, 1), (2, 2)),
    ],
)
def test_drag_parse_tolerates_extra_text(reply: str, start: tuple, end: tuple) -> None:
    got_start, got_end, _ = parse_drag_reply(reply)
    assert (got_start, got_end) == (start, end)


@pytest.mark.parametrize(
    ("reply", "fragment"),
    [
        ("   ", "empty"),
        ('{"start": [1, 2]}', 'no JSON object with "start" and "end"'),
        ('{"start": [1, 2, 3], "end": [3, 4]}', r"start is not \[x, y\]"),
        ('{"start": ["a", 2], "end": [3, 4]}', "two numbers"),
        ('{"start": [1, 2], "end": [1280, 4]}', r"end \(1280, 4\) lies outside the 1280x720"),
    ],
)
def test_drag_parse_errors(reply: str, fragment: str) -> None:
    with pytest.raises(ReplyError, match=fragment):
        parse_drag_reply(reply)


def test_qa_prompt_asks_for_the_right_kind_of_answer() -> None:
    replies = ["The blocks touch.\nANSWER: YES", "It shows ten.\n**Answer:** 10"]
    with FakeLlmServer(replies) as llm:
        agent = LlmQaAgent(settings(llm))
        yes = asyncio.run(agent.answer(QaObservation("c", "Connected?", QaType.CONNECTION, PNG)))
        ten = asyncio.run(agent.answer(QaObservation("f", "Steps?", QaType.FIELD, PNG)))
    assert (yes.answer, yes.reasoning, ten.answer) == ("YES", "The blocks touch.", "10")
    system, user = llm.requests[0]["messages"]
    assert "ANSWER: <answer>" in system["content"]
    assert user["content"][0]["text"] == "Question: Connected?\nAnswer YES or NO."
    assert user["content"][1]["image_url"]["url"] == PNG_URL
    assert "exactly as it is shown" in llm.requests[1]["messages"][1]["content"][0]["text"]


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("NO", "NO"),
        ("Looking again.\nanswer: no\n", "no"),
        ('Reasoning.\n```json\n{"answer": "my variable"}\n```', "my variable"),
        ("ANSWER: 5\nsome words\nANSWER: 7", "7"),
    ],
)
def test_qa_parse(reply: str, answer: str) -> None:
    assert parse_qa_reply(reply)[0] == answer


def test_unusable_qa_reply_and_endpoint_errors() -> None:
    long_reply = "I cannot tell from the picture\nwhether these blocks are joined or not."
    with FakeLlmServer([long_reply]) as llm:
        agent = LlmQaAgent(settings(llm))
        reply = asyncio.run(agent.answer(QaObservation("c", "?", QaType.CONNECTION, PNG)))
    assert reply.answer == "" and reply.error == 'unusable reply: it has no line "ANSWER: ..."'
    assert reply.reasoning == long_reply
    with FakeLlmServer([(401, '{"error": "bad key"}')]) as llm, pytest.raises(LlmError):
        asyncio.run(LlmDragAgent(settings(llm)).drag(DRAG_OBS))

"""The LLM agent against a stand-in OpenAI-compatible server: prompts, parsing, retry, errors."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from studio.models.agent import Element, Mode, Observation
from studio.services.episodes.agents.llm import (
    LlmAgent,
    LlmError,
    LlmSettings,
    ReplyError,
    is_loopback_host,
    parse_reply,
)
from tests.helpers.fake_llm_server import FakeLlmServer
from tests.helpers.recorder_server import Recorder

INSTRUCTION = "Make the Cat say Hello when the green flag is clicked."
COMPOSITE_OBS = Observation(
    mode=Mode.COMPOSITE, step=0, text="Editing target: Cat\n#1 [top] event_whenflagclicked"
)
PRIMITIVE_OBS = Observation(
    mode=Mode.PRIMITIVE,
    step=3,
    screenshot_png_b64="iVBORw0KGgo=",
    elements=[Element(index=7, type="blocks", text="looks_sayforsecs", x=10, y=20, w=100, h=40)],
)


def _agent(llm: FakeLlmServer, mode: Mode = Mode.COMPOSITE, **kw: Any) -> LlmAgent:
    settings = LlmSettings(url=llm.url, model="fake-model", key="k123", retries=1, **kw)
    return LlmAgent(settings, mode, INSTRUCTION)


def _text_of(message: dict[str, Any]) -> str:
    content = message["content"]
    return content if isinstance(content, str) else content[0]["text"]


def test_composite_prompt_and_reply() -> None:
    reply = (
        "The hat is there; I need a say block.\n"
        '```json\n{"api": "add_block", "args": {"blockType": "looks_say"}}\n```'
    )
    with FakeLlmServer([reply]) as llm:
        agent = _agent(llm)
        action, reasoning = asyncio.run(agent.act(COMPOSITE_OBS))
    assert action == {"api": "add_block", "args": {"blockType": "looks_say"}}
    assert reasoning == "The hat is there; I need a say block."
    request = llm.requests[0]
    assert request["model"] == "fake-model" and request["temperature"] == 0.0
    system, user = request["messages"]
    assert system["role"] == "system" and "connect_blocks" in system["content"]
    assert "```json" in system["content"]
    assert INSTRUCTION in user["content"] and "#1 [top] event_whenflagclicked" in user["content"]
    assert llm.headers[0]["Authorization"] == "Bearer k123"
    assert agent.usage.calls == 1 and agent.usage.prompt_tokens == 100
    assert agent.name == "fake-model"


def test_primitive_prompt_sends_screenshot_and_elements() -> None:
    drag = '{"api": "drag_and_drop", "args": {"start_index": 7, "end_x": 600, "end_y": 300}}'
    reply = f"Drag it.\n```json\n{drag}\n```"
    with FakeLlmServer([reply]) as llm:
        action, _ = asyncio.run(_agent(llm, Mode.PRIMITIVE).act(PRIMITIVE_OBS))
    assert action["api"] == "drag_and_drop"
    system, user = llm.requests[0]["messages"]
    assert "drag_and_drop" in system["content"] and "1280x720" in system["content"]
    text_part, image_part = user["content"]
    assert INSTRUCTION in text_part["text"] and "Step 4." in text_part["text"]
    assert '[7] blocks "looks_sayforsecs" centre (60, 40) size 100 x 40' in text_part["text"]
    assert image_part["image_url"]["url"] == "data:image/png;base64,iVBORw0KGgo="


def test_malformed_reply_is_retried_once_with_the_problem() -> None:
    good = '```json\n{"api": "done", "args": {}}\n```'
    with FakeLlmServer(["I think we are finished.", good]) as llm:
        agent = _agent(llm)
        action, _ = asyncio.run(agent.act(COMPOSITE_OBS))
    assert action == {"api": "done", "args": {}}
    assert len(llm.requests) == 2
    retry = llm.requests[1]["messages"]
    assert retry[2] == {"role": "assistant", "content": "I think we are finished."}
    assert "could not be used" in retry[3]["content"] and '"api"' in retry[3]["content"]
    assert agent.usage.malformed_replies == 1


def test_two_malformed_replies_give_up_with_failed() -> None:
    bad = '```json\n{"api": "click", "args": {"x": 1, "y": 1}}\n```'  # not a composite api
    with FakeLlmServer([bad]) as llm:
        agent = _agent(llm)
        action, reasoning = asyncio.run(agent.act(COMPOSITE_OBS))
    assert action == {"api": "failed", "args": {}}
    assert "no valid action twice" in reasoning and "unknown api 'click'" in reasoning
    assert len(llm.requests) == 2


def test_history_shows_refused_actions() -> None:
    first = '```json\n{"api": "delete_block", "args": {"blockIndex": 9}}\n```'
    with FakeLlmServer([first, '```json\n{"api": "done"}\n```']) as llm:
        agent = _agent(llm)
        asyncio.run(agent.act(COMPOSITE_OBS))
        agent.feedback("block index 9 does not exist")
        asyncio.run(agent.act(COMPOSITE_OBS))
    second_user = _text_of(llm.requests[1]["messages"][1])
    assert "No actions taken yet" in _text_of(llm.requests[0]["messages"][1])
    assert '1. {"api": "delete_block", "args": {"blockIndex": 9}} -> REFUSED: block index 9' in (
        second_user
    )


def test_http_errors() -> None:
    with FakeLlmServer([(503, "busy"), '```json\n{"api": "done"}\n```']) as llm:
        action, _ = asyncio.run(_agent(llm).act(COMPOSITE_OBS))
    assert action["api"] == "done" and len(llm.requests) == 2
    with (
        FakeLlmServer([(401, '{"error": "bad key"}')]) as llm,
        pytest.raises(LlmError, match=r"answered 401.*bad key"),
    ):
        asyncio.run(_agent(llm).act(COMPOSITE_OBS))
    settings = LlmSettings(url="http://127.0.0.1:9/v1", model="m", retries=0, timeout_s=2)
    with pytest.raises(LlmError, match="cannot reach"):
        asyncio.run(LlmAgent(settings, Mode.COMPOSITE, "x").act(COMPOSITE_OBS))


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STUDIO_LLM_URL", raising=False)
    monkeypatch.delenv("STUDIO_LLM_MODEL", raising=False)
    with pytest.raises(LlmError, match="STUDIO_LLM_URL and STUDIO_LLM_MODEL"):
        LlmSettings.from_env()
    monkeypatch.setenv("STUDIO_LLM_URL", "http://h/v1/")
    monkeypatch.setenv("STUDIO_LLM_MODEL", "m1")
    monkeypatch.setenv("STUDIO_LLM_KEY", "sk")
    settings = LlmSettings.from_env()
    assert (settings.endpoint, settings.model, settings.key) == (
        "http://h/v1/chat/completions",
        "m1",
        "sk",
    )
    assert LlmSettings.from_env(url="http://x/v1/chat/completions").endpoint.count("chat") == 1


@pytest.mark.parametrize(
    ("reply", "api"),
    [
        ('Reasoning.\n```\n{"api": "done", "args": {}}\n```\nThanks!', "done"),
        ('Plan: {"api": "select_stage"} then more text', "select_stage"),
        ('```json\n{"action": {"api": "done"}}\n```', "done"),
        ('```json\n{"api": "failed"}\n```\n```json\n{"api": "done"}\n```', "done"),
        ('```json\n{broken\n```\nfallback {"api": "select_stage", "args": {}}', "select_stage"),
    ],
)
def test_parse_tolerates_extra_text(reply: str, api: str) -> None:
    action, _ = parse_reply(reply, Mode.COMPOSITE)
    assert action["api"] == api


@pytest.mark.parametrize(
    ("reply", "fragment"),
    [
        ("", "empty"),
        ("no json here", 'no JSON object with an "api"'),
        ('```json\n{"api": "add_block", "args": {}}\n```', "blockType"),
    ],
)
def test_parse_errors(reply: str, fragment: str) -> None:
    with pytest.raises(ReplyError, match=fragment):
        parse_reply(reply, Mode.COMPOSITE)


def test_llm_agent_solves_a_fake_episode(tmp_path: Any) -> None:
    from studio.services.core.store import load_task
    from studio.services.episodes.agents.base import run_episode
    from tests.helpers.fake_env import FakeEpisodeManager
    from tests.helpers.tasks import make_task

    def reply(api: str, args: dict[str, Any]) -> str:
        return f"Next: {api}.\n```json\n{json.dumps({'api': api, 'args': args})}\n```"

    replies = [
        reply("add_block", {"blockType": "event_whenflagclicked"}),
        reply("delete_block", {"blockIndex": 9}),
        reply("add_block", {"blockType": "motion_movesteps"}),
        reply("done", {}),
    ]
    task = load_task(make_task(tmp_path / "t"))

    async def go() -> Any:
        with FakeLlmServer(replies) as llm:
            settings = LlmSettings(url=llm.url, model="fake-model")
            agent = LlmAgent(settings, Mode.COMPOSITE, task.task.instruction)
            manager: Any = FakeEpisodeManager()
            result, _ = await run_episode(manager, task, Mode.COMPOSITE, agent)
        return result, llm

    result, llm = asyncio.run(go())
    assert result.success is True and len(llm.requests) == 4
    third_prompt = _text_of(llm.requests[2]["messages"][1])
    assert "Task:\nMake the Cat walk to x 100." in third_prompt
    assert "2. " + json.dumps({"api": "delete_block", "args": {"blockIndex": 9}}) in third_prompt
    assert "-> REFUSED: block index 9 does not exist" in third_prompt
    assert "#1 [top] event_whenflagclicked" in third_prompt


PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")
DONE_COMPLETION = {"choices": [{"message": {"role": "assistant", "content": '{"api": "done"}'}}]}


def _proxy_env(monkeypatch: pytest.MonkeyPatch, proxy_url: str) -> None:
    for name in PROXY_VARS:
        monkeypatch.setenv(name, proxy_url)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_an_error_and_the_key_stays_home(status: int) -> None:
    with FakeLlmServer() as target:
        location = target.url + "/chat/completions"
        with Recorder(
            status, {"Location": location}, body=json.dumps(DONE_COMPLETION).encode()
        ) as redirecting:
            settings = LlmSettings(url=redirecting.url + "/v1", model="m", key="k123", retries=2)
            with pytest.raises(LlmError) as caught:
                asyncio.run(LlmAgent(settings, Mode.COMPOSITE, "x").act(COMPOSITE_OBS))
    assert f"{redirecting.url}/v1/chat/completions answered {status}" in str(caught.value)
    assert f"redirecting to {location}" in str(caught.value)
    assert "not followed" in str(caught.value)
    assert len(redirecting.requests) == 1  # not retried; the key went there only ...
    assert redirecting.requests[0][2]["Authorization"] == "Bearer k123"
    assert target.requests == []  # ... and never to the redirect's target


def test_no_proxy_from_the_environment_for_a_loopback_endpoint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with Recorder(502, body=json.dumps(DONE_COMPLETION).encode()) as proxy, FakeLlmServer() as llm:
        _proxy_env(monkeypatch, proxy.url)
        action, _ = asyncio.run(_agent(llm).act(COMPOSITE_OBS))
    assert action["api"] == "done"
    assert len(llm.requests) == 1  # reached directly ...
    assert proxy.requests == []  # ... not through the proxy


def test_a_remote_endpoint_goes_through_the_environment_proxy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with Recorder(body=json.dumps(DONE_COMPLETION).encode()) as proxy:
        _proxy_env(monkeypatch, proxy.url)
        settings = LlmSettings(url="http://llm.example.invalid/v1", model="m", retries=0)
        action, _ = asyncio.run(LlmAgent(settings, Mode.COMPOSITE, "x").act(COMPOSITE_OBS))
    assert action["api"] == "done"
    assert [r[1] for r in proxy.requests] == ["http://llm.example.invalid/v1/chat/completions"]


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("LocalHost.", True),
        ("studio.localhost", True),
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),
        ("0.0.0.0", True),
        ("128.0.0.1", False),
        ("10.0.0.1", False),
        ("::2", False),
        ("localhost.example.com", False),
        ("api.openai.com", False),
    ],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback

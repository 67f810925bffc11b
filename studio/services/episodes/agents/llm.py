"""An agent backed by any OpenAI-compatible chat endpoint (`POST <url>/chat/completions`).

Settings come from arguments or the environment: `STUDIO_LLM_URL` (base URL such as
`http://127.0.0.1:8000/v1`, or the full `.../chat/completions`), `STUDIO_LLM_MODEL` and
`STUDIO_LLM_KEY` (sent as a bearer token when set). Each step sends our own system prompt for
the mode, the task instruction, the last few actions with their outcome, and the observation:
the text view in composite mode; the element list and the screenshot (as an image part) in
primitive mode. The reply is reasoning followed by one JSON action in a fenced block; extra text
is tolerated, and a reply without a valid action is asked for once more before the agent gives
up on the task with `failed`.

Requests go through httpx and never follow a redirect (the key would go along to wherever the
redirect points): a redirect is an LlmError naming the Location. Proxies from the environment
(`HTTPS_PROXY`, `ALL_PROXY`, `NO_PROXY`, ...) are used for remote endpoints, as hosted models
are often reached through one, but never for an endpoint on loopback (`localhost`,
127.0.0.0/8, ::1): that traffic stays on this machine.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import os
import re
import ssl
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from studio.models.action_parse import parse_action
from studio.models.agent import ActionError, Mode, Observation
from studio.models.errors import StudioError
from studio.services.episodes.agents.llm_prompts import (
    COMPOSITE_SYSTEM,
    FEEDBACK_PROMPT,
    PRIMITIVE_SYSTEM,
    RETRY_PROMPT,
)
from studio.services.episodes.agents.llm_repair_prompts import PATCH_SYSTEM, UNDERSTAND_SYSTEM
from studio.services.episodes.agents.llm_text_prompts import TEXT_SYSTEM, text_answer
from studio.services.episodes.feedback import FEEDBACK_API

__all__ = [
    "ENV_KEY", "ENV_MODEL", "ENV_URL", "LlmAgent", "LlmError", "LlmSettings", "LlmUnavailable",
    "ReplyError", "Usage", "chat", "is_loopback_host", "observation_text", "parse_reply",
    "post_json", "reply_text", "system_prompt",
]  # fmt: skip

ENV_URL, ENV_MODEL, ENV_KEY = "STUDIO_LLM_URL", "STUDIO_LLM_MODEL", "STUDIO_LLM_KEY"
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n?(.*?)```", re.DOTALL)
_TRANSIENT = {408, 409, 425, 429, 500, 502, 503, 504}


class LlmError(StudioError):
    """The endpoint cannot be used: not configured, unreachable, or it refused the request."""


class LlmUnavailable(LlmError):
    """The endpoint stayed unreachable, timed out or answered a transient status (5xx, 429)
    after the retries: a failure of the environment, not of the model's reply."""


class ReplyError(StudioError, ValueError):
    """A reply that holds no usable action; the message says why."""


@dataclass(frozen=True)
class LlmSettings:
    """Where and how to ask the model."""

    url: str
    model: str
    key: str = ""
    temperature: float = 0.0
    max_tokens: int = 2048
    timeout_s: float = 180.0
    history: int = 8  # past actions shown in each prompt (the action memory, AM)
    observations: int = 1  # observations shown in each prompt, the current one included (OM)
    images: bool = True  # send the screenshot in primitive mode
    retries: int = 2  # extra tries after a transient HTTP failure

    @classmethod
    def from_env(cls, url: str | None = None, model: str | None = None, **kw: Any) -> LlmSettings:
        """Settings from the arguments, else the environment; LlmError when URL or model lack."""
        url = url or os.environ.get(ENV_URL, "")
        model = model or os.environ.get(ENV_MODEL, "")
        missing = [n for n, v in ((ENV_URL, url), (ENV_MODEL, model)) if not v]
        if missing:
            raise LlmError(
                f"the LLM agent needs {' and '.join(missing)} (an OpenAI-compatible endpoint, "
                "e.g. STUDIO_LLM_URL=http://127.0.0.1:8000/v1 STUDIO_LLM_MODEL=my-model)"
            )
        kw.setdefault("key", os.environ.get(ENV_KEY, ""))
        return cls(url=url, model=model, **kw)

    @property
    def endpoint(self) -> str:
        url = self.url.rstrip("/")
        return url if url.endswith("/chat/completions") else url + "/chat/completions"


@dataclass
class _Turn:
    action: dict[str, Any]
    error: str | None = None


@dataclass
class Usage:
    """Calls and tokens spent, as the endpoint reported them."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    malformed_replies: int = 0
    seconds: float = 0.0


@dataclass
class LlmAgent:
    """The agent; one instance per task (it keeps the task's instruction and its history)."""

    settings: LlmSettings
    mode: Mode
    instruction: str
    name: str = ""
    usage: Usage = field(default_factory=Usage)
    _turns: list[_Turn] = field(default_factory=list)
    _seen: list[Observation] = field(default_factory=list)  # earlier observations (OM > 1)
    feedback_turns: int = 0  # mid-episode evaluations the run grants (episodes.feedback)
    _heard: list[str] = field(default_factory=list)  # the feedback turns' texts, in order

    def __post_init__(self) -> None:
        self.mode = Mode(self.mode)
        self.name = self.name or self.settings.model

    async def act(self, observation: Observation) -> tuple[dict[str, Any], str]:
        """Ask the model for the next action; retry once when the reply holds none. With
        feedback turns left, the model may ask for feedback (`request_feedback`) instead."""
        left = self.feedback_turns - len(self._heard)
        system = system_prompt(self.mode)
        if left > 0:
            system += "\n\n" + FEEDBACK_PROMPT.format(left=left)
        extra = (FEEDBACK_API,) if left > 0 else ()
        messages = [
            {"role": "system", "content": system},
            {"role": "user", "content": self._user_content(observation)},
        ]
        reply = await self._chat(messages)
        try:
            action, reasoning = parse_reply(reply, self.mode, extra)
        except ReplyError as exc:
            self.usage.malformed_replies += 1
            messages += [
                {"role": "assistant", "content": reply},
                {"role": "user", "content": RETRY_PROMPT.format(problem=exc)},
            ]
            reply = await self._chat(messages)
            try:
                action, reasoning = parse_reply(reply, self.mode, extra)
            except ReplyError as again:
                self.usage.malformed_replies += 1
                action = {"api": "failed", "args": {}}
                reasoning = f"[the model gave no valid action twice: {again}]\n{reply}"
        self._turns.append(_Turn(action))
        return action, reasoning

    def feedback(self, error: str) -> None:
        """The environment refused the last action: show the model why in the next prompt."""
        if self._turns:
            self._turns[-1].error = error

    def evaluated(self, record: dict[str, Any], text: str) -> None:
        """A feedback turn it asked for: the structured feedback goes into the next prompts."""
        self._heard.append(text)

    # ---- prompt ------------------------------------------------------------------------
    def _user_content(self, obs: Observation) -> Any:
        keep = max(self.settings.observations, 1) - 1  # earlier observations shown
        earlier = self._seen[-keep:] if keep else []
        self._seen = [*self._seen, obs][-keep:] if keep else []
        parts = [f"Task:\n{self.instruction}", f"Step {obs.step + 1}. " + self._history_text()]
        images: list[str] = []
        for old in earlier:  # observation memory: the earlier observations, oldest first
            parts.append(f"Observation before step {old.step + 1}:\n" + observation_text(old))
            if old.screenshot_png_b64:
                images.append(old.screenshot_png_b64)
        if self._heard:  # the latest feedback turn's score, failing tests and messages
            parts.append("Latest feedback on your program:\n" + self._heard[-1])
        parts += ["Current observation:\n" + observation_text(obs), "What is your next action?"]
        text = "\n\n".join(parts)
        if self.mode is Mode.PRIMITIVE and self.settings.images and obs.screenshot_png_b64:
            images.append(obs.screenshot_png_b64)  # the current screenshot comes last
            content: list[dict[str, Any]] = [{"type": "text", "text": text}]
            for b64 in images:
                content.append(
                    {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{b64}"}}
                )
            return content
        return text

    def _history_text(self) -> str:
        if not self._turns:
            return "No actions taken yet."
        if self.settings.history <= 0:  # no action memory
            return f"{len(self._turns)} actions taken so far."
        shown = self._turns[-self.settings.history :]
        first = len(self._turns) - len(shown) + 1
        lines = [f"Your last {len(shown)} actions (oldest first):"]
        for number, turn in enumerate(shown, first):
            outcome = f"REFUSED: {turn.error}" if turn.error else "done"
            lines.append(f"{number}. {json.dumps(turn.action)} -> {outcome}")
        return "\n".join(lines)

    # ---- transport ---------------------------------------------------------------------
    async def _chat(self, messages: list[dict[str, Any]]) -> str:
        return await chat(self.settings, messages, self.usage)


async def chat(settings: LlmSettings, messages: list[dict[str, Any]], usage: Usage) -> str:
    """One chat completion (off the event loop's thread); the reply's text; `usage` grows."""
    payload = {
        "model": settings.model,
        "messages": messages,
        "temperature": settings.temperature,
        "max_tokens": settings.max_tokens,
    }
    t0 = time.perf_counter()
    data = await asyncio.to_thread(post_json, settings, payload)
    usage.calls += 1
    usage.seconds += time.perf_counter() - t0
    spent = data.get("usage")
    if not isinstance(spent, dict):
        spent = {}
    usage.prompt_tokens += int(spent.get("prompt_tokens") or 0)
    usage.completion_tokens += int(spent.get("completion_tokens") or 0)
    return reply_text(data)


def system_prompt(mode: Mode) -> str:
    prompts = {
        Mode.COMPOSITE: COMPOSITE_SYSTEM,
        Mode.PATCH: PATCH_SYSTEM,
        Mode.UNDERSTAND: UNDERSTAND_SYSTEM,
        Mode.TEXT: TEXT_SYSTEM,
    }
    return prompts.get(Mode(mode), PRIMITIVE_SYSTEM)


def observation_text(obs: Observation) -> str:
    """The observation as the model reads it (the screenshot goes as an image part)."""
    if obs.mode in (Mode.COMPOSITE, Mode.PATCH, Mode.UNDERSTAND, Mode.TEXT):
        return obs.text or "(empty observation)"
    if not obs.elements and obs.text:  # no element list (screenshots only): the mode says so
        return obs.text
    lines = []
    for e in obs.elements:
        cx, cy = round(e.x + e.w / 2), round(e.y + e.h / 2)
        lines.append(
            f"[{e.index}] {e.type} {json.dumps(e.text)} centre ({cx}, {cy}) "
            f"size {round(e.w)} x {round(e.h)}"
        )
    return "Elements:\n" + ("\n".join(lines) if lines else "(none)")


def post_json(settings: LlmSettings, payload: dict[str, Any]) -> dict[str, Any]:
    """POST the chat request (blocking); retry transient failures; LlmError otherwise."""
    endpoint = settings.endpoint
    body = json.dumps(payload).encode("utf-8")
    headers = {"Content-Type": "application/json"}
    problem = "no attempt made"
    if settings.key:
        headers["Authorization"] = f"Bearer {settings.key}"
    with _http_client(endpoint) as client:
        for attempt in range(settings.retries + 1):
            try:
                resp = client.post(
                    endpoint, content=body, headers=headers, timeout=settings.timeout_s
                )
            except httpx.RequestError as exc:  # connection, timeout, proxy, protocol
                problem = f"cannot reach {endpoint}: {_reason(exc)}"
            else:
                if resp.is_success:
                    return _json_object(endpoint, resp.content)
                if 300 <= resp.status_code < 400:  # never followed: the key would go along
                    location = resp.headers.get("Location", "(no Location)")
                    raise LlmError(
                        f"{endpoint} answered {resp.status_code} redirecting to {location}: "
                        "redirects are not followed (set STUDIO_LLM_URL to the final address)"
                    )
                detail = resp.content[:300].decode("utf-8", "replace")
                problem = f"{endpoint} answered {resp.status_code}: {detail}"
                if resp.status_code not in _TRANSIENT:
                    raise LlmError(problem)
            if attempt < settings.retries:
                time.sleep(min(8.0, 1.0 * 2**attempt))
    raise LlmUnavailable(problem)


def _json_object(endpoint: str, raw: bytes) -> dict[str, Any]:
    try:
        data = json.loads(raw.decode("utf-8"))
    except ValueError as exc:  # UnicodeDecodeError included
        raise LlmError(f"{endpoint} answered something that is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise LlmError(f"{endpoint} answered with JSON that is not an object")
    return data


def _http_client(endpoint: str) -> httpx.Client:
    """A client that follows no redirect; the environment's proxies only for a remote host."""
    try:
        host = httpx.URL(endpoint).host
    except httpx.InvalidURL as exc:
        raise LlmError(f"cannot reach {endpoint}: {exc}") from None
    try:
        return httpx.Client(
            follow_redirects=False,
            trust_env=not is_loopback_host(host),
            verify=_tls_context(),
        )
    except (ImportError, ValueError) as exc:  # e.g. ALL_PROXY=socks5://... without socksio
        raise LlmError(
            f"cannot use the proxy set in the environment for {endpoint}: {exc}"
        ) from None


def is_loopback_host(host: str) -> bool:
    """Whether a URL's host is this machine: localhost, 127.0.0.0/8, ::1 (or 0.0.0.0, ::)."""
    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_unspecified


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """The system's trust store, as urllib used (built once: it takes a while to load)."""
    return ssl.create_default_context()


def _reason(exc: Exception) -> str:
    return str(exc) or type(exc).__name__


def reply_text(data: dict[str, Any]) -> str:
    """The assistant's text from a chat completion; '' when there is none."""
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return ""
    if isinstance(content, list):  # content parts
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content if isinstance(content, str) else ""


def parse_reply(reply: str, mode: Mode, extra: tuple[str, ...] = ()) -> tuple[dict[str, Any], str]:
    """The action and the reasoning in a reply; ReplyError says what is wrong. `extra`: names
    taken besides the mode's actions (`request_feedback` while feedback turns are left)."""
    if not reply.strip():
        raise ReplyError("the reply was empty")
    answer = text_answer(reply) if Mode(mode) is Mode.TEXT else None
    if answer is not None:  # text mode: the program in a scratchblocks block
        try:
            parse_action(answer, mode)
        except ActionError as exc:
            raise ReplyError(f"the scratchblocks answer is invalid: {exc}") from None
        return answer, _FENCE.sub("", reply).strip()
    found = _last_action(reply)
    if found is None:
        raise ReplyError('it holds no JSON object with an "api" key')
    action, start = found
    action = {"api": action["api"], "args": action.get("args") or {}}
    try:
        if action["api"] not in extra:
            parse_action(action, mode)
    except ActionError as exc:
        raise ReplyError(f"the action is invalid: {exc}") from None
    reasoning = reply[:start].strip() or _FENCE.sub("", reply).strip()
    return action, reasoning


def _last_action(reply: str) -> tuple[dict[str, Any], int] | None:
    """The last JSON action in the reply (fenced blocks first) and where it starts."""
    for match in reversed(list(_FENCE.finditer(reply))):
        candidate = _action_in(match.group(2))
        if candidate is not None:
            return candidate, match.start()
    decoder = json.JSONDecoder()
    best: tuple[dict[str, Any], int] | None = None
    for pos in (m.start() for m in re.finditer(r"\{", reply)):
        try:
            value, _ = decoder.raw_decode(reply, pos)
        except ValueError:
            continue
        action = _unwrap(value)
        if action is not None and (best is None or pos > best[1]):
            best = (action, pos)
    return best


def _action_in(text: str) -> dict[str, Any] | None:
    try:
        return _unwrap(json.loads(text))
    except ValueError:
        return None


def _unwrap(value: Any) -> dict[str, Any] | None:
    """`{"api": ...}` itself, or wrapped as `{"action": {...}}`."""
    if isinstance(value, dict) and isinstance(value.get("action"), dict):
        value = value["action"]
    if isinstance(value, dict) and isinstance(value.get("api"), str):
        return value
    return None

"""LLM agents for the diagnostics, on the same OpenAI-compatible endpoint as `LlmAgent`.

Each item is one chat: our own system prompt for the diagnostic, then the instruction (or the
question) with the screenshot as an image part. A drag reply ends with JSON
`{"start": [x, y], "end": [x, y]}`; a QA reply with a line `ANSWER: ...`. A reply that cannot
be read is not asked again: the attempt counts as wrong and the reason is kept with it.
Endpoint failures (LlmError) propagate: the runner records them as the item's error.
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass, field
from typing import Any

from studio.models.qa_item import QaType
from studio.services.diagnostics.agents import (
    DragDecision,
    DragObservation,
    Pt,
    QaObservation,
    QaReply,
)
from studio.services.episodes.agents.llm import LlmSettings, ReplyError, Usage, chat

__all__ = [
    "DRAG_SYSTEM", "FIELD_HINT", "QA_SYSTEM", "SHORT_REPLY", "YES_NO_HINT", "LlmDragAgent",
    "LlmQaAgent", "drag_messages", "parse_drag_reply", "parse_qa_reply", "qa_messages",
]  # fmt: skip

DRAG_SYSTEM = """\
You operate the Scratch 3 editor with the mouse. You get a 1280x720 screenshot of the editor and
an instruction that a single drag-and-drop carries out: the mouse button is pressed at a start
point, the pointer moves in a straight line, and the button is released at an end point.
Coordinates are screenshot pixels with the origin at the top-left corner: x from 0 to 1279 to
the right, y from 0 to 719 downwards.

Reply with a few sentences of reasoning (where the block to drag is, where it has to go), then
exactly one JSON object in a fenced block, and nothing after it:
```json
{"start": [x, y], "end": [x, y]}
```"""

QA_SYSTEM = """\
You answer questions about screenshots of the Scratch 3 editor (1280x720 pixels). Look closely
at the blocks in the code area: which blocks are joined to which, which blocks are there (some
may be partly hidden behind others), and the values shown in their fields and inputs.

Reply with at most a few sentences of reasoning, then a last line of the form
ANSWER: <answer>
For a yes/no question the answer is YES or NO. For a question about a value the answer is the
value exactly as the screenshot shows it, without quotes."""

YES_NO_HINT = "Answer YES or NO."
FIELD_HINT = "Answer with the value exactly as it is shown."

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n?(.*?)```", re.DOTALL)
_ANSWER = re.compile(r"^[ \t*_#>-]*answer[ \t*_]*[:：][ \t*_]*(.*?)[ \t*_]*$", re.I | re.M)
SHORT_REPLY = 60  # a one-line reply this short counts as the answer itself


def _image_part(png: bytes) -> dict[str, Any]:
    url = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return {"type": "image_url", "image_url": {"url": url}}


def drag_messages(obs: DragObservation) -> list[dict[str, Any]]:
    text = (
        f"Instruction: {obs.instruction}\n\n"
        f"The screenshot is {obs.width}x{obs.height}. Give the one drag that carries out the "
        "instruction."
    )
    if obs.given_start is not None:  # GT Start setting
        x, y = obs.given_start
        text += (
            f"\n\nA valid start point is given: ({round(x)}, {round(y)}). Pressing there "
            "grabs the block to drag."
        )
    if obs.hints:  # Knowledge setting
        text += "\n\n" + obs.hints
    user = [{"type": "text", "text": text}, _image_part(obs.screenshot_png)]
    return [{"role": "system", "content": DRAG_SYSTEM}, {"role": "user", "content": user}]


def qa_messages(obs: QaObservation) -> list[dict[str, Any]]:
    hint = FIELD_HINT if obs.task_type is QaType.FIELD else YES_NO_HINT
    text = f"Question: {obs.question}\n{hint}"
    user = [{"type": "text", "text": text}, _image_part(obs.screenshot_png)]
    return [{"role": "system", "content": QA_SYSTEM}, {"role": "user", "content": user}]


def _point(value: Any, what: str, width: int, height: int) -> Pt:
    if not (isinstance(value, list | tuple) and len(value) == 2):
        raise ReplyError(f"{what} is not [x, y]")
    try:
        x, y = float(value[0]), float(value[1])
    except (TypeError, ValueError):
        raise ReplyError(f"{what} does not hold two numbers") from None
    if not (0 <= x < width and 0 <= y < height):
        raise ReplyError(f"{what} ({x:g}, {y:g}) lies outside the {width}x{height} screenshot")
    return x, y


def _drag_object(value: Any) -> dict[str, Any] | None:
    """`{"start": .., "end": ..}` (or `start_x, start_y, end_x, end_y`), maybe under "drag"."""
    if isinstance(value, dict) and isinstance(value.get("drag"), dict):
        value = value["drag"]
    if not isinstance(value, dict):
        return None
    if "start" in value and "end" in value:
        return value
    keys = ("start_x", "start_y", "end_x", "end_y")
    if all(k in value for k in keys):
        return {
            "start": [value["start_x"], value["start_y"]],
            "end": [value["end_x"], value["end_y"]],
        }
    return None


def _last_drag(reply: str) -> tuple[dict[str, Any], int] | None:
    for match in reversed(list(_FENCE.finditer(reply))):
        try:
            found = _drag_object(json.loads(match.group(2)))
        except ValueError:
            continue
        if found is not None:
            return found, match.start()
    decoder = json.JSONDecoder()
    for pos in reversed([m.start() for m in re.finditer(r"\{", reply)]):
        try:
            value, _ = decoder.raw_decode(reply, pos)
        except ValueError:
            continue
        found = _drag_object(value)
        if found is not None:
            return found, pos
    return None


def parse_drag_reply(reply: str, width: int = 1280, height: int = 720) -> tuple[Pt, Pt, str]:
    """Start, end and the reasoning before them; ReplyError says what is wrong."""
    if not reply.strip():
        raise ReplyError("the reply was empty")
    found = _last_drag(reply)
    if found is None:
        raise ReplyError('it holds no JSON object with "start" and "end"')
    data, at = found
    start = _point(data["start"], "start", width, height)
    end = _point(data["end"], "end", width, height)
    return start, end, reply[:at].strip()


def parse_qa_reply(reply: str) -> tuple[str, str]:
    """The answer and the reasoning before it; ReplyError when there is no answer."""
    text = reply.strip()
    if not text:
        raise ReplyError("the reply was empty")
    lines = list(_ANSWER.finditer(text))
    if lines and lines[-1].group(1).strip():
        last = lines[-1]
        return last.group(1).strip(), text[: last.start()].strip()
    for match in reversed(list(_FENCE.finditer(text))):
        try:
            data = json.loads(match.group(2))
        except ValueError:
            continue
        if isinstance(data, dict) and "answer" in data:
            return str(data["answer"]).strip(), text[: match.start()].strip()
    if "\n" not in text and len(text) <= SHORT_REPLY:
        return text, ""
    raise ReplyError('it has no line "ANSWER: ..."')


@dataclass
class LlmDragAgent:
    """One chat per attempt; attempts of an item are independent samples (temperature)."""

    settings: LlmSettings
    name: str = ""
    usage: Usage = field(default_factory=Usage)

    def __post_init__(self) -> None:
        self.name = self.name or self.settings.model

    async def drag(self, observation: DragObservation) -> DragDecision:
        reply = await chat(self.settings, drag_messages(observation), self.usage)
        try:
            start, end, reasoning = parse_drag_reply(reply, observation.width, observation.height)
        except ReplyError as exc:
            self.usage.malformed_replies += 1
            return DragDecision.refused(f"unusable reply: {exc}", reply)
        return DragDecision(start, end, reasoning)


@dataclass
class LlmQaAgent:
    """One chat per question."""

    settings: LlmSettings
    name: str = ""
    usage: Usage = field(default_factory=Usage)

    def __post_init__(self) -> None:
        self.name = self.name or self.settings.model

    async def answer(self, observation: QaObservation) -> QaReply:
        reply = await chat(self.settings, qa_messages(observation), self.usage)
        try:
            answer, reasoning = parse_qa_reply(reply)
        except ReplyError as exc:
            self.usage.malformed_replies += 1
            return QaReply("", reply, f"unusable reply: {exc}")
        return QaReply(answer, reasoning)

"""Agents for the two diagnostic benchmarks: one drag per drag item, one answer per QA item.

A drag agent sees a 1280x720 screenshot of the prepared editor and the item's instruction and
returns one drag (`DragDecision`: start and end in page pixels, or no drag and why); a QA agent
sees a screenshot and a question and returns an answer (`QaReply`). The agents here need no
model: the oracle (from the item's labels), a seeded random agent (a floor), and a scripted one
that replays a JSON lines file. The LLM agents are in `llm_diagnostic`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from studio.models.drag_item import DragItem
from studio.models.qa_item import QaItem, QaType
from studio.services.core.errors import TaskFileError
from studio.services.core.jsonl import json_lines

__all__ = [
    "PAGE_H", "PAGE_W", "RANDOM_TOKENS", "DragAgent", "DragDecision", "DragObservation",
    "OracleDragAgent", "OracleQaAgent", "Pt", "QaAgent", "QaObservation", "QaReply",
    "RandomDragAgent", "RandomQaAgent", "ScriptedDragAgent", "ScriptedQaAgent", "oracle_drag",
    "read_script",
]  # fmt: skip

PAGE_W, PAGE_H = 1280, 720
Pt = tuple[float, float]
RANDOM_TOKENS = ("0", "1", "10", "-1", "50", "hello", "x", "my variable", "space")


@dataclass(frozen=True)
class DragObservation:
    """What a drag agent sees: the screen of the item (PNG) and what to do."""

    item_id: str
    instruction: str
    screenshot_png: bytes
    attempt: int = 0  # 0-based; attempts of one item are independent tries from the same screen
    width: int = PAGE_W
    height: int = PAGE_H
    given_start: Pt | None = None  # GT Start setting: a valid start point (drag_settings)
    hints: str = ""  # Knowledge setting: hints for the prompt (drag_settings)


@dataclass(frozen=True)
class DragDecision:
    """One drag (page pixels), or none with the reason (`error`): that attempt counts wrong."""

    start: Pt | None
    end: Pt | None
    reasoning: str = ""
    error: str | None = None

    @classmethod
    def refused(cls, why: str, reasoning: str = "") -> DragDecision:
        return cls(None, None, reasoning, why)


@dataclass(frozen=True)
class QaObservation:
    """What a QA agent sees: the screenshot (PNG) and the question; `task_type` says whether a
    YES/NO answer (connection, existence) or a value read off the screen (field) is wanted."""

    task_id: str
    question: str
    task_type: QaType
    screenshot_png: bytes


@dataclass(frozen=True)
class QaReply:
    """The answer ('' with `error` when the agent gave none)."""

    answer: str
    reasoning: str = ""
    error: str | None = None


class DragAgent(Protocol):
    """Picks one drag for a drag item's screen."""

    name: str

    async def drag(self, observation: DragObservation) -> DragDecision: ...


class QaAgent(Protocol):
    """Answers one perception question about a screenshot."""

    name: str

    async def answer(self, observation: QaObservation) -> QaReply: ...


# ---- oracle --------------------------------------------------------------------------------
def _deepest(points: list[Pt], step: float) -> list[Pt]:
    """The points left after eroding the region (4-neighbour) as long as some remain."""
    current = set(points)
    while True:
        inner = {
            (x, y)
            for x, y in current
            if {(x + step, y), (x - step, y), (x, y + step), (x, y - step)} <= current
        }
        if not inner:
            return sorted(current)
        current = inner


def _nearest(points: list[Pt], to: Pt) -> Pt:
    return min(points, key=lambda p: ((p[0] - to[0]) ** 2 + (p[1] - to[1]) ** 2, p))


def oracle_drag(item: DragItem) -> tuple[Pt, Pt] | None:
    """A feasible drag from the item's labels; None when it has no regions.

    The start is the feasible start point nearest the item's drag start; the end a point deep
    inside the end region, moved by the start's offset from the drag start (the block moves
    with the point that grabbed it, as scoring assumes).
    """
    cfg = item.evaluation_config
    starts = [(float(p[0]), float(p[1])) for p in cfg.feasible_start_points]
    ends = [(float(p[0]), float(p[1])) for p in cfg.feasible_points]
    if not starts or not ends:
        return None
    anchor = cfg.drag_start_point or cfg.seed_point
    start = _nearest(starts, (anchor[0], anchor[1]) if anchor else starts[len(starts) // 2])
    core = _deepest(ends, float(cfg.grid))
    centre = (sum(p[0] for p in core) / len(core), sum(p[1] for p in core) / len(core))
    end = _nearest(core, centre)
    ds = cfg.drag_start_point
    if ds:
        end = (end[0] + start[0] - ds[0], end[1] + start[1] - ds[1])
    return start, end


class OracleDragAgent:
    """Drags as the item's labels say it works (an upper bound: Pass@1 should be 100%)."""

    name = "oracle"

    def __init__(self, items: Mapping[str, DragItem]) -> None:
        self.items = dict(items)

    async def drag(self, observation: DragObservation) -> DragDecision:
        item = self.items.get(observation.item_id)
        if item is None:
            return DragDecision.refused(f"the oracle does not know item {observation.item_id}")
        found = oracle_drag(item)
        if found is None:
            return DragDecision.refused("the item has no feasible regions (compute them first)")
        return DragDecision(found[0], found[1], "feasible start, deepest end point of the region")


class OracleQaAgent:
    """Answers with the item's ground truth."""

    name = "oracle"

    def __init__(self, items: Mapping[str, QaItem]) -> None:
        self.items = dict(items)

    async def answer(self, observation: QaObservation) -> QaReply:
        item = self.items.get(observation.task_id)
        if item is None:
            return QaReply("", error=f"the oracle does not know item {observation.task_id}")
        return QaReply(item.ground_truth, "ground truth")


# ---- random --------------------------------------------------------------------------------
def _rng(seed: int, key: str, attempt: int = 0) -> random.Random:
    """A generator per (seed, item, attempt): the same answers whatever the order of items."""
    return random.Random(f"{seed}/{key}/{attempt}")


class RandomDragAgent:
    """Start and end uniform over the page (a floor)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    async def drag(self, observation: DragObservation) -> DragDecision:
        rng = _rng(self.seed, observation.item_id, observation.attempt)
        w, h = observation.width, observation.height
        start = (float(rng.randrange(w)), float(rng.randrange(h)))
        end = (float(rng.randrange(w)), float(rng.randrange(h)))
        if observation.given_start is not None:  # GT Start: the start is given
            start = observation.given_start
        return DragDecision(start, end, f"uniform random (seed {self.seed})")


class RandomQaAgent:
    """YES or NO at random; for a field question a token from a small list."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    async def answer(self, observation: QaObservation) -> QaReply:
        rng = _rng(self.seed, observation.task_id)
        if observation.task_type is QaType.FIELD:
            return QaReply(rng.choice(RANDOM_TOKENS), "random token")
        return QaReply(rng.choice(("YES", "NO")), "random yes/no")


# ---- scripted ------------------------------------------------------------------------------
def read_script(path: Path) -> dict[str, list[dict[str, Any]]]:
    """JSON lines keyed by `id` or `task_id`: per item, its lines in order (an `"attempts"`
    list, as in predictions.jsonl, counts as one line per attempt). TaskFileError names the
    line."""
    out: dict[str, list[dict[str, Any]]] = {}
    for n, data in json_lines(path):
        key = data.get("id", data.get("task_id")) if isinstance(data, dict) else None
        if key is None:
            raise TaskFileError(path, f'line {n}: needs "id" or "task_id"')
        attempts = data.get("attempts")
        rows = attempts if isinstance(attempts, list) else [data]
        for row in rows:
            if not isinstance(row, dict):
                raise TaskFileError(path, f"line {n}: an attempt must be an object")
            out.setdefault(str(key), []).append({**row, "_line": n})
    return out


def _point(value: Any) -> Pt | None:
    if isinstance(value, list | tuple) and len(value) == 2:
        try:
            return float(value[0]), float(value[1])
        except (TypeError, ValueError):
            return None
    return None


class ScriptedDragAgent:
    """Replays `{"id", "start": [x, y], "end": [x, y]}` lines; attempt i takes the item's i-th."""

    def __init__(self, script: dict[str, list[dict[str, Any]]], name: str = "scripted") -> None:
        self.script = script
        self.name = name

    async def drag(self, observation: DragObservation) -> DragDecision:
        rows = self.script.get(observation.item_id, [])
        if observation.attempt >= len(rows):
            n = observation.attempt + 1
            return DragDecision.refused(f"the script has no attempt {n} for this item")
        row = rows[observation.attempt]
        start, end = _point(row.get("start")), _point(row.get("end"))
        if start is None and end is None and row.get("error"):
            return DragDecision.refused(str(row["error"]))  # a recorded attempt without a drag
        if start is None or end is None:
            return DragDecision.refused(f"script line {row['_line']}: start and end are [x, y]")
        return DragDecision(start, end, str(row.get("reasoning") or "scripted"))


class ScriptedQaAgent:
    """Replays `{"task_id", "answer"}` lines."""

    def __init__(self, script: dict[str, list[dict[str, Any]]], name: str = "scripted") -> None:
        self.script = script
        self.name = name

    async def answer(self, observation: QaObservation) -> QaReply:
        rows = self.script.get(observation.task_id)
        if not rows or "answer" not in rows[-1]:
            return QaReply("", error="the script has no answer for this item")
        return QaReply(str(rows[-1]["answer"]), str(rows[-1].get("reasoning") or "scripted"))

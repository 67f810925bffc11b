"""Running an agent on a perception QA set: one answer per item, accuracy per type.

The agent sees each item's screenshot (PNG bytes) and question and answers; the answers are
scored as `studio qa score` scores them (`scoring.score`: yes/no without case, field exact
and equivalent). A run folder `<agent>-qa-<timestamp>/` holds `answers.jsonl` (the format
`scoring.read_answers` reads, plus the reasoning, the error and whether the answer is right)
and `summary.json`. An item whose screenshot is missing, or whose agent gave no answer, counts
as wrong with the reason kept.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, is_dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.qa_item import QaItem
from studio.services.core import atomic
from studio.services.diagnostics.agents import QaAgent, QaObservation, QaReply
from studio.services.diagnostics.qa.item import QaSet
from studio.services.diagnostics.qa.scoring import correct, score

__all__ = ["ANSWERS_FILE", "KIND", "SUMMARY_FILE", "QaOutcome", "QaRun", "run_qa"]

log = logging.getLogger(__name__)

KIND = "qa"
ANSWERS_FILE = "answers.jsonl"
SUMMARY_FILE = "summary.json"


@dataclass
class QaOutcome:
    """One item: the agent's reply and whether it is right."""

    item: QaItem
    reply: QaReply
    right: bool
    seconds: float = 0.0
    crashed: bool = False  # not asked: the screenshot is missing, or the agent raised

    @property
    def label(self) -> str:
        return self.item.task_id

    @property
    def success(self) -> bool:
        return self.right

    @property
    def error(self) -> str | None:
        return self.reply.error

    def line(self) -> str:
        """One line for the terminal."""
        if self.reply.error:
            return f"ERROR {self.label}: {self.reply.error}"
        verdict = "RIGHT" if self.right else "WRONG"
        return f"{verdict} {self.label}: {self.reply.answer!r} (truth {self.item.ground_truth!r})"

    def to_json(self, agent: str) -> dict[str, Any]:
        return {
            "task_id": self.label,
            "answer": self.reply.answer,
            "model": agent,
            "task_type": self.item.task_type.value,
            "correct": self.right,
            "error": self.reply.error,
            "crashed": self.crashed,
            "reasoning": self.reply.reasoning,
            "seconds": round(self.seconds, 2),
        }


@dataclass
class QaRun:
    """All answers of a run and the figures over them."""

    run_dir: Path
    agent: str
    qa_dir: str = ""
    outcomes: list[QaOutcome] = field(default_factory=list)
    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    seconds: float = 0.0
    usage: dict[str, Any] | None = None
    protocol: dict[str, Any] | None = None  # studio.models.protocols.ProtocolRecord

    def summary(self) -> dict[str, Any]:
        answers = {o.label: o.reply.answer for o in self.outcomes}
        out: dict[str, Any] = {
            "kind": KIND,
            "agent": self.agent,
            "qa_dir": self.qa_dir,
            "started_at": self.started_at.isoformat(timespec="seconds"),
            "seconds": round(self.seconds, 2),
        }
        out.update(score([o.item for o in self.outcomes], answers))
        out["no_answer"] = sum(1 for o in self.outcomes if o.error and not o.crashed)
        out["errors"] = [{"id": o.label, "error": o.error} for o in self.outcomes if o.crashed]
        if self.usage is not None:
            out["usage"] = self.usage
        if self.protocol is not None:
            out["protocol"] = self.protocol
        return out

    def write(self) -> None:
        lines = "".join(json.dumps(o.to_json(self.agent)) + "\n" for o in self.outcomes)
        atomic.write_text(self.run_dir / ANSWERS_FILE, lines)
        atomic.write_text(self.run_dir / SUMMARY_FILE, json.dumps(self.summary(), indent=2) + "\n")


async def _one(qa: QaSet, item: QaItem, agent: QaAgent) -> QaOutcome:
    t0 = time.perf_counter()
    path = qa.screenshot_path(item.screenshot)
    try:
        png = path.read_bytes()
    except OSError as exc:
        reply = QaReply("", error=f"{path}: cannot be read ({exc.strerror or exc})")
        return QaOutcome(item, reply, False, crashed=True)
    obs = QaObservation(item.task_id, item.instruction, item.task_type, png)
    try:
        reply = await agent.answer(obs)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # the agent's endpoint failed: this item, not the run
        log.warning("%s: agent failed: %s", item.task_id, exc)
        reply = QaReply("", error=f"agent error: {exc}")
        return QaOutcome(item, reply, False, time.perf_counter() - t0, crashed=True)
    right = reply.error is None and correct(item, reply.answer)
    return QaOutcome(item, reply, right, time.perf_counter() - t0)


async def run_qa(
    qa: QaSet,
    agent: QaAgent,
    run_dir: Path,
    workers: int = 1,
    on_done: Callable[[int, int, QaOutcome], None] | None = None,
    protocol: dict[str, Any] | None = None,
) -> QaRun:
    """Ask `agent` every item of the set, `workers` at a time; write the run folder (its
    summary.json with `protocol`, the run's protocol record, when given)."""
    items = qa.items()
    run_dir.mkdir(parents=True, exist_ok=True)
    run = QaRun(run_dir, agent.name, str(qa.root), protocol=protocol)
    slots = asyncio.Semaphore(max(1, workers))
    done: list[QaOutcome] = []
    t0 = time.perf_counter()

    async def one(item: QaItem) -> QaOutcome:
        async with slots:
            outcome = await _one(qa, item, agent)
        done.append(outcome)
        if on_done is not None:
            on_done(len(done), len(items), outcome)
        return outcome

    run.outcomes = list(await asyncio.gather(*(one(i) for i in items)))
    run.seconds = time.perf_counter() - t0
    usage = getattr(agent, "usage", None)
    if is_dataclass(usage) and not isinstance(usage, type):
        run.usage = asdict(usage)
    run.write()
    return run

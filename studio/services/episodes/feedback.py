"""Feedback turns, counted: mid-episode evaluations an episode grants its agent (DrawingBench's
second turn, as a protocol setting).

An episode holds a `FeedbackTurns` ledger: its `budget` (the protocol's `feedback_turns`, 0 by
default) and the `turns` taken. While the episode runs, the agent may ask for an evaluation of
its current program up to `budget` times: over the agent API by POST /episodes/{id}/evaluate
on a running episode, in `studio run` by the action `{"api": "request_feedback"}` (FEEDBACK_API),
which is not a step. Each turn is recorded (`turn_record`): its number, when it was asked and
after which step, how long it took, the score (tests passed of total, PSR, success), the failing
tests with their messages and the evaluation's error, if any; `feedback_text` is what an agent
is shown of it. A turn's evaluation is never the agent's result: the episode's result is the
evaluation at its end.

A request beyond the budget (or any while the budget is 0) is refused with `FeedbackRefused`
(an ActionError naming the budget and how much of it was used); nothing is evaluated or
recorded as a turn. In `studio run` the refused request is recorded as a refused step (so an
agent that keeps asking still reaches its step limit).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from studio.models.agent import ActionError
from studio.models.evaluation import EvalResult
from studio.models.protocols import MAX_FEEDBACK_TURNS

__all__ = [
    "FEEDBACK_API", "MAX_FEEDBACK_TURNS", "FeedbackRefused", "FeedbackTurns", "feedback_text",
    "feedback_turn", "turn_record",
]  # fmt: skip

log = logging.getLogger(__name__)

FEEDBACK_API = "request_feedback"
_MESSAGE_CHARS = 300  # a failing test's message as recorded and shown


class FeedbackRefused(ActionError):
    """A mid-episode evaluation the episode's feedback budget does not allow."""


def turn_record(
    result: EvalResult, turn: int, after_step: int, at: datetime, seconds: float
) -> dict[str, Any]:
    """What the trajectory keeps of feedback turn `turn` (run.json `meta.feedback`)."""
    failing = [
        {"name": d.name, "message": _message(d.error, d.model_extra)}
        for d in result.details
        if not d.passed
    ]
    error = result.error
    return {
        "turn": turn,
        "at": at.isoformat(),
        "after_step": after_step,
        "seconds": round(seconds, 3),
        "passed": result.passed_tests,
        "total": result.total_tests,
        "psr": result.partial_success_rate if error is None else 0.0,
        "success": result.ok,
        "failing": failing,
        "error": None if error is None else f"{error.kind.value}: {error.message}",
    }


def _message(error: str | None, extra: dict[str, Any] | None) -> str:
    """A failing test's message: its error, else the message the script gave it."""
    text = error or str((extra or {}).get("message") or "")
    return text[:_MESSAGE_CHARS]


def feedback_text(record: dict[str, Any], left: int) -> str:
    """The structured feedback an agent is shown of a turn: score, failing tests and their
    messages, the evaluation's error, and how many turns are left."""
    lines = [
        f"Feedback (turn {record['turn']}, after step {record['after_step']}): "
        f"{record['passed']}/{record['total']} tests passed "
        f"(score {100 * float(record['psr']):.0f}%)"
        + (", all tests pass" if record["success"] else "")
    ]
    if record.get("error"):
        lines.append(f"The evaluation failed: {record['error']}")
    for failed in record.get("failing", []):
        message = f": {failed['message']}" if failed.get("message") else ""
        lines.append(f"- FAILED {failed['name']}{message}")
    lines.append(f"Feedback turns left: {left}.")
    return "\n".join(lines)


@dataclass
class FeedbackTurns:
    """An episode's feedback budget and the turns taken (see the module docstring)."""

    budget: int = 0
    turns: list[dict[str, Any]] = field(default_factory=list)

    @property
    def used(self) -> int:
        return len(self.turns)

    @property
    def left(self) -> int:
        return max(0, self.budget - self.used)

    def refusal(self) -> FeedbackRefused:
        """Why a mid-episode evaluation is refused now, naming the budget."""
        if self.budget <= 0:
            return FeedbackRefused(
                "mid-episode evaluation refused: this episode's feedback budget is 0 turns "
                "(the protocol's feedback_turns; start the episode with feedback_turns N, or "
                "end it with 'done' and then evaluate)"
            )
        return FeedbackRefused(
            f"mid-episode evaluation refused: the feedback budget of {self.budget} turn(s) is "
            f"used ({self.used} of {self.budget}); end the episode with 'done' and then evaluate"
        )

    def as_step(self) -> FeedbackRefused:
        """Why a `request_feedback` sent as a step is refused: no turn is left, or turns are
        asked for by evaluating the running episode, not by a step."""
        if self.left <= 0:
            return self.refusal()
        return FeedbackRefused(
            f"{FEEDBACK_API} is not a step here: evaluate the running episode "
            f"(POST /episodes/{{id}}/evaluate) for one of its {self.left} feedback turn(s) left"
        )

    async def take(
        self, evaluate: Callable[[], Awaitable[EvalResult]], after_step: int
    ) -> tuple[EvalResult, dict[str, Any]]:
        """Evaluate once as the next turn and record it; FeedbackRefused when none is left."""
        if self.left <= 0:
            raise self.refusal()
        at = datetime.now(UTC)
        t0 = time.perf_counter()
        result = await evaluate()
        record = turn_record(result, self.used + 1, after_step, at, time.perf_counter() - t0)
        self.turns.append(record)
        return result, record


async def feedback_turn(agent: Any, episode: Any, clock: Any) -> dict[str, Any]:
    """One feedback turn `agent` asked for on `episode` (an Episode, whose `request_feedback`
    evaluates and records it); the agent hears the record and its text (`evaluated`, when it
    has one). The loops of `studio run` and of the window's live runs call it."""
    _result, record = await episode.request_feedback(clock=clock)
    log.info("%s: feedback turn %d: %d/%d tests", agent.name, record["turn"], record["passed"],
             record["total"])  # fmt: skip
    hear = getattr(agent, "evaluated", None)
    if callable(hear):
        hear(record, feedback_text(record, episode.feedback_turns.left))
    return record

"""An oracle episode that gives one answer and then says done: the patch, text and
understanding modes' oracles.

A subclass sets `answer` (the action that answers the task) or, when it has none, `reason`
(why). `act` gives the answer once, then `done`; with no answer it says `failed` with the
reason. An answer the environment refused (`feedback`) ends the episode `failed` with the
refusal: the oracle's answer is the task's own, so a refusal is a finding, not something to
try again.
"""

from __future__ import annotations

from typing import Any

__all__ = ["OneAnswerOracle"]

Action = dict[str, Any]


class OneAnswerOracle:
    """One answer, then done. `told` is said with the answer, `done` with the done action,
    and `what` names the answer in a refusal ("The patch was refused: ...")."""

    def __init__(self, told: str, done: str, what: str = "The answer") -> None:
        self.answer: Action | None = None
        self.reason = ""
        self.sent = False
        self.refused: str | None = None
        self._told, self._done, self._what = told, done, what

    def feedback(self, error: str) -> None:
        """The environment refused the answer: the next `act` says failed, with `error`."""
        self.refused = error

    def act(self) -> tuple[Action, str]:
        """The answer once, then done; failed when there is none or it was refused."""
        if self.refused is not None:
            return {"api": "failed", "args": {}}, f"{self._what} was refused: {self.refused}"
        if self.answer is None:
            return {"api": "failed", "args": {}}, f"The oracle cannot act: {self.reason}."
        if not self.sent:
            self.sent = True
            return self.answer, self._told
        return {"api": "done", "args": {}}, self._done

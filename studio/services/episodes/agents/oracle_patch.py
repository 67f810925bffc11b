"""The oracle in patch mode: it answers with the task's minimal fix, then says done (and in
understanding mode with the bug record's triggers and mechanism: `UnderstandOracle`).

The fix is `core.gold_fix.gold_fix` of the task folder: a forged task's inverse patch (from its
bug record), else the minimal patch from its initial to its golden project. A task for which
there is none (no golden project, or a change no patch of atomic edits makes) gets `failed`
with the reason, as does a patch the environment refused.
"""

from __future__ import annotations

from typing import Any

from studio.models.errors import StudioError
from studio.models.forge import BUG_FILE, BugRecord
from studio.services.core.gold_fix import gold_fix
from studio.services.core.store import TaskFolder

__all__ = ["PatchOracle", "UnderstandOracle"]

Action = dict[str, Any]


class PatchOracle:
    """One patch-mode episode of the oracle: the gold fix once, then done."""

    def __init__(self, task: TaskFolder) -> None:
        self.reason = ""
        self.edits: list[dict[str, Any]] | None = None
        try:
            fix = gold_fix(task.folder)
        except (StudioError, OSError, ValueError, KeyError) as exc:
            fix, self.reason = None, f"no minimal fix could be read: {exc}"
        if fix is None and not self.reason:
            self.reason = "the task has no minimal fix in atomic edits (no bug record, and no "
            self.reason += "patch of atomic edits turns its initial project into its golden one)"
        if fix is not None:
            self.edits = [edit.model_dump() for edit in fix]
        self.sent = False
        self.refused: str | None = None

    def feedback(self, error: str) -> None:
        self.refused = error

    def act(self) -> tuple[Action, str]:
        if self.refused is not None:
            return {"api": "failed", "args": {}}, f"The patch was refused: {self.refused}"
        if self.edits is None:
            return {"api": "failed", "args": {}}, f"The oracle cannot act: {self.reason}."
        if not self.sent:
            self.sent = True
            return (
                {"api": "apply_patch", "args": {"edits": self.edits}},
                "Apply the task's minimal fix.",
            )
        return {"api": "done", "args": {}}, "The minimal fix is applied."


class UnderstandOracle:
    """One understanding-mode episode of the oracle: the bug record's triggers and mechanism,
    then done; failed for a task without a bug record."""

    def __init__(self, task: TaskFolder) -> None:
        self.answer: dict[str, Any] | None = None
        self.reason = ""
        try:
            record = BugRecord.model_validate_json((task.folder / BUG_FILE).read_text("utf-8"))
        except (OSError, ValueError) as exc:
            self.reason = f"no bug record to answer from ({exc.__class__.__name__})"
        else:
            self.answer = {"triggers": record.report.triggers, "mechanism": record.mechanism}
        self.sent = False

    def act(self) -> tuple[Action, str]:
        if self.answer is None:
            return {"api": "failed", "args": {}}, f"The oracle cannot act: {self.reason}."
        if not self.sent:
            self.sent = True
            return {"api": "explain_bug", "args": self.answer}, "Name what the bug record says."
        return {"api": "done", "args": {}}, "The bug is explained."

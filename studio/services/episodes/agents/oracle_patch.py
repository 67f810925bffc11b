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
from studio.services.episodes.agents.oracle_answer import OneAnswerOracle

__all__ = ["PatchOracle", "UnderstandOracle"]


class PatchOracle(OneAnswerOracle):
    """One patch-mode episode of the oracle: the gold fix once, then done."""

    def __init__(self, task: TaskFolder) -> None:
        super().__init__(
            "Apply the task's minimal fix.", "The minimal fix is applied.", "The patch"
        )
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
            self.answer = {"api": "apply_patch", "args": {"edits": self.edits}}


class UnderstandOracle(OneAnswerOracle):
    """One understanding-mode episode of the oracle: the bug record's triggers and mechanism,
    then done; failed for a task without a bug record."""

    def __init__(self, task: TaskFolder) -> None:
        super().__init__("Name what the bug record says.", "The bug is explained.")
        try:
            record = BugRecord.model_validate_json((task.folder / BUG_FILE).read_text("utf-8"))
        except (OSError, ValueError) as exc:
            self.reason = f"no bug record to answer from ({exc.__class__.__name__})"
        else:
            answer = {"triggers": record.report.triggers, "mechanism": record.mechanism}
            self.answer = {"api": "explain_bug", "args": answer}

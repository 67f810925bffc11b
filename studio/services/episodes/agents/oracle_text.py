"""The oracle in text mode: it answers with the golden program's text, then says done.

The answer is the golden project's whole text as `studio blocks text` writes it
(`core.blocktext.project_text`): every target of the golden under its marker, so that building
it into the editor's program gives every target the golden's scripts. A task without a golden
project gets `failed` with the reason, as does an answer the environment refused (the refusal
is kept: a golden whose text does not build is a finding about the writer or the reader).
"""

from __future__ import annotations

from studio.models.errors import StudioError
from studio.services.core.blocktext.project_text import project_text
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import TaskFolder
from studio.services.episodes.agents.oracle_answer import OneAnswerOracle

__all__ = ["TextOracle", "golden_text"]


def golden_text(task: TaskFolder) -> str | None:
    """The golden project's whole text (None: the task has no golden project)."""
    path = task.golden_path
    if path is None:
        return None
    return project_text(load_sb3(path)[1], source=str(path))


class TextOracle(OneAnswerOracle):
    """One text-mode episode of the oracle: the golden's text once, then done."""

    def __init__(self, task: TaskFolder) -> None:
        super().__init__(
            "Write the golden program as text.", "The golden program's text is applied."
        )
        self.text: str | None = None
        try:
            self.text = golden_text(task)
        except (StudioError, OSError, ValueError, KeyError) as exc:
            self.reason = f"the golden program's text could not be written: {exc}"
        if self.text is None and not self.reason:
            self.reason = "the task has no golden project"
        if self.text is not None:
            self.answer = {"api": "apply_text", "args": {"text": self.text}}

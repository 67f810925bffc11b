"""The task open for authoring, Qt-free: what every panel of the window reads about it.

One `OpenTask` per window. The authoring controller (studio.views.authoring.controller) owns it
and is its only writer: it sets `session` when a task opens or is closed, `editor_dirty` when the
editor reports that the project it shows changed (or was loaded or saved). The other panels (the
checks, the library commands, the proposal of tests, the memory of the last task, the main
window) read it instead of reaching into the controller; they act through the controller's
commands (save, open, close...).

- `session`: the open task's `TaskSession` (its documents, the saved script), or None.
- `entry`: the open task's folder as last read (`TaskFolder`), or None; `holds(entry)` says
  whether `entry` is the open task (the same folder).
- `read_only`: the open task is approved (review.is_read_only): nothing may change it.
- `shown`: the task's document the editor shows ("initial" or "golden"); "" while none of them
  is (switching, a mutant or a live run shown, or no task open).
- `editor_dirty`: the shown project changed in the editor since it was loaded or saved.
- `dirty()`: which parts hold unsaved work, by name: each document ("initial", "golden"; the
  shown one also when `editor_dirty`), "script" (the script editor's text differs from the
  saved script) and "form" (the task form was edited); {} with no task open.
- `has_unsaved()`: any part of `dirty()` holds unsaved work.
- `script_for(entry)`: the script editor's text when `entry` is the open task (an evaluation
  runs what the author sees, saved or not), else None (the task's own file is run).

The script's text and the form's edited flag belong to widgets: they are read, when asked,
through the two callables given at construction (`script_text`, `form_modified`).
"""

from __future__ import annotations

from collections.abc import Callable

from studio.services.authoring import review
from studio.services.authoring.task_session import TaskSession
from studio.services.core.store import TaskFolder


class OpenTask:
    """The open task's state (see the module docstring); written by the authoring controller."""

    def __init__(self, script_text: Callable[[], str], form_modified: Callable[[], bool]) -> None:
        self._script_text = script_text
        self._form_modified = form_modified
        self.session: TaskSession | None = None
        self.editor_dirty = False

    @property
    def entry(self) -> TaskFolder | None:
        return self.session.entry if self.session is not None else None

    @property
    def read_only(self) -> bool:
        return self.session is not None and review.is_read_only(self.session.task)

    @property
    def shown(self) -> str:
        return self.session.active if self.session is not None else ""

    def holds(self, entry: TaskFolder) -> bool:
        """`entry` is the open task (the same folder)."""
        return self.session is not None and self.session.entry.folder == entry.folder

    def dirty(self) -> dict[str, bool]:
        """Which parts hold unsaved work: initial, golden, script, form ({} with none open)."""
        if self.session is None:
            return {}
        out = {n: d.dirty for n, d in self.session.docs.items()}
        active = self.session.active  # '' while switching or showing a mutant
        if active:
            out[active] = out[active] or self.editor_dirty
        out["script"] = self._script_text() != self.session.script_saved
        out["form"] = self._form_modified()
        return out

    def has_unsaved(self) -> bool:
        return any(self.dirty().values())

    def script_for(self, entry: TaskFolder) -> str | None:
        """The script editor's text when `entry` is the open task, else None."""
        return self._script_text() if self.holds(entry) else None


__all__ = ["OpenTask"]

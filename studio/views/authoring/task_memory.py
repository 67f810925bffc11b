"""What follows the open task outside its panes: the commands that need one (Save, Revert,
Check, Submit) are enabled only while a task is open, and the task opened last (with the
library it came from) is remembered, so that the next start opens it again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtGui import QAction

from studio.app.open_task import OpenTask
from studio.services.core.store import TaskFolder
from studio.views.widgets.settings import open_settings


class _Commands(Protocol):
    save: QAction
    revert: QAction
    check: QAction
    submit: QAction


class _Authoring(Protocol):
    task_opened: SignalInstance
    task_closed: SignalInstance

    @property
    def current(self) -> OpenTask: ...


def follow(
    commands: _Commands, authoring: _Authoring, library: Callable[[], Path] | None = None
) -> None:
    """Keep `commands` enabled only while `authoring` has a task open; remember each task
    opened (as one of the `library()` shown then, when given) for the next start."""

    def update() -> None:
        has_task = authoring.current.entry is not None
        for action in (commands.save, commands.revert, commands.check, commands.submit):
            action.setEnabled(has_task)

    def opened(entry: TaskFolder) -> None:
        update()
        remember(entry, library() if library is not None else None)

    authoring.task_opened.connect(opened)
    authoring.task_closed.connect(update)
    update()


def remember(entry: TaskFolder, library: Path | None) -> None:
    settings = open_settings()
    settings.setValue("session/last_task", entry.task.id)
    settings.setValue("session/last_library", str(Path(library).resolve()) if library else "")
    settings.sync()


def last_task(library: Path) -> str | None:
    """The id of the task opened last in `library` (None if that was another library)."""
    settings = open_settings()
    task_id = str(settings.value("session/last_task", "") or "")
    where = str(settings.value("session/last_library", "") or "")
    if not task_id or where != str(Path(library).resolve()):
        return None
    return task_id


class _Window(Protocol):
    """What `reopen_last` uses of the studio window."""

    library_root: Path
    library: Any  # LibraryPanel: select_task(task_id) -> bool
    editor: Any  # EditorView: wait_ready()

    async def wait_library(self) -> Any: ...

    async def open_task_project(self, which: str) -> bool: ...


async def reopen_last(window: _Window) -> bool:
    """Open the task opened last in the window's library again (its initial project), if it
    is still there; False when there is none."""
    task_id = last_task(window.library_root)
    if task_id is None:
        return False
    scan = await window.wait_library()
    if scan is None or not window.library.select_task(task_id):
        return False
    await window.editor.wait_ready()
    return await window.open_task_project("initial")

"""Library operations behind dialogs: new task from a template, duplicate, rename, delete
(to the library's trash, recoverable), restore, open a task folder from anywhere.

The New task dialog (studio.views.library.new_task_dialog) creates the task itself and stays open on
an error. Every question goes through an overridable `ask_*` method so tests (and scripts)
can answer without a dialog; dialogs are opened with `open()` and awaited, never with a
nested `exec()`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QInputDialog,
    QMessageBox,
    QWidget,
)

from studio.models.errors import StudioError
from studio.services.authoring import library_ops, trash
from studio.services.core.store import TaskFolder
from studio.views.library.new_task_dialog import NewTaskDialog, NewTaskRequest
from studio.views.widgets.dialogs import ask_buttons, finished


class LibraryController(QObject):
    """Runs the library panel's requests; says what changed through signals."""

    task_created = Signal(object)  # TaskFolder
    library_changed = Signal(str)  # the id of the task to select afterwards ('' for none)
    message = Signal(str)

    def __init__(self, parent: QWidget, root: Callable[[], Path]) -> None:
        super().__init__(parent)
        self.window = parent
        self.root = root

    # -- questions (overridable) -------------------------------------------------------------

    async def ask_new_task(self) -> NewTaskRequest | TaskFolder | None:
        """The New task dialog, which creates the task itself (and stays open on an error);
        a test may answer with a request instead, which new_task then creates."""
        dialog = NewTaskDialog(self.window, self._create)
        accepted = await finished(dialog) == QDialog.DialogCode.Accepted.value
        return dialog.created if accepted else None

    async def _create(self, request: NewTaskRequest) -> TaskFolder | str:
        try:
            return await asyncio.to_thread(self._create_now, request)
        except (OSError, StudioError) as exc:
            return str(exc)

    def _create_now(self, request: NewTaskRequest) -> TaskFolder:
        return library_ops.create_task(
            self.root(),
            request.task_id,
            request.category,
            request.instruction,
            author=request.author,
            from_project=request.from_project,
        )

    async def ask_text(self, title: str, label: str, value: str) -> str | None:
        dialog = QInputDialog(self.window)
        dialog.setWindowTitle(title)
        dialog.setLabelText(label)
        dialog.setTextValue(value)
        return dialog.textValue().strip() if await finished(dialog) else None

    async def ask_confirm(self, title: str, text: str) -> bool:
        yes, no = QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.No
        return await ask_buttons(self.window, title, text, [yes, no], no) is yes

    async def ask_choice(self, title: str, label: str, items: list[str]) -> str | None:
        dialog = QInputDialog(self.window)
        dialog.setWindowTitle(title)
        dialog.setLabelText(label)
        dialog.setComboBoxItems(items)
        return dialog.textValue() if await finished(dialog) else None

    async def ask_folder(self) -> Path | None:
        dialog = QFileDialog(self.window, "Open a task folder", str(self.root()))
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        if not await finished(dialog):
            return None
        chosen = dialog.selectedFiles()
        return Path(chosen[0]) if chosen else None

    # -- operations ----------------------------------------------------------------------------

    async def new_task(self) -> TaskFolder | None:
        asked = await self.ask_new_task()
        if isinstance(asked, TaskFolder):  # the dialog created it
            self._announce(asked, "Created")
            return asked
        if asked is None:
            return None
        return await self._run(lambda: self._create_now(asked), "Created")

    async def duplicate(self, entry: TaskFolder) -> TaskFolder | None:
        new_id = await self.ask_text("Duplicate task", "Id of the copy", f"{entry.task.id}_copy")
        if not new_id:
            return None
        return await self._run(lambda: library_ops.duplicate_task(entry, new_id), "Duplicated")

    async def rename(self, entry: TaskFolder) -> TaskFolder | None:
        new_id = await self.ask_text("Rename task", "New id", entry.task.id)
        if not new_id or new_id == entry.task.id:
            return None
        return await self._run(lambda: library_ops.rename_task(entry, new_id), "Renamed to")

    async def delete(self, entry: TaskFolder) -> bool:
        question = (
            f"Delete {entry.task.id}? The folder moves to the library's trash "
            f"({self.root() / trash.TRASH_DIR}); Restore brings it back."
        )
        if not await self.ask_confirm("Delete task", question):
            return False
        try:
            where = await asyncio.to_thread(trash.delete_task, entry, self.root())
        except (OSError, StudioError) as exc:
            self.message.emit(f"Could not delete {entry.folder}: {exc}")
            return False
        self.message.emit(f"Deleted {entry.task.id} (kept in {where})")
        self.library_changed.emit("")
        return True

    async def restore(self) -> TaskFolder | None:
        deleted = await asyncio.to_thread(trash.list_trash, self.root())
        if not deleted:
            self.message.emit("The trash of this library is empty.")
            return None
        names = [e.folder.name for e in deleted]
        choice = await self.ask_choice("Restore a deleted task", "Deleted task", names)
        if choice not in names:
            return None
        folder = deleted[names.index(choice)].folder
        return await self._run(lambda: trash.restore_task(folder, self.root()), "Restored")

    async def open_folder(self) -> TaskFolder | None:
        path = await self.ask_folder()
        if path is None:
            return None
        try:
            entry = await asyncio.to_thread(library_ops.open_task_folder, path)
        except StudioError as exc:
            self.message.emit(f"Not a task folder: {exc}")
            return None
        self.task_created.emit(entry)
        return entry

    async def _run(self, work: Callable[[], TaskFolder], verb: str) -> TaskFolder | None:
        try:
            entry = await asyncio.to_thread(work)
        except (OSError, StudioError) as exc:
            self.message.emit(f"{verb.split()[0]} failed: {exc}")
            return None
        self._announce(entry, verb)
        return entry

    def _announce(self, entry: TaskFolder, verb: str) -> None:
        self.message.emit(f"{verb} {entry.task.id} in {entry.folder}")
        self.library_changed.emit(entry.task.id)
        self.task_created.emit(entry)


__all__ = ["LibraryController", "NewTaskDialog", "NewTaskRequest"]

"""The window's library commands: new, open folder, duplicate, rename, delete, restore.

Connects the Library menu and the library panel's context menu to the LibraryController, and
keeps the task being authored consistent when its folder is renamed or deleted.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from studio.services.store import TaskFolder

if TYPE_CHECKING:
    from studio.views.main_window import MainWindow


class LibraryWiring:
    """Wires library requests of one main window."""

    def __init__(self, window: MainWindow) -> None:
        self.w = window
        c, ops, spawn = window.commands, window.library_ops, window.background.spawn
        c.new_task.triggered.connect(lambda: spawn(ops.new_task()))
        c.open_task_folder.triggered.connect(lambda: spawn(ops.open_folder()))
        c.restore_task.triggered.connect(lambda: spawn(ops.restore()))
        c.duplicate_task.triggered.connect(lambda: self._with_selected(ops.duplicate))
        c.rename_task.triggered.connect(lambda: self._with_selected(self.rename))
        c.delete_task.triggered.connect(lambda: self._with_selected(self.delete))
        panel = window.library
        panel.new_task_requested.connect(c.new_task.trigger)
        panel.open_folder_requested.connect(c.open_task_folder.trigger)
        panel.restore_requested.connect(c.restore_task.trigger)
        panel.duplicate_requested.connect(lambda e: spawn(ops.duplicate(e)))
        panel.rename_requested.connect(lambda e: spawn(self.rename(e)))
        panel.delete_requested.connect(lambda e: spawn(self.delete(e)))
        ops.library_changed.connect(self._on_library_changed)
        ops.task_created.connect(self._on_task_created)

    def _is_open(self, entry: TaskFolder) -> bool:
        current = self.w.authoring.entry
        return current is not None and current.folder == entry.folder

    def _with_selected(self, work: Callable[[TaskFolder], Coroutine[Any, Any, Any]]) -> None:
        entry = self.w.library.current_entry()
        if entry is None:
            self.w.statusBar().showMessage("Select a task in the library first.", 5000)
            return
        self.w.background.spawn(work(entry))

    async def rename(self, entry: TaskFolder) -> None:
        if self._is_open(entry):
            if not await self.w.authoring.confirm_discard("rename it"):
                return
            self.w.authoring.close_task()
        await self.w.library_ops.rename(entry)

    async def delete(self, entry: TaskFolder) -> None:
        open_here = self._is_open(entry)
        if await self.w.library_ops.delete(entry) and open_here:
            self.w.authoring.close_task()

    def _on_library_changed(self, select_id: str) -> None:
        async def reload() -> None:
            await self.w.load_library(self.w.library_root)
            if select_id:
                self.w.library.select_task(select_id)

        self.w.background.spawn(reload())

    def _on_task_created(self, entry: TaskFolder) -> None:
        self.w.details.show_task(entry)
        self.w.background.spawn(self.w.authoring.open_task(entry, "initial"))

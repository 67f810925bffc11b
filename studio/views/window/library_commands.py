"""The window's library commands: new, open folder, duplicate, rename, delete, restore, and
the set's statistics (studio.views.library.stats_dialog).

Connects the Library menu and the library panel's context menu to the LibraryController, and
keeps the task being authored consistent when its folder is renamed or deleted.

The task `AuthoringController` has open is the one source of truth for "the open task": the
document bar, the Review and Checks panels and Save follow it. When a task cannot be opened
(a corrupt initial or golden .sb3) the library selection goes back to the task still open, so
the tree, the details and the editor never show two different tasks; with no task open, the
commands that act on one (Save, Revert, Check, Submit, Show diff) are disabled.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

from studio.services.core.store import TaskFolder
from studio.views.authoring.controller import AuthoringController
from studio.views.library.controller import LibraryController
from studio.views.library.panel import LibraryPanel
from studio.views.library.stats_dialog import open_set_stats
from studio.views.library.task_details import TaskDetails
from studio.views.shell.studio_shell import StudioShell


class LibraryWiring:
    """Wires the library requests of the shell's commands and of `panel` to `ops`, and keeps
    the task `authoring` has open in step; `load_library(root)` reads the library again."""

    def __init__(
        self,
        shell: StudioShell,
        panel: LibraryPanel,
        ops: LibraryController,
        authoring: AuthoringController,
        details: TaskDetails,
        load_library: Callable[[Path], Awaitable[object]],
    ) -> None:
        self.shell, self.panel, self.ops = shell, panel, ops
        self.authoring, self.details, self._load_library = authoring, details, load_library
        self.current = authoring.current  # the open task (read, never written, here)
        c, spawn = shell.commands, shell.spawn
        c.new_task.triggered.connect(lambda: spawn(ops.new_task()))
        c.open_task_folder.triggered.connect(lambda: spawn(ops.open_folder()))
        c.restore_task.triggered.connect(lambda: spawn(ops.restore()))
        c.set_statistics.triggered.connect(
            lambda: spawn(open_set_stats(shell.parent, shell.library))
        )
        c.duplicate_task.triggered.connect(lambda: self._with_selected(ops.duplicate))
        c.rename_task.triggered.connect(lambda: self._with_selected(self.rename))
        c.delete_task.triggered.connect(lambda: self._with_selected(self.delete))
        panel.new_task_requested.connect(c.new_task.trigger)
        panel.open_folder_requested.connect(c.open_task_folder.trigger)
        panel.restore_requested.connect(c.restore_task.trigger)
        panel.duplicate_requested.connect(lambda e: spawn(ops.duplicate(e)))
        panel.rename_requested.connect(lambda e: spawn(self.rename(e)))
        panel.delete_requested.connect(lambda e: spawn(self.delete(e)))
        ops.library_changed.connect(self._on_library_changed)
        ops.task_created.connect(self._on_task_created)
        authoring.task_opened.connect(lambda _e: self._follow_open_task())
        authoring.task_closed.connect(self._follow_open_task)
        authoring.open_failed.connect(self._on_open_failed)
        self._follow_open_task()

    def _follow_open_task(self) -> None:
        for action in self.shell.commands.authoring_actions:
            action.setEnabled(self.current.entry is not None)

    def _on_open_failed(self, failed: TaskFolder, still_open: TaskFolder | None) -> None:
        if still_open is not None:
            self.panel.select_task(still_open.task.id)
        self._follow_open_task()
        kept = f"; {still_open.task.id} stays open" if still_open else "; no task is open"
        self.shell.status(f"{failed.task.id} could not be opened{kept}", 15000)

    def _is_open(self, entry: TaskFolder) -> bool:
        return self.current.holds(entry)

    def _with_selected(self, work: Callable[[TaskFolder], Coroutine[Any, Any, Any]]) -> None:
        entry = self.panel.current_entry()
        if entry is None:
            self.shell.status("Select a task in the library first.", 5000)
            return
        self.shell.spawn(work(entry))

    async def rename(self, entry: TaskFolder) -> None:
        if self._is_open(entry):
            if not await self.authoring.confirm_discard("rename it"):
                return
            self.authoring.close_task()
        await self.ops.rename(entry)

    async def delete(self, entry: TaskFolder) -> None:
        open_here = self._is_open(entry)
        if await self.ops.delete(entry) and open_here:
            self.authoring.close_task()

    def _on_library_changed(self, select_id: str) -> None:
        async def reload() -> None:
            await self._load_library(self.shell.library.root())
            if select_id:
                self.panel.select_task(select_id)

        self.shell.spawn(reload())

    def _on_task_created(self, entry: TaskFolder) -> None:
        self.details.show_task(entry)
        self.shell.spawn(self.authoring.open_task(entry, "initial"))

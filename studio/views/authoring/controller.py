"""Authoring one task: its projects as documents in the editor, its form, its script.

The controller keeps the open task's state in `current`, a Qt-free `OpenTask`
(studio.app.open_task: its `TaskSession`, the dirty flags, read-only): this controller is its
only writer, the other panels read it. The editor shows one of the task's two projects;
switching reads the shown one back from the editor first, so nothing typed or dragged there is
lost. Save writes everything atomically; unsaved work also goes to the
recovery folder every few seconds, and a session that ended without closing properly offers it
back on the next start. The script is saved only by Save: an evaluation (F5, Ctrl+Enter) runs
the text the script editor holds without writing it, so the unsaved mark stays; Revert puts
back the script and the shown project; the script's undo history lasts while the task is open,
across saves.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from studio.app.open_task import OpenTask
from studio.models.errors import StudioError
from studio.models.task import Task
from studio.services.authoring.metadata import apply_metadata
from studio.services.authoring.recovery import RecoveryStore
from studio.services.authoring.task_session import TaskSession
from studio.services.core import paths
from studio.services.core.errors import TaskFileError
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import TaskFolder, load_task
from studio.views.authoring import recovery_work
from studio.views.authoring.document_bar import DocumentBar
from studio.views.authoring.script_editor import ScriptEditor
from studio.views.authoring.task_form import TaskForm
from studio.views.editor.page import EditorError
from studio.views.editor.view import EditorView
from studio.views.widgets.dialogs import ask_buttons

log = logging.getLogger(__name__)
AUTOSAVE_MS = 15_000
DIRTY_POLL_MS = 1_000
Answer = str  # "save" | "discard" | "cancel"


class AuthoringController(QObject):
    """Owns the open task's session and keeps the editor, form, script and bar in step."""

    task_opened = Signal(object)  # TaskFolder
    task_saved = Signal(object)  # TaskFolder
    # (the task that could not be opened, the task still open or None): the previous task
    # stays fully open (editor, bar, panels, Save) or nothing is open
    open_failed = Signal(object, object)
    task_closed = Signal()
    message = Signal(str)

    def __init__(
        self,
        parent: QWidget,
        editor: EditorView,
        bar: DocumentBar,
        form: TaskForm,
        script: ScriptEditor,
        recovery: RecoveryStore | None = None,
    ) -> None:
        super().__init__(parent)
        self.window = parent
        self.editor, self.bar, self.form, self.script = editor, bar, form, script
        self.current = OpenTask(script.text, lambda: form.modified)
        self.recovery = recovery or RecoveryStore(paths.data_dir() / "recovery")
        self._busy = asyncio.Lock()
        self.ask_unsaved: Callable[[str], Awaitable[Answer]] = self._ask_unsaved
        bar.document_requested.connect(lambda n: self._spawn(self.switch_document(n)))
        bar.save_requested.connect(lambda: self._spawn(self.save()))
        bar.revert_requested.connect(lambda: self._spawn(self.revert()))
        bar.copy_requested.connect(lambda s, t: self._spawn(self.copy_document(s, t)))
        form.edited.connect(self.refresh_bar)
        script.modified_changed.connect(lambda _m: self.refresh_bar())
        self._poll = QTimer(self)
        self._poll.setInterval(DIRTY_POLL_MS)
        self._poll.timeout.connect(lambda: self._spawn(self._poll_editor()))
        self._autosave = QTimer(self)
        self._autosave.setInterval(AUTOSAVE_MS)
        self._autosave.timeout.connect(lambda: self._spawn(self.autosave()))
        self.spawn: Callable[[Coroutine[Any, Any, Any]], object] = asyncio.ensure_future

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        self.spawn(coro)

    def close_task(self) -> None:
        """Forget the open task (after it was renamed or deleted); the editor keeps showing it."""
        if self.current.session is not None:
            self.recovery.discard(self.current.session.entry.task.id)
        self.current.session = None
        self.current.editor_dirty = False
        self._poll.stop()
        self._autosave.stop()
        self._show_no_task()

    def _show_no_task(self) -> None:
        self.bar.set_enabled(False)
        self.bar.title.setText("No task open")
        self.task_closed.emit()

    def stop(self) -> None:
        """The window is closing with nothing left unsaved (or the user discarded it)."""
        self._poll.stop()
        self._autosave.stop()
        if not self.current.has_unsaved():
            self.recovery.mark_clean_exit()

    def refresh_bar(self) -> None:
        if self.current.session is None:
            return
        entry = self.current.session.entry
        marks = self.current.dirty()
        state = self.current.session.task.review.state.value.replace("_", " ")
        unsaved = " •" if marks.get("script") or marks.get("form") else ""
        title = f"{entry.task.id} ({state}){unsaved}"
        self.bar.show_state(title, self.current.session.active, marks, self.current.read_only)

    # -- opening -------------------------------------------------------------------------------

    async def open_task(self, entry: TaskFolder, document: str = "initial") -> bool:
        """Make `entry` the task being authored and show one of its projects."""
        if self.current.holds(entry):
            return await self.switch_document(document)
        if not await self.confirm_discard(f"open {entry.task.id}"):
            return False
        try:
            session = await asyncio.to_thread(TaskSession.open, entry)
        except OSError as exc:
            self.message.emit(f"{entry.folder}: cannot be read ({exc})")
            return False
        previous, self.current.session = self.current.session, session
        session.active = ""  # nothing shown yet
        if not await self.switch_document(document):
            # The editor kept what it showed: so do the bar, the panels and Save.
            self.current.session = previous
            if previous is None:
                self._show_no_task()
            self.refresh_bar()
            self.open_failed.emit(entry, previous.entry if previous else None)
            return False
        self.form.set_task(entry.task)
        self.script.open_document(str(entry.folder), session.script_saved)
        self._apply_read_only()
        self._poll.start()
        self._autosave.start()
        self.refresh_bar()
        self.task_opened.emit(session.entry)
        return True

    async def switch_document(self, name: str) -> bool:
        """Show document `name`; the one shown now is read back into the session first."""
        session = self.current.session
        if session is None:
            return False
        doc = session.docs[name]
        await self._poll_editor()  # an edit made since the last poll must not be lost
        async with self._busy:
            if session.active and session.active != name and self.current.editor_dirty:
                session.stash(session.active, await self.editor.export_project())
            content = doc.content()
            if content is None:
                self.message.emit(
                    f"{session.entry.task.id} has no {name} project yet: use "
                    f"'{name.capitalize()} ← …' to make it from the other one"
                )
                self.refresh_bar()
                return False
            title = f"{session.entry.task.id} ({name})"
            try:
                await self.editor.load_project(content, str(doc.path), title)
            except EditorError:
                self.refresh_bar()
                return False  # the editor says which file and why, and keeps its project
            session.active = name
            self.current.editor_dirty = False
        self.refresh_bar()
        return True

    # -- saving --------------------------------------------------------------------------------

    async def save(self) -> TaskFolder | None:
        """Write the task: the shown project, any unsaved other project, script and form."""
        session = self.current.session
        if session is None:
            return None
        if self.current.read_only:
            self.message.emit(f"{session.entry.task.id} is approved: reopen it to change it")
            return None
        await self._poll_editor()  # an edit made since the last poll is saved too
        async with self._busy:
            live = {}
            if session.active and self.current.editor_dirty:
                live[session.active] = await self.editor.export_project()
            task = self.form.apply_to(session.task)
            for name, data in live.items():
                session.stash(name, data)
            task = _with_metadata(task, session)
            try:
                entry = await asyncio.to_thread(session.save, task, self.script.text(), live)
            except (OSError, StudioError) as exc:
                self.message.emit(f"Could not save {session.entry.folder}: {exc}")
                return None
            await self._mark_editor_clean()
        self.form.mark_saved()
        self.script.mark_saved()
        self.recovery.discard(entry.task.id)
        self.refresh_bar()
        self.message.emit(f"Saved {entry.task.id} to {entry.folder}")
        self.task_saved.emit(entry)
        return entry

    def mark_script_error(self, line: int | None, message: str = "") -> None:
        """Mark the script line an evaluation error points at and show `message`; with no
        `line` and no `message`, clear the mark."""
        if line is None and not message:
            self.script.clear_error()
        else:
            self.script.set_error(line, message)

    async def revert(self) -> None:
        """Put back the script and the shown project as they are on disk (the script's
        revert is one edit of its own: Ctrl+Z in the script takes it back)."""
        session = self.current.session
        if session is None:
            return
        reverted = []
        if self.script.text() != session.script_saved:
            self.script.replace_all(session.script_saved)
            self.script.mark_saved()
            reverted.append("the script")
        if session.active:
            name = session.active
            session.revert(name)
            self.current.editor_dirty = False
            session.active = ""
            await self.switch_document(name)
            reverted.append(f"the {name} project")
        self.refresh_bar()
        if reverted:
            self.message.emit(f"Reverted {' and '.join(reverted)} to the saved files")

    async def copy_document(self, source: str, target: str) -> None:
        """Make `target` a copy of `source` (as shown in the editor if it is shown) and show it."""
        session = self.current.session
        if session is None:
            return
        data = None
        if session.active == source:
            data = await self.editor.export_project()
        try:
            session.copy(source, target, data)
        except StudioError as exc:
            self.message.emit(str(exc))
            return
        if session.active == target:
            session.active = ""
            self.current.editor_dirty = False
        await self.switch_document(target)
        self.message.emit(f"The {target} project is now a copy of the {source} one (unsaved)")

    async def update_task(self, change: Callable[[Task], Task]) -> TaskFolder | None:
        """Change the saved task.json alone (review steps, equivalent mutants)."""
        session = self.current.session
        if session is None:
            return None
        try:
            task = change(session.task)
            entry = await asyncio.to_thread(session.save_task_only, task)
        except (OSError, StudioError) as exc:
            self.message.emit(str(exc))
            return None
        self._apply_read_only()
        self.refresh_bar()
        self.task_saved.emit(entry)
        return entry

    async def show_foreign(self, data: bytes, name: str) -> bool:
        """Show a project that is not one of the task's documents (e.g. a mutant)."""
        session = self.current.session
        await self._poll_editor()
        async with self._busy:
            if session is not None and session.active and self.current.editor_dirty:
                session.stash(session.active, await self.editor.export_project())
            try:
                await self.editor.load_project(data, name, Path(name).stem)
            except EditorError:
                return False
            if session is not None:
                session.active = ""
            self.current.editor_dirty = False
        self.refresh_bar()
        self.message.emit(f"The editor shows {name}; it is not saved into the task")
        return True

    async def stash_shown(self) -> None:
        """Read the project the editor shows back into the open task's session when it changed
        there (the session's documents then hold every unsaved edit; nothing is written)."""
        session = self.current.session
        if session is not None and self.current.editor_dirty and session.active:
            session.stash(session.active, await self.editor.export_project())

    async def lend_editor(self, what: str) -> None:
        """The editor is about to show something else (a live run): keep unsaved work."""
        session = self.current.session
        await self._poll_editor()
        async with self._busy:
            if session is not None and session.active and self.current.editor_dirty:
                session.stash(session.active, await self.editor.export_project())
            if session is not None:
                session.active = ""
            self.current.editor_dirty = False
        self.refresh_bar()
        self.message.emit(f"The editor shows {what}; the task's documents are kept as they were")

    def replace_entry(self, entry: TaskFolder) -> None:
        """The task changed on disk through another path (e.g. marked equivalent)."""
        if self.current.session is not None and self.current.holds(entry):
            self.current.session.entry = entry
            self.refresh_bar()

    # -- unsaved work ----------------------------------------------------------------------------

    async def confirm_discard(self, what: str) -> bool:
        """Ask before unsaved work would be dropped: save it, discard it or stay."""
        if self.current.session is None or not await self.has_unsaved_now():
            return True
        task_id = self.current.session.entry.task.id
        answer = await self.ask_unsaved(f"{task_id} has unsaved changes. Save before you {what}?")
        if answer == "cancel":
            return False
        if answer == "save":
            return await self.save() is not None
        self.recovery.discard(self.current.session.entry.task.id)
        return True

    async def restore_drafts(self, entry: TaskFolder) -> int:
        """Open `entry` with its recovered unsaved work put back (unsaved); parts restored."""
        return await recovery_work.restore_drafts(self, entry)

    async def has_unsaved_now(self) -> bool:
        await self._poll_editor()
        return self.current.has_unsaved()

    async def _ask_unsaved(self, text: str) -> Answer:
        b = QMessageBox.StandardButton
        choice = await ask_buttons(
            self.window, "Unsaved changes", text, [b.Save, b.Discard, b.Cancel], b.Save
        )
        return {b.Save: "save", b.Discard: "discard"}.get(choice, "cancel") if choice else "cancel"

    async def autosave(self) -> int:
        """Copy unsaved work to the recovery folder; returns the number of parts written."""
        if self.current.session is None or not await self.has_unsaved_now():
            return 0
        return await recovery_work.autosave(self)

    async def _poll_editor(self) -> None:
        if not self.current.shown or not self.editor.is_ready:
            return
        try:
            dirty = bool(await self.editor.bridge_now("isDirty"))
        except EditorError:
            return
        if dirty != self.current.editor_dirty:
            self.current.editor_dirty = dirty
            self.refresh_bar()

    async def _mark_editor_clean(self) -> None:
        self.current.editor_dirty = False
        try:
            await self.editor.bridge_now("markClean")
        except EditorError as exc:
            log.warning("could not mark the editor clean: %s", exc)

    def _apply_read_only(self) -> None:
        read_only = self.current.read_only
        self.form.set_read_only(read_only)
        self.script.set_read_only(read_only)
        if read_only:
            self.editor.banner.show_info(
                "Approved: this task is read-only until a reviewer reopens it."
            )
        elif self.editor.banner.kind == "info":
            self.editor.banner.hide()


def _with_metadata(task: Task, session: TaskSession) -> Task:
    """Blocks changed and block types used, from the projects about to be saved."""
    initial = session.docs["initial"].content()
    golden = session.docs["golden"].content()
    if initial is None or golden is None:
        return task
    try:
        return apply_metadata(
            task,
            read_project_json(initial, session.docs["initial"].path),
            read_project_json(golden, session.docs["golden"].path),
        )
    except Exception as exc:  # metadata is a convenience: never block a save on it
        log.warning("metadata not updated: %s", exc)
        return task


def open_folder(path: Path) -> TaskFolder:
    """Load a task folder picked anywhere on disk; TaskFileError says why it is not a task."""
    return load_task(path)


__all__ = ["AuthoringController", "TaskFileError", "open_folder"]

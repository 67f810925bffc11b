"""Unsaved work kept in the recovery folder: written every few seconds while a task has
unsaved changes, offered back at the next start when a session ended without closing.

The functions act on an `Authoring` (the authoring controller,
studio.views.authoring.controller, which calls them: this module does not import it back) and
take the rest from the window's shell.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from PySide6.QtCore import SignalInstance

from studio.app.open_task import OpenTask
from studio.models.task import Task
from studio.services.authoring.recovery import RecoveryStore
from studio.services.core.store import TaskFolder
from studio.views.authoring.script_editor import ScriptEditor
from studio.views.authoring.task_form import TaskForm
from studio.views.editor.page import EditorError
from studio.views.editor.view import EditorView
from studio.views.shell.studio_shell import StudioShell

log = logging.getLogger(__name__)


class Authoring(Protocol):
    """What recovery needs of the authoring controller: the open task and its parts."""

    recovery: RecoveryStore
    current: OpenTask
    editor: EditorView
    form: TaskForm
    script: ScriptEditor

    @property
    def message(self) -> SignalInstance: ...

    def refresh_bar(self) -> None: ...

    async def open_task(self, entry: TaskFolder, document: str = "initial") -> bool: ...

    async def switch_document(self, name: str) -> bool: ...


async def offer_recovery(
    shell: StudioShell, ctrl: Authoring, ask: Callable[[str], Awaitable[bool]]
) -> int:
    """Mark this session running; after a crashed one, offer its drafts back (`ask` whether
    to restore them; the number of parts restored)."""
    recovery = ctrl.recovery
    crashed = await asyncio.to_thread(recovery.crashed_session)
    await asyncio.to_thread(recovery.mark_running)
    if not crashed:
        return 0
    await shell.library.scan()
    await shell.editor.wait_ready()
    ids = sorted({d.task_id for d in recovery.drafts()})
    entries = [e for e in map(shell.library.find, ids) if e is not None]
    if not entries:
        return 0
    names = ", ".join(e.task.id for e in entries)
    if not await ask(f"The studio did not close properly. Restore the unsaved work on {names}?"):
        await asyncio.to_thread(recovery.discard_all)
        return 0
    return await restore_drafts(ctrl, entries[0])


async def restore_drafts(ctrl: Authoring, entry: TaskFolder) -> int:
    """Open `entry` with the unsaved work kept for it put back as unsaved changes (nothing is
    written until Save). Returns the parts restored."""

    drafts = {d.kind: d for d in ctrl.recovery.drafts() if d.task_id == entry.task.id}
    if not drafts or not await ctrl.open_task(entry):
        return 0
    session = ctrl.current.session
    assert session is not None
    restored = 0
    for name in ("initial", "golden"):
        draft = drafts.get(f"{name}.sb3")
        if draft is not None:
            session.docs[name].pending = await asyncio.to_thread(draft.read)
            restored += 1
    if "evaluate.js" in drafts:
        text = (await asyncio.to_thread(drafts["evaluate.js"].read)).decode("utf-8")
        ctrl.script.set_text(text)
        restored += 1
    if "task.json" in drafts:
        try:
            task = Task.model_validate_json(await asyncio.to_thread(drafts["task.json"].read))
        except ValueError as exc:
            ctrl.message.emit(f"The recovered form of {entry.task.id} is unreadable: {exc}")
        else:
            ctrl.form.set_task(session.task)
            for field in ("instruction", "description", "author"):
                ctrl.form.set_value(field, str(getattr(task, field)))
            ctrl.form.set_value("category", task.category.value)
            restored += 1
    active = session.active or "initial"
    session.active = ""
    await ctrl.switch_document(active)
    ctrl.refresh_bar()
    return restored


async def autosave(ctrl: Authoring) -> int:
    """Write the open task's unsaved parts to the recovery folder; the number written."""

    session = ctrl.current.session
    assert session is not None
    tid = session.entry.task.id
    parts: dict[str, bytes] = {}
    if ctrl.current.editor_dirty and session.active:
        try:
            parts[f"{session.active}.sb3"] = await ctrl.editor.export_project()
        except EditorError as exc:
            log.warning("autosave: cannot read the editor: %s", exc)
    for name, doc in session.docs.items():
        if doc.dirty and doc.pending is not None and f"{name}.sb3" not in parts:
            parts[f"{name}.sb3"] = doc.pending
    if ctrl.script.text() != session.script_saved:
        parts["evaluate.js"] = ctrl.script.text().encode("utf-8")
    if ctrl.form.modified:
        task = ctrl.form.apply_to(session.task)
        parts["task.json"] = task.model_dump_json(indent=2).encode("utf-8")
    for kind, data in parts.items():
        await asyncio.to_thread(ctrl.recovery.save, tid, kind, data)
    return len(parts)

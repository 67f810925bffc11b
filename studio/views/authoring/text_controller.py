"""Drives the *Text* tab (text_pane.TextPane) against the embedded editor.

- **Following the editor.** While the tab is shown, the editor page is asked every second
  for its editing target and a count of its workspace's changes (resources/js/text-apply.js
  `state`); when either moved, the pane takes the target's text (`studio.app.text_authoring.
  pane_text` of the VM's serialization of the target), unless the author typed in the pane
  since it was last set: then the pane keeps the typed text and says the editor changed (or
  that it shows another target now: text is applied only to the target it was set from).
- **Apply.** The editor's project (`export_project`) and the pane's text make the plan
  (`text_authoring.plan_apply`, off the GUI thread): every line that cannot be placed is listed
  with its number and nothing is applied. Otherwise the page replaces the editing target's
  scripts in one Blockly event group (`apply`): the VM follows through its own workspace
  listener, one undo of the editor's own stack (Ctrl+Z in its code area, *Undo apply* here)
  takes the whole apply back, and the window's unsaved-work tracking sees the change as any edit.
  After it, the target the VM holds is compared with the plan (`applied_as_planned`), and the
  status line says what the text made (variables, lists, messages) and what it names but the
  editor lacks (costumes, sounds, sprites).
- Nothing is applied while the editor is lent to a live run or a session, nor to an approved
  (read-only) task.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from studio.app.text_authoring import TextApply, applied_as_planned, pane_text, plan_apply
from studio.models.errors import StudioError
from studio.services.core.blocktext.project_text import BlockTextError
from studio.services.runtime import page_scripts
from studio.views.authoring.text_pane import TextPane
from studio.views.editor.view import EditorView
from studio.views.live.page import QtEditorPage

__all__ = ["POLL_MS", "TextPaneController"]

POLL_MS = 1000


class TextPaneController(QObject):
    """Keeps the text pane and the editor in step (see the module doc)."""

    message = Signal(str)
    applied = Signal(int)  # scripts put into the editor

    def __init__(
        self,
        pane: TextPane,
        editor: EditorView,
        spawn: Callable[[Coroutine[Any, Any, Any]], object],
        blocked: Callable[[], str | None],
    ) -> None:
        """`blocked()`: why nothing may be applied now (a live run, a read-only task), or None."""
        super().__init__(pane)
        self.pane, self.editor, self.spawn, self.blocked = pane, editor, spawn, blocked
        self.page = QtEditorPage(editor)
        self.seen: tuple[str, int] | None = None  # (target, version) the pane last followed
        self.group: str | None = None  # the last apply's undo group
        self._lock = asyncio.Lock()
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._tick)
        self._timer.start()
        pane.apply_requested.connect(lambda: self.spawn(self.apply()))
        pane.undo_requested.connect(lambda: self.spawn(self.undo()))
        pane.reload_requested.connect(lambda: self.spawn(self.reload()))
        editor.project_loaded.connect(lambda _name: self._tick())

    def _tick(self) -> None:
        if self.pane.isVisible() and self.editor.is_ready and not self._lock.locked():
            self.spawn(self.follow())

    async def _call(self, function: str, *args: Any) -> Any:
        return await page_scripts.call(self.page, page_scripts.TEXT_APPLY, function, *args)

    async def follow(self) -> bool:
        """Take the editor's text when the editor changed and nothing was typed here; True
        when the pane was set."""
        if self._lock.locked() or self.blocked_by_run():
            return False
        async with self._lock:
            try:
                state = await self._call("state")
            except StudioError:
                return False
            if not isinstance(state, dict) or not state.get("target"):
                return False
            seen = (str(state["target"]), int(state.get("version") or 0))
            if seen == self.seen:
                return False
            if self.pane.dirty and self.seen is not None:
                mine = self.pane.target_name or self.seen[0]
                if seen[0] == mine:
                    self.pane.set_stale(True)
                else:
                    self.pane.set_stale(True, _other_target(seen[0], mine))
                return False
            return await self._load(seen)

    async def reload(self) -> bool:
        """Put the editor's scripts of its editing target into the pane, typed text or not."""
        async with self._lock:
            try:
                state = await self._call("state")
            except StudioError as exc:
                self.pane.show_status(f"The editor cannot be read: {exc}", error=True)
                return False
            seen = (str(state.get("target") or ""), int(state.get("version") or 0))
            return await self._load(seen)

    async def _load(self, seen: tuple[str, int]) -> bool:
        try:
            target = await self._call("target")
            text = pane_text(target)
        except (StudioError, KeyError, TypeError) as exc:
            self.pane.show_status(f"The editor's scripts cannot be read as text: {exc}", True)
            return False
        self.pane.set_text(seen[0], text)
        self.pane.show_problems([])
        self.seen = seen
        return True

    def blocked_by_run(self) -> bool:
        reason = self.blocked()
        return reason is not None and "approved" not in reason

    async def apply(self) -> bool:
        """Put the pane's text into the editor's editing target (see the module doc)."""
        reason = self.blocked()
        if reason:
            self.pane.show_status(f"Nothing applied: {reason}.", error=True)
            return False
        async with self._lock:
            return await self._apply()

    async def _apply(self) -> bool:
        try:
            state = await self._call("state")
            target = str(state["target"])
            data = await self.editor.export_project()
        except (StudioError, KeyError, TypeError) as exc:
            self.pane.show_status(f"Nothing applied: the editor cannot be read ({exc})", True)
            return False
        mine = self.pane.target_name
        if mine is not None and target != mine:
            self.pane.show_status(f"Nothing applied: {_other_target(target, mine)}", error=True)
            return False
        name = self.editor.project_name or "the editor's project"
        try:
            plan = await asyncio.to_thread(plan_apply, data, name, self.pane.text(), target)
        except BlockTextError as exc:
            self.pane.show_problems(exc.problems)
            count = len(exc.problems)
            self.pane.show_status(f"Nothing applied: {count} line(s) cannot be placed.", True)
            return False
        except StudioError as exc:
            self.pane.show_problems([])
            self.pane.show_status(f"Nothing applied: {exc}", error=True)
            return False
        result = await self._call("apply", plan.page_request())
        if not isinstance(result, dict) or not result.get("ok"):
            error = result.get("error") if isinstance(result, dict) else result
            self.pane.show_status(f"Nothing applied: {error}", error=True)
            return False
        self.group = str(result.get("group") or "") or None
        self.pane.undo_button.setEnabled(self.group is not None)
        self.pane.mark_applied()
        after = await self._call("target")
        state = await self._call("state")
        self.seen = (target, int(state.get("version") or 0))
        self.pane.show_status(self._report(plan, applied_as_planned(plan, after)))
        self.applied.emit(len(plan.scripts))
        count = len(plan.scripts)
        self.message.emit(f"Applied {count} script(s) to {target} (Ctrl+Z there undoes it)")
        return True

    @staticmethod
    def _report(plan: TextApply, exact: bool) -> str:
        parts = [f"Applied {len(plan.scripts)} script(s) to {plan.target} as one undo step."]
        if plan.made:
            parts.append("Made: " + ", ".join(plan.made) + ".")
        if plan.not_made:
            parts.append("Named but not in the project: " + ", ".join(plan.not_made) + ".")
        if not exact:
            parts.append(
                "The editor holds blocks that differ from the text (a menu value it does not "
                "offer?): Reload from editor shows them."
            )
        return " ".join(parts)

    async def undo(self) -> bool:
        """Take the last apply back when it is still the editor's newest step."""
        async with self._lock:
            result = await self._call("undo", self.group)
            if not isinstance(result, dict) or not result.get("ok"):
                error = result.get("error") if isinstance(result, dict) else result
                self.pane.show_status(f"Not undone: {error}", error=True)
                return False
            self.group = None
            self.pane.undo_button.setEnabled(False)
            state = await self._call("state")
            await self._load((str(state["target"]), int(state.get("version") or 0)))
        self.pane.show_status("The apply was undone: the editor holds the scripts from before.")
        return True


def _other_target(shown: str, mine: str) -> str:
    return (
        f"the editor shows {shown} now and the text is {mine}'s: select {mine} in the editor "
        f"to apply it, or Reload from editor to take {shown}'s scripts."
    )

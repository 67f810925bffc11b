"""The window's human-session mode: only what the protocol card allows stays reachable.

While a participant solves a task the window shows the editor and the session bar (the
instruction, the clock, Finish and Give up) and nothing else. Hidden: the document bar
(Initial / Golden, Save, Revert, the copy commands), the library and the task details, the
tabs below the editor (Task, Script, Results, Checks, Diff, Review, Run), the toolbar and the
menu bar. Disabled: every window command, so its shortcut and any file dialog it opens are
closed too; a command enabled again by other code while the mode is on is disabled at once,
a hidden pane shown again is hidden at once. The open task's unsaved work is put aside first
(`lend_editor`), so nothing the participant does can be saved into the task, and a later
Save cannot write the participant's project over a task document.

The studio's other windows (labeling, a run comparison, dialogs left open) are hidden too,
and given back after. The editor refuses to load any other project while the mode is on (the
session loads its task through the page it was lent, not through `EditorView.load_project`),
and its own File ▸ Load from your computer gets no file. Such an attempt is a protocol
breach: `breaches` lists each one (when, what was tried), and the session controller writes
them into the session's run.json (`meta["protocol_breaches"]`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Coroutine, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QWidget

LendEditor = Callable[[str], Coroutine[Any, Any, None]]


class GatedEditor(Protocol):
    """The editor as this mode sees it (studio.views.editor.view.EditorView): a gate asked
    before every project load, which returns why a load is refused (None: allowed)."""

    load_gate: Callable[[str], str | None] | None


class SessionMode(QObject):
    """Closes every way to the solution while a human baseline session runs."""

    breached = Signal(str)  # what was tried

    def __init__(
        self,
        actions: Sequence[QAction],
        hidden: Sequence[QWidget],
        editor: GatedEditor,
        lend_editor: LendEditor,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._actions = list(actions)
        self._hidden = list(hidden)
        self._editor = editor
        self._lend_editor = lend_editor
        self._enabled: dict[QAction, bool] = {}
        self._visible: dict[QWidget, bool] = {}
        self.active = False
        self.breaches: list[dict[str, str]] = []
        for action in self._actions:
            action.changed.connect(lambda a=action: self._keep_disabled(a))
        for widget in self._hidden:
            widget.installEventFilter(self)

    async def enter(self, what: str) -> None:
        """Put the open task aside, then hide and disable everything but the editor."""
        if self.active:
            return
        await self._lend_editor(what)
        self.breaches = []
        self._enabled = {a: a.isEnabled() for a in self._actions}
        others = [w for w in QApplication.topLevelWidgets() if w not in self._kept_windows()]
        self._visible = {w: w.isVisible() for w in [*self._hidden, *others]}
        self.active = True
        for action in self._actions:
            action.setEnabled(False)
        for widget, visible in self._visible.items():
            if visible:
                widget.hide()
        self._editor.load_gate = self._refuse_load

    def leave(self) -> None:
        """Give the window back as it was before the session."""
        if not self.active:
            return
        self.active = False
        self._editor.load_gate = None
        for action, enabled in self._enabled.items():
            action.setEnabled(enabled)
        for widget, visible in self._visible.items():
            with contextlib.suppress(RuntimeError):  # a window closed meanwhile is gone
                widget.setVisible(visible)

    def _kept_windows(self) -> list[QWidget]:
        """The window the session runs in (that of the hidden panes)."""
        return [w.window() for w in self._hidden if isinstance(w, QWidget)]

    def take_breaches(self) -> list[dict[str, str]]:
        """The breaches recorded since the last call (for one task of the session)."""
        taken, self.breaches = self.breaches, []
        return taken

    def breach(self, what: str) -> None:
        self.breaches.append({"at": datetime.now(UTC).isoformat(), "what": what})
        self.breached.emit(what)

    def _refuse_load(self, name: str) -> str:
        what = f"the editor was asked to load {name} during the session"
        self.breach(what)
        return f"{what}; refused: a human baseline session shows only its own task"

    def _keep_disabled(self, action: QAction) -> None:
        if self.active and action.isEnabled():
            self._enabled[action] = True  # what to give back when the session ends
            action.setEnabled(False)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.active and event.type() == QEvent.Type.Show and isinstance(watched, QWidget):
            self._visible[watched] = True
            QTimer.singleShot(0, watched.hide)  # not inside its own show
        return False

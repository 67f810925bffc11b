"""The task card's pictures: what the selected task's golden changes, drawn as blocks.

Under the task's description, each target whose scripts the golden changes over the initial
project gets its changed scripts as block pictures (`studio.app.task_card.golden_changes`,
drawn off the GUI thread; an answer for a task no longer selected is dropped); the title of a
target counts the initial's scripts the golden removed or changed. *Text* switches to the
same scripts as block text, a click away.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from studio.app.task_card import ChangedPictures, golden_changes
from studio.services.core.store import TaskFolder
from studio.views.widgets.block_pictures import PicturePane, Section

__all__ = ["CardPictures"]


class _Drawer(QObject):
    """Draws a task's changes in a worker thread; answers on the GUI thread."""

    drawn = Signal(int, object)  # token, list[ChangedPictures] | str

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.token = 0
        self.worker: threading.Thread | None = None

    def request(self, entry: TaskFolder) -> int:
        self.token += 1
        self.worker = threading.Thread(target=self._work, args=(self.token, entry), daemon=True)
        self.worker.start()
        return self.token

    def _work(self, token: int, entry: TaskFolder) -> None:
        try:
            answer: Any = golden_changes(entry)
        except Exception as exc:  # a renderer that cannot run: the card says why
            answer = f"The blocks cannot be drawn: {exc}"
        with contextlib.suppress(RuntimeError):  # the card was deleted while it drew
            self.drawn.emit(token, answer)


class CardPictures(QWidget):
    """The golden's changes of one task, as pictures or text (see the module doc)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("<b>What the golden changes</b>", self)
        self.as_text = QCheckBox("Text", self)
        self.as_text.setToolTip("Show the changed scripts as block text")
        self.pane = PicturePane(self)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.pane)
        self.stack.addWidget(self.text)
        row = QHBoxLayout()
        row.addWidget(self.title, 1)
        row.addWidget(self.as_text)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.stack, 1)
        self.drawer = _Drawer(self)
        self.drawer.drawn.connect(self._on_drawn)
        self.as_text.toggled.connect(self._on_toggled)
        self.changes: list[ChangedPictures] | None = None
        self.clear()

    def clear(self) -> None:
        self.drawer.token += 1  # an answer on its way is for nothing shown
        self.changes = None
        self.pane.message("Select a task: its golden's changes are drawn here.")
        self.text.setPlainText("")

    def show_task(self, entry: TaskFolder) -> None:
        self.changes = None
        self.pane.message("Drawing the golden's changes…")
        self.text.setPlainText("")
        self.drawer.request(entry)

    def _on_drawn(self, token: int, answer: list[ChangedPictures] | str) -> None:
        if token != self.drawer.token:
            return
        if isinstance(answer, str):
            self.pane.message(answer)
            self.text.setPlainText(answer)
            return
        self.changes = answer
        if not answer:
            self.pane.message("The golden changes no script of the initial project.")
            self.text.setPlainText("")
            return
        sections = [Section(_title(c), c.changed, None) for c in answer]
        self.pane.show_sections(sections)
        self.text.setPlainText(
            "\n\n".join(f"// {c.name}\n" + "\n\n".join(p.text for p in c.changed) for c in answer)
        )

    def _on_toggled(self, text: bool) -> None:
        self.stack.setCurrentWidget(self.text if text else self.pane)


def _title(change: ChangedPictures) -> str:
    removed = len(change.removed)
    return change.name + (
        f" ({removed} script(s) of the initial removed or changed)" if removed else ""
    )

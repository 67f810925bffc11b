"""The *Text* tab: the editing target's scripts as scratchblocks text, to read, write or paste.

The pane shows which target the text is for, the text (monospace, its own undo), and three
buttons: *Apply* (Ctrl+Shift+Return, and Task ▸ Apply block text) puts the text's blocks into
the editor, *Undo apply* takes the last apply back, *Reload from editor* puts the editor's
scripts into the pane (dropping what was typed). Lines that cannot be placed are listed with
their number under the text; a click on one puts the cursor on that line. A line above the
text says when the editor changed while the pane held typed text (nothing is replaced then).
Text set from one target is applied to that target only (select it in the editor again).
The pane is the widget alone: `TextPaneController` (text_controller.py) drives it.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QFont, QFontDatabase, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.services.core.blocktext.reading import Problem

__all__ = ["TextPane"]

_STALE = (
    "The editor's blocks changed while you were typing here: Apply puts your text in, "
    "Reload from editor takes theirs."
)


class TextPane(QWidget):
    """The text tab's widgets; `dirty` while it holds text typed since it was last set."""

    apply_requested = Signal()
    undo_requested = Signal()
    reload_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.target = QLabel("No project in the editor yet", self)
        self.target_name: str | None = None  # whose scripts the text was set from
        self.apply_button = QPushButton("Apply", self)
        self.apply_button.setToolTip(
            "Replace the target's scripts in the editor by the text's (Ctrl+Shift+Return); "
            "one undo takes it back"
        )
        self.undo_button = QPushButton("Undo apply", self)
        self.undo_button.setToolTip("Take the last apply back (as Ctrl+Z in the code area does)")
        self.undo_button.setEnabled(False)
        self.reload_button = QPushButton("Reload from editor", self)
        self.reload_button.setToolTip("Put the editor's scripts into the pane (drops your text)")
        self.stale = QLabel(_STALE, self)
        self.stale.setWordWrap(True)
        self.stale.setStyleSheet("color:#8a4b00; background:#fff4e5; padding:3px")
        self.stale.hide()
        self.editor = QPlainTextEdit(self)
        self.editor.setObjectName("block-text")
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.editor.setFont(font)
        self.editor.setPlaceholderText(
            "when green flag clicked\nrepeat (10)\n    move (10) steps\nend"
        )
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.problems = QListWidget(self)
        self.problems.setMaximumHeight(90)
        self.problems.hide()
        self.problems.itemActivated.connect(self._go_to_problem)
        self.problems.itemClicked.connect(self._go_to_problem)
        self.status = QLabel("", self)
        self.status.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.target, 1)
        for button in (self.apply_button, self.undo_button, self.reload_button):
            row.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row)
        layout.addWidget(self.stale)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.problems)
        layout.addWidget(self.status)
        self.apply_button.clicked.connect(self.apply_requested)
        self.undo_button.clicked.connect(self.undo_requested)
        self.reload_button.clicked.connect(self.reload_requested)

    @property
    def dirty(self) -> bool:
        """Text was typed or pasted since the pane was last set from the editor or applied."""
        return self.editor.document().isModified()

    def text(self) -> str:
        return self.editor.toPlainText()

    def set_text(self, target: str, text: str) -> None:
        """Show `target`'s scripts (the pane is clean afterwards: nothing typed)."""
        self.target_name = target
        self.target.setText(f"Scripts of <b>{target}</b>")
        self.editor.setPlainText(text)
        self.editor.document().setModified(False)
        self.stale.hide()

    def mark_applied(self) -> None:
        """The text is what the editor holds now: clean, no problems, not stale."""
        self.editor.document().setModified(False)
        self.stale.hide()
        self.show_problems([])

    def set_stale(self, stale: bool, why: str = _STALE) -> None:
        """Say (or stop saying) that the editor changed while text was typed here."""
        self.stale.setText(why)
        self.stale.setVisible(stale)

    def show_problems(self, problems: list[Problem]) -> None:
        """List the lines that cannot be placed (none: the list hides)."""
        self.problems.clear()
        for problem in problems:
            item = QListWidgetItem(str(problem))
            item.setData(256, problem.line)  # Qt.UserRole
            self.problems.addItem(item)
        self.problems.setVisible(bool(problems))

    def show_status(self, text: str, error: bool = False) -> None:
        self.status.setStyleSheet("color:#b3261e" if error else "color:#3c4043")
        self.status.setText(text)

    def _go_to_problem(self, item: QListWidgetItem) -> None:
        line = int(item.data(256) or 1)
        block = self.editor.document().findBlockByNumber(max(0, line - 1))
        cursor = QTextCursor(block)
        self.editor.setTextCursor(cursor)
        self.editor.setFocus()

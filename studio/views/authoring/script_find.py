"""Find and replace in the script editor: Ctrl+F opens the bar (with the selection as the
text to find), Enter / F3 finds the next match, Shift+Enter / Shift+F3 the previous one
(both wrap around), Replace changes the current match and finds the next, Replace all changes
every match as one edit (one Ctrl+Z takes it back); Escape closes the bar."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QToolButton,
    QWidget,
)


class FindBar(QWidget):
    """The find / replace row over `edit` (hidden until Ctrl+F)."""

    def __init__(self, edit: QPlainTextEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = edit
        self.find_text = QLineEdit(self)
        self.find_text.setPlaceholderText("Find")
        self.replace_text = QLineEdit(self)
        self.replace_text.setPlaceholderText("Replace with")
        self.match_case = QCheckBox("Match case", self)
        self.status = QLabel(self)
        self.status.setMinimumWidth(90)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.find_text, 2)
        for text, slot in (("◀", self.find_previous), ("▶", self.find_next)):
            layout.addWidget(self._button(text, slot))
        layout.addWidget(self.replace_text, 2)
        layout.addWidget(self._button("Replace", self.replace))
        layout.addWidget(self._button("Replace all", self.replace_all))
        layout.addWidget(self.match_case)
        layout.addWidget(self.status)
        layout.addWidget(self._button("✕", self.close_bar))
        self.find_text.returnPressed.connect(self.find_next)
        self.replace_text.returnPressed.connect(self.replace)
        self.find_text.textChanged.connect(lambda _t: self._find(from_start_of_selection=True))
        host = parent or edit
        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        keys_and_slots: list[tuple[QKeySequence.StandardKey | str, Callable[[], object]]] = [
            (QKeySequence.StandardKey.Find, self.open_bar),
            (QKeySequence.StandardKey.FindNext, self.find_next),
            (QKeySequence.StandardKey.FindPrevious, self.find_previous),
        ]
        for keys, run in keys_and_slots:
            QShortcut(QKeySequence(keys), host, run, context=context)
        QShortcut(QKeySequence("Escape"), self, self.close_bar, context=context)
        QShortcut(QKeySequence("Shift+Return"), self.find_text, self.find_previous, context=context)
        self.hide()

    def _button(self, text: str, slot: Callable[[], object]) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.clicked.connect(slot)
        return button

    def open_bar(self) -> None:
        selected = self.edit.textCursor().selectedText()
        if selected and "\u2029" not in selected:  # a selection within one line
            self.find_text.setText(selected)
        self.show()
        self.find_text.setFocus()
        self.find_text.selectAll()

    def close_bar(self) -> None:
        self.hide()
        self.edit.setFocus()

    def find_next(self) -> bool:
        return self._find()

    def find_previous(self) -> bool:
        return self._find(backward=True)

    def replace(self) -> bool:
        """Replace the selected match (if the selection is one) and find the next."""
        cursor = self.edit.textCursor()
        if self._is_match(cursor.selectedText()) and not self.edit.isReadOnly():
            cursor.insertText(self.replace_text.text())
        return self._find()

    def replace_all(self) -> int:
        """Replace every match as one edit; the number replaced."""
        needle = self.find_text.text()
        if not needle or self.edit.isReadOnly():
            return 0
        document, count = self.edit.document(), 0
        edit = QTextCursor(document)
        edit.beginEditBlock()
        cursor = document.find(needle, 0, self._flags())
        while not cursor.isNull():
            cursor.insertText(self.replace_text.text())
            count += 1
            cursor = document.find(needle, cursor, self._flags())
        edit.endEditBlock()
        self.status.setText(f"{count} replaced")
        return count

    def _find(self, backward: bool = False, from_start_of_selection: bool = False) -> bool:
        needle = self.find_text.text()
        if not needle:
            self.status.clear()
            return False
        flags = self._flags(backward)
        document, cursor = self.edit.document(), self.edit.textCursor()
        if from_start_of_selection:
            cursor.setPosition(cursor.selectionStart())
        found = document.find(needle, cursor, flags)
        if found.isNull():  # wrap around
            start = QTextCursor(document)
            if backward:
                start.movePosition(QTextCursor.MoveOperation.End)
            found = document.find(needle, start, flags)
        if found.isNull():
            self.status.setText("no match")
            return False
        self.edit.setTextCursor(found)
        self.edit.centerCursor()
        self.status.setText(f"line {found.blockNumber() + 1}")
        return True

    def _is_match(self, text: str) -> bool:
        needle = self.find_text.text()
        if self.match_case.isChecked():
            return bool(needle) and text == needle
        return bool(needle) and text.lower() == needle.lower()

    def _flags(self, backward: bool = False) -> QTextDocument.FindFlag:
        flags = QTextDocument.FindFlag(0)
        if backward:
            flags |= QTextDocument.FindFlag.FindBackward
        if self.match_case.isChecked():
            flags |= QTextDocument.FindFlag.FindCaseSensitively
        return flags

"""A code editor for evaluation scripts: line numbers, JavaScript colours, an error marker,
find and replace (Ctrl+F, studio.views.authoring.script_find)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFontDatabase,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextDocumentLayout,
    QPlainTextEdit,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.views.authoring.js_highlighter import JavaScriptHighlighter
from studio.views.authoring.script_find import FindBar

INDENT = "  "
CURRENT_LINE_COLOR = "#eef3fc"
ERROR_LINE_COLOR = "#fde3e1"
ERROR_COLOR = "#b3261e"
GUTTER_BACKGROUND = "#f4f5f7"
GUTTER_TEXT = "#9aa0a6"
GUTTER_CURRENT_TEXT = "#3c4043"


class _Gutter(QWidget):
    """Line numbers beside the text; the error line gets a red dot."""

    def __init__(self, editor: CodeEdit) -> None:
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        self.editor.paint_gutter(self, event)


class CodeEdit(QPlainTextEdit):
    """The text area: two-space tabs, kept indentation, Ctrl+Enter asks for a run."""

    run_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.error_line: int | None = None  # 1-based
        self.gutter = _Gutter(self)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPointSize(max(font.pointSize(), 10))
        self.setFont(font)
        self.setTabStopDistance(self.fontMetrics().horizontalAdvance(" ") * len(INDENT))
        self.blockCountChanged.connect(self._on_block_count_changed)
        self.updateRequest.connect(self._on_update_request)
        self.cursorPositionChanged.connect(self.refresh_highlights)
        self._on_block_count_changed(1)
        self.refresh_highlights()

    def gutter_width(self) -> int:
        digits = max(2, len(str(self.blockCount())))
        return 22 + self.fontMetrics().horizontalAdvance("9") * digits

    def paint_gutter(self, gutter: QWidget, event: QPaintEvent) -> None:
        painter = QPainter(gutter)
        painter.fillRect(event.rect(), QColor(GUTTER_BACKGROUND))
        painter.setFont(self.font())
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        current = self.textCursor().blockNumber()
        line_height = self.fontMetrics().height()
        while block.isValid() and top <= event.rect().bottom():
            bottom = top + round(self.blockBoundingRect(block).height())
            number = block.blockNumber() + 1
            if block.isVisible() and bottom >= event.rect().top():
                if number == self.error_line:
                    self._paint_error_dot(painter, top, line_height)
                color = GUTTER_CURRENT_TEXT if number - 1 == current else GUTTER_TEXT
                painter.setPen(QColor(color))
                rect = QRect(0, top, gutter.width() - 6, line_height)
                painter.drawText(rect, Qt.AlignmentFlag.AlignRight, str(number))
            block, top = block.next(), bottom
        painter.end()

    def _paint_error_dot(self, painter: QPainter, top: int, line_height: int) -> None:
        size = min(8, line_height - 4)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(ERROR_COLOR))
        painter.drawEllipse(4, top + (line_height - size) // 2, size, size)

    def refresh_highlights(self) -> None:
        """The current line lightly tinted, the error line (if any) in red."""
        selections = []
        if not self.isReadOnly():
            selections.append(self._line_selection(self.textCursor(), CURRENT_LINE_COLOR))
        block = self.document().findBlockByNumber((self.error_line or 0) - 1)
        if self.error_line is not None and block.isValid():
            selections.append(self._line_selection(QTextCursor(block), ERROR_LINE_COLOR))
        self.setExtraSelections(selections)
        self.gutter.update()

    def _line_selection(self, cursor: QTextCursor, color: str) -> QTextEdit.ExtraSelection:
        selection = QTextEdit.ExtraSelection()
        selection.format.setBackground(QColor(color))
        selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        selection.cursor = QTextCursor(cursor)
        selection.cursor.clearSelection()
        return selection

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, mods = event.key(), event.modifiers()
        enter = key in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and mods & Qt.KeyboardModifier.ControlModifier:
            self.run_requested.emit()
        elif self.isReadOnly():
            super().keyPressEvent(event)
        elif key == Qt.Key.Key_Tab and not mods:
            self.insertPlainText(INDENT)
        elif key == Qt.Key.Key_Backtab:
            self._dedent()
        elif enter and not mods & Qt.KeyboardModifier.ShiftModifier:
            line = self.textCursor().block().text()
            self.insertPlainText("\n" + line[: len(line) - len(line.lstrip(" \t"))])
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def _dedent(self) -> None:
        """Shift+Tab: take up to one indent step off the start of the current line."""
        cursor = self.textCursor()
        line = cursor.block().text()
        width = min(len(INDENT), len(line) - len(line.lstrip(" ")))
        if width:
            cursor.movePosition(QTextCursor.MoveOperation.StartOfBlock)
            cursor.movePosition(
                QTextCursor.MoveOperation.Right, QTextCursor.MoveMode.KeepAnchor, width
            )
            cursor.removeSelectedText()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        rect = self.contentsRect()
        self.gutter.setGeometry(QRect(rect.left(), rect.top(), self.gutter_width(), rect.height()))

    def _on_block_count_changed(self, _count: int) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _on_update_request(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())


class ScriptEditor(QWidget):
    """Edits one evaluation script; reports modification and asks for runs (Ctrl+Enter)."""

    run_requested = Signal()
    modified_changed = Signal(bool)
    propose_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.propose_button = QToolButton(self)
        self.propose_button.setText("Propose tests…")
        self.propose_button.setToolTip(
            "Propose tests by watching the golden and initial programs run; keep those that "
            "kill mutants"
        )
        self.propose_button.clicked.connect(self.propose_requested)
        self.edit = CodeEdit(self)
        self.edit.setPlaceholderText("module.exports = async (vm, config, cleanup) => { … }")
        self.highlighter = JavaScriptHighlighter(self.edit.document())
        self.error_label = QLabel(self)
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.error_label.linkActivated.connect(self._on_error_link_activated)
        self.error_label.setStyleSheet(
            f"color: {ERROR_COLOR}; background: #fdecea; padding: 4px 8px; font-weight: 600;"
        )
        self.error_label.hide()
        self.edit.run_requested.connect(self.run_requested)
        self.edit.document().modificationChanged.connect(self.modified_changed)
        self._documents: dict[str, QTextDocument] = {}  # per task, with their undo history
        self._highlighters: dict[str, JavaScriptHighlighter] = {}
        self.find_bar = FindBar(self.edit, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        header = QHBoxLayout()
        header.setContentsMargins(4, 2, 4, 2)
        header.addStretch(1)
        header.addWidget(self.propose_button)
        layout.addLayout(header)
        layout.addWidget(self.find_bar)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.error_label)
        self.error_message = ""

    def set_text(self, text: str) -> None:
        """Replace the script (a freshly loaded file: not modified, no undo history)."""
        self.clear_error()
        self.edit.setPlainText(text)
        self.edit.document().setModified(False)
        self.edit.moveCursor(QTextCursor.MoveOperation.Start)

    def open_document(self, key: str, text: str) -> None:
        """Show the script of `key` (a task folder) saved as `text`: the document it had when
        it was shown last, with its undo history (Ctrl+Z goes back past saves and reopening),
        while it still holds `text`; else a fresh one."""
        self.clear_error()
        kept = self._documents.get(key)
        if kept is None or kept.toPlainText() != text:
            kept = QTextDocument(self)
            kept.setDocumentLayout(QPlainTextDocumentLayout(kept))
            kept.setDefaultFont(self.edit.font())
            kept.setPlainText(text)
            kept.setModified(False)
            self._documents[key] = kept
            self._highlighters[key] = JavaScriptHighlighter(kept)
        if kept is not self.edit.document():
            self.edit.document().modificationChanged.disconnect(self.modified_changed)
            self.edit.setDocument(kept)
            self.highlighter = self._highlighters[key]
            kept.modificationChanged.connect(self.modified_changed)
            self.edit.setTabStopDistance(
                self.edit.fontMetrics().horizontalAdvance(" ") * len(INDENT)
            )
        self.edit.moveCursor(QTextCursor.MoveOperation.Start)

    def text(self) -> str:
        return self.edit.toPlainText()

    def replace_all(self, text: str) -> None:
        """Replace the script as one edit of its document: one undo takes it back."""
        cursor = QTextCursor(self.edit.document())
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        cursor.endEditBlock()

    def is_modified(self) -> bool:
        return self.edit.document().isModified()

    def mark_saved(self) -> None:
        self.edit.document().setModified(False)

    def set_read_only(self, read_only: bool) -> None:
        self.edit.setReadOnly(read_only)
        self.edit.refresh_highlights()

    def is_read_only(self) -> bool:
        return self.edit.isReadOnly()

    def set_error(self, line: int | None, message: str) -> None:
        """Mark `line` (1-based; None when the error has no line) and show the message.

        The cursor stays where it is (the error may arrive while the author types); the
        "line N" link under the editor, or `go_to_line`, jumps there.
        """
        valid = line is not None and 1 <= line <= self.edit.blockCount()
        self.edit.error_line = line if valid else None
        self.error_message = f"line {line}: {message}" if line is not None else message
        shown = escape(self.error_message)
        if valid:
            link = f"<a href='line' style='color: {ERROR_COLOR}'>line {line}</a>"
            shown = f"{link}: {escape(message)}"
        self.error_label.setText(shown)
        self.error_label.setToolTip(self.error_message)
        self.edit.gutter.setToolTip(self.error_message)
        self.error_label.show()
        self.edit.refresh_highlights()

    def clear_error(self) -> None:
        self.edit.error_line = None
        self.error_message = ""
        self.error_label.clear()
        self.error_label.hide()
        self.edit.gutter.setToolTip("")
        self.edit.refresh_highlights()

    def error_line(self) -> int | None:
        return self.edit.error_line

    def go_to_line(self, line: int) -> None:
        """Put the cursor at the start of `line` (clamped to the script) and show it."""
        block = self.edit.document().findBlockByNumber(
            min(max(line, 1), self.edit.blockCount()) - 1
        )
        self.edit.setTextCursor(QTextCursor(block))
        self.edit.centerCursor()
        self.edit.setFocus()

    def current_line(self) -> int:
        return self.edit.textCursor().blockNumber() + 1

    def _on_error_link_activated(self, _link: str) -> None:
        if self.edit.error_line is not None:
            self.go_to_line(self.edit.error_line)

"""The task form: instruction, category, description, difficulty, tags, author; with undo.

Every committed edit of a field is one command on the form's own undo stack (Ctrl+Z / Ctrl+Y
while the form has the focus): typing in a field merges into one command until another field
is edited. The Scratch editor keeps its own undo; the script editor its own.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from studio.models.task import Category, Task

FIELDS = ("instruction", "category", "description", "difficulty", "tags", "author")
DIFFICULTIES = ("", "easy", "medium", "hard")


class _SetField(QUndoCommand):
    """Set one field from `old` to `new`; consecutive edits of the same field merge."""

    def __init__(self, form: TaskForm, name: str, old: str, new: str) -> None:
        super().__init__(f"edit {name}")
        self.form, self.name, self.old, self.new = form, name, old, new

    def id(self) -> int:
        return 1000 + FIELDS.index(self.name)

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, _SetField) or other.name != self.name:
            return False
        self.new = other.new
        return True

    def redo(self) -> None:
        self.form._put(self.name, self.new)

    def undo(self) -> None:
        self.form._put(self.name, self.old)


class _FormUndo(QObject):
    """Sends Ctrl+Z / Ctrl+Y typed in a field to the form's stack instead of the field's own."""

    def __init__(self, stack: QUndoStack) -> None:
        super().__init__(stack)
        self.stack = stack

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        assert isinstance(event, QKeyEvent)
        if event.matches(QKeySequence.StandardKey.Undo):
            step = self.stack.undo
        elif event.matches(QKeySequence.StandardKey.Redo):
            step = self.stack.redo
        else:
            return False
        event.accept()
        if event.type() == QEvent.Type.KeyPress and not getattr(watched, "isReadOnly", bool)():
            step()
        return True


class TaskForm(QWidget):
    """Edits a Task's descriptive fields; `edited` fires on every change (user or undo)."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self._values: dict[str, str] = dict.fromkeys(FIELDS, "")
        self._loading = False
        self.instruction = QPlainTextEdit(self)
        self.instruction.setPlaceholderText("What the agent is asked to do, in plain words")
        self.instruction.setUndoRedoEnabled(False)
        self.instruction.setMinimumHeight(70)
        self.category = QComboBox(self)
        self.category.addItems([c.value for c in Category])
        self.description = QLineEdit(self)
        self.description.setPlaceholderText("A note for authors and reviewers")
        self.difficulty = QComboBox(self)
        self.difficulty.addItems(DIFFICULTIES)
        self.tags = QLineEdit(self)
        self.tags.setPlaceholderText("comma-separated, e.g. loops, variables")
        self.author = QLineEdit(self)
        layout = QFormLayout(self)
        layout.addRow("&Instruction", self.instruction)
        layout.addRow("&Category", self.category)
        layout.addRow("&Description", self.description)
        layout.addRow("Di&fficulty", self.difficulty)
        layout.addRow("&Tags", self.tags)
        layout.addRow("&Author", self.author)
        self._filter = _FormUndo(self.undo_stack)
        for field in (self.instruction, self.description, self.tags, self.author):
            field.installEventFilter(self._filter)
        self.undo_action = self._action("Undo form edit", QKeySequence.StandardKey.Undo)
        self.undo_action.triggered.connect(self.undo_stack.undo)
        self.redo_action = self._action("Redo form edit", QKeySequence.StandardKey.Redo)
        self.redo_action.triggered.connect(self.undo_stack.redo)
        self.instruction.textChanged.connect(
            lambda: self._changed("instruction", self.instruction.toPlainText())
        )
        self.category.currentTextChanged.connect(lambda t: self._changed("category", t))
        self.description.textEdited.connect(lambda t: self._changed("description", t))
        self.difficulty.currentTextChanged.connect(lambda t: self._changed("difficulty", t))
        self.tags.textEdited.connect(lambda t: self._changed("tags", t))
        self.author.textEdited.connect(lambda t: self._changed("author", t))

    def _action(self, text: str, key: QKeySequence.StandardKey) -> QAction:
        action = QAction(text, self)
        action.setShortcut(QKeySequence(key))
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.addAction(action)
        return action

    # -- public ------------------------------------------------------------------------------

    def set_task(self, task: Task) -> None:
        """Show `task`; clears the undo history."""
        values = {
            "instruction": task.instruction,
            "category": task.category.value,
            "description": task.description,
            "difficulty": task.metadata.difficulty,
            "tags": ", ".join(task.metadata.tags),
            "author": task.author,
        }
        for name, value in values.items():
            self._put(name, value, announce=False)
        self.undo_stack.clear()
        self.undo_stack.setClean()

    def apply_to(self, task: Task) -> Task:
        """`task` with the form's values."""
        v = self._values
        tags = [t.strip() for t in v["tags"].split(",") if t.strip()]
        metadata = task.metadata.model_copy(update={"difficulty": v["difficulty"], "tags": tags})
        return task.model_copy(
            update={
                "instruction": v["instruction"].strip() or task.instruction,
                "category": Category(v["category"]),
                "description": v["description"],
                "author": v["author"],
                "metadata": metadata,
            }
        )

    def value(self, name: str) -> str:
        return self._values[name]

    def set_value(self, name: str, value: str) -> None:
        """Set a field as the user would (one undoable command)."""
        self._changed(name, value)

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    def mark_saved(self) -> None:
        self.undo_stack.setClean()

    def set_read_only(self, read_only: bool) -> None:
        for widget in (self.instruction, self.description, self.tags, self.author):
            widget.setReadOnly(read_only)
        self.category.setEnabled(not read_only)
        self.difficulty.setEnabled(not read_only)
        self.undo_action.setEnabled(not read_only)
        self.redo_action.setEnabled(not read_only)

    # -- internals -----------------------------------------------------------------------------

    def _changed(self, name: str, value: str) -> None:
        if self._loading or value == self._values[name]:
            return
        old = self._values[name]
        self._values[name] = value
        self._loading = True
        try:
            self.undo_stack.push(_SetField(self, name, old, value))
        finally:
            self._loading = False

    def _put(self, name: str, value: str, announce: bool = True) -> None:
        """Show `value` in field `name` without recording an edit."""
        self._values[name] = value
        widget: Any = getattr(self, name)
        self._loading = True
        try:
            if isinstance(widget, QPlainTextEdit):
                if widget.toPlainText() != value:
                    widget.setPlainText(value)
            elif isinstance(widget, QComboBox):
                widget.setCurrentText(value)
            elif widget.text() != value:
                widget.setText(value)
        finally:
            self._loading = False
        if announce:
            self.edited.emit()

"""The New task dialog: it keeps what was typed and shows every error in place.

OK asks the library to create the task (`create`, run in the background); the dialog closes
only when the task exists. An empty or invalid id, an id already taken or a start project that
is missing or not a Scratch 3 project leaves the dialog open with everything typed, the error
written under the fields and the field at fault focused. "Start from project" has a Browse…
button (a file dialog for .sb3 files). The fields are wide enough for their placeholders.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)

from studio.models.task import Category
from studio.services.core.store import TaskFolder

ID_HINT = "letters, digits, _ . - (e.g. debug_fish_turns)"
PROJECT_HINT = "an .sb3 to start from (required for debug and extend)"
ERROR_STYLE = "color: #b3261e; background: #fdecea; padding: 4px 6px; font-weight: 600;"


@dataclass
class NewTaskRequest:
    """What the New task dialog asks for."""

    task_id: str
    category: Category
    instruction: str
    author: str = ""
    from_project: Path | None = None


# Creates the task asked for: the task folder, or the error message (naming what is wrong).
Create = Callable[[NewTaskRequest], Awaitable[TaskFolder | str]]


class NewTaskDialog(QDialog):
    """Id, category, instruction, author and (for debug and extend) the project to start from."""

    def __init__(self, parent: QWidget | None, create: Create, author: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("New task")
        self._create = create
        self.created: TaskFolder | None = None
        self._attempt: asyncio.Future[None] | None = None
        self.task_id = _wide_line_edit(self, ID_HINT)
        self.category = QComboBox(self)
        self.category.addItems([c.value for c in Category])
        self.instruction = QPlainTextEdit(self)
        self.instruction.setPlaceholderText("What the agent is asked to do")
        self.author = QLineEdit(author, self)
        self.project = _wide_line_edit(self, PROJECT_HINT)
        self.browse = QPushButton("Browse…", self)
        self.browse.clicked.connect(self._on_browse_clicked)
        project_row = QHBoxLayout()
        project_row.addWidget(self.project, 1)
        project_row.addWidget(self.browse)
        self.error = QLabel(self)
        self.error.setWordWrap(True)
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.hide()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self._on_ok_clicked)
        self.buttons.rejected.connect(self.reject)
        layout = QFormLayout(self)
        layout.addRow("Task &id", self.task_id)
        layout.addRow("&Category", self.category)
        layout.addRow("&Instruction", self.instruction)
        layout.addRow("&Author", self.author)
        layout.addRow("Start from &project", project_row)
        layout.addRow(self.error)
        layout.addRow(self.buttons)

    def request(self) -> NewTaskRequest:
        project = self.project.text().strip()
        return NewTaskRequest(
            self.task_id.text().strip(),
            Category(self.category.currentText()),
            self.instruction.toPlainText(),
            self.author.text().strip(),
            Path(project).expanduser() if project else None,
        )

    def show_error(self, message: str) -> None:
        """Say what is wrong under the fields; focus the field it is about."""
        self.error.setText(message)
        self.error.show()
        about_project = "project" in message or ".sb3" in message
        field = self.project if about_project else self.task_id
        field.setFocus()
        field.selectAll()

    async def attempt(self) -> TaskFolder | None:
        """Create the task asked for; close on success, else show why and stay open."""
        request = self.request()
        if not request.task_id:
            self.show_error("Give the task an id: " + ID_HINT + ".")
            return None
        self.buttons.setEnabled(False)
        try:
            outcome = await self._create(request)
        finally:
            self.buttons.setEnabled(True)
        if isinstance(outcome, str):
            self.show_error(outcome)
            return None
        self.created = outcome
        self.accept()
        return outcome

    def _on_ok_clicked(self) -> None:
        if self._attempt is None or self._attempt.done():
            self._attempt = asyncio.ensure_future(self._run_attempt())

    async def _run_attempt(self) -> None:
        await self.attempt()

    def _on_browse_clicked(self) -> None:
        start = self.project.text().strip() or str(Path.home())
        dialog = QFileDialog(self, "Start from a Scratch project", start)
        dialog.setNameFilter("Scratch 3 projects (*.sb3)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(self.project.setText)
        dialog.open()  # not exec(): a nested event loop would stall the asyncio tasks


def _wide_line_edit(parent: QWidget, placeholder: str) -> QLineEdit:
    """A line edit whose placeholder is never cut off."""
    edit = QLineEdit(parent)
    edit.setPlaceholderText(placeholder)
    margins = edit.textMargins().left() + edit.textMargins().right()
    edit.setMinimumWidth(edit.fontMetrics().horizontalAdvance(placeholder) + margins + 24)
    return edit

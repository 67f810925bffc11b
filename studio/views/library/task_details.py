"""What the selected task asks for: instruction, description, files and time limit."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QTextBrowser, QVBoxLayout, QWidget

from studio.models.task import Convention
from studio.services.core.store import TaskFolder
from studio.views.library.card_pictures import CardPictures

_CATEGORY_COLORS = {
    "create": "#1a73e8",
    "debug": "#c5221f",
    "extend": "#188038",
    "compute": "#9334e6",
}


class TaskDetails(QWidget):
    """Read-only description of one task (or of why a task failed to load)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.browser = QTextBrowser(self)
        self.browser.setOpenLinks(False)
        self.pictures = CardPictures(self)  # the golden's changed scripts, as blocks
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.setObjectName("task-card-splitter")
        split.addWidget(self.browser)
        split.addWidget(self.pictures)
        split.setSizes([160, 240])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)
        self.clear()

    def clear(self) -> None:
        self.pictures.clear()
        self.browser.setHtml(
            "<p style='color:#5f6368'>Select a task in the library. "
            "Ctrl+1 opens its initial project, Ctrl+2 its golden project, "
            "F5 evaluates what the editor holds.</p>"
        )

    def show_task(self, entry: TaskFolder) -> None:
        task = entry.task
        color = _CATEGORY_COLORS.get(task.category.value, "#5f6368")
        files = [f"initial: {task.initial_project}"]
        files.append(f"golden: {task.golden_project or '—'}")
        limit = task.evaluation.limit()
        files.append(
            f"script: {task.evaluation.script} (limit {limit.seconds:g} s: {limit.source})"
        )
        if task.evaluation.convention is Convention.SCRATCHWORLD:
            files.append("called as the published ScratchWorld service calls it: config {}")
        parts = [
            f"<h3 style='margin:0'>{escape(task.id)} "
            f"<span style='color:{color}; font-size:small'>[{task.category.value}]</span></h3>",
            f"<p style='white-space:pre-wrap'>{escape(task.instruction)}</p>",
        ]
        if task.description:
            parts.append(f"<p style='color:#3c4043'>{escape(task.description)}</p>")
        parts.append(
            "<p style='color:#5f6368; font-size:small'>"
            + "<br>".join(escape(f) for f in files)
            + f"<br>review: {task.review.state.value}"
            + (f" · author: {escape(task.author)}" if task.author else "")
            + f"<br>{escape(str(entry.folder))}</p>"
        )
        self.browser.setHtml("".join(parts))
        self.pictures.show_task(entry)

    def show_load_error(self, message: str) -> None:
        self.pictures.clear()
        self.browser.setHtml(
            "<h3 style='margin:0; color:#b3261e'>This task failed to load</h3>"
            f"<p style='white-space:pre-wrap'>{escape(message)}</p>"
        )

    def text(self) -> str:
        return self.browser.toPlainText()

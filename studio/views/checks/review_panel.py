"""A task's review: its state, the buttons that move it on, its history and its lint findings."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.models.task import Review, ReviewState
from studio.services.authoring import review as task_review
from studio.services.authoring.lint import LintFinding, level_of
from studio.views.widgets.tables import Fit, read_only_table

STATE_STYLES = {  # background, text
    ReviewState.DRAFT: ("#f1f3f4", "#3c4043"),
    ReviewState.IN_REVIEW: ("#e8f0fe", "#174ea6"),
    ReviewState.APPROVED: ("#e6f4ea", "#0d652d"),
    ReviewState.REJECTED: ("#fdecea", "#8c1d18"),
}
LEVEL_COLORS = {"error": "#b3261e", "warning": "#a15c00", "info": "#1a73e8"}
_LEVEL_GLYPHS = {"error": "✕", "warning": "!", "info": "i"}
HISTORY_COLUMNS = ("State", "By", "At", "Comment")
SUBMIT_TIP = "Send the task to a reviewer"
_MUTED = "#5f6368"
_BUTTONS = {  # the transitions (studio.services.authoring.review) and their buttons
    "submit": "Submit for review",
    "approve": "Approve…",
    "reject": "Reject…",
    "reopen": "Reopen…",
}


def state_text(state: ReviewState) -> str:
    return state.value.replace("_", " ")


def format_time(at: datetime) -> str:
    """Local time for aware datetimes (the history stores UTC), as-is for naive ones."""
    return (at.astimezone() if at.tzinfo else at).strftime("%Y-%m-%d %H:%M")


class ReviewPanel(QWidget):
    """Shows where a task stands in review and asks for the next transition."""

    submit_requested = Signal()
    approve_requested = Signal(str)
    reject_requested = Signal(str)
    reopen_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.review: Review | None = None
        self.findings: list[LintFinding] = []
        self.state_badge = QLabel(self)
        self.state_badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.state_badge.setMinimumWidth(96)
        self.last_event = QLabel(self)
        self.last_event.setWordWrap(True)
        self.last_event.setStyleSheet(f"color: {_MUTED};")
        self.buttons = {name: QPushButton(text, self) for name, text in _BUTTONS.items()}
        self.buttons["submit"].clicked.connect(self._on_submit_clicked)
        self.buttons["approve"].clicked.connect(self._on_approve_clicked)
        self.buttons["reject"].clicked.connect(self._on_reject_clicked)
        self.buttons["reopen"].clicked.connect(self._on_reopen_clicked)
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet(f"color: {LEVEL_COLORS['error']};")
        self.hint.hide()
        self.lint_title = _section_title("Lint", self)
        self.lint = QListWidget(self)
        self.lint.setWordWrap(False)
        self.lint.setAlternatingRowColors(True)
        self.lint.setIconSize(QSize(18, 18))
        self.history_title = _section_title("History", self)
        self.history = _make_history_table(self)
        self._lay_out()
        self.clear()

    def _lay_out(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.state_badge, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.last_event, 1)
        row = QHBoxLayout()
        for button in self.buttons.values():
            row.addWidget(button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addLayout(row)
        layout.addWidget(self.hint)
        layout.addWidget(self.lint_title)
        layout.addWidget(self.lint, 1)
        layout.addWidget(self.history_title)
        layout.addWidget(self.history, 1)

    def clear(self) -> None:
        self.review, self.findings = None, []
        self.state_badge.setText("—")
        self.state_badge.setStyleSheet(_badge_style("#f1f3f4", _MUTED))
        self.last_event.setText("No task open.")
        self.history.setRowCount(0)
        self.lint.clear()
        self.lint_title.setText("Lint")
        self.hint.hide()
        self._update_buttons()

    def show_review(self, review: Review) -> None:
        self.review = review
        background, color = STATE_STYLES[review.state]
        self.state_badge.setText(state_text(review.state).upper())
        self.state_badge.setStyleSheet(_badge_style(background, color))
        self.last_event.setText(_last_event_text(review))
        self._fill_history(review)
        self.hint.hide()
        self._update_buttons()

    def show_lint(self, findings: Sequence[LintFinding]) -> None:
        """One line per finding, errors first; errors block submitting."""
        order = {"error": 0, "warning": 1}
        self.findings = sorted(findings, key=lambda f: order.get(level_of(f), 2))
        self.lint.clear()
        for finding in self.findings:
            self.lint.addItem(_finding_item(finding))
        errors = self.error_count()
        warnings = sum(level_of(f) == "warning" for f in self.findings)
        if not self.findings:
            self.lint_title.setText("Lint: no problems found")
        else:
            self.lint_title.setText(
                f"Lint: {_count(errors, 'error')}, {_count(warnings, 'warning')}"
            )
        self._update_buttons()

    def error_count(self) -> int:
        return sum(level_of(f) == "error" for f in self.findings)

    def _ask_comment(self, title: str, prompt: str) -> str | None:
        """The comment for a transition; None when the user cancels (tests replace this)."""
        text, ok = QInputDialog.getMultiLineText(self, title, prompt)
        return text if ok else None

    def _update_buttons(self) -> None:
        allowed = task_review.actions_from(self.review.state) if self.review else []
        for name, button in self.buttons.items():
            button.setEnabled(name in allowed)
        submit = self.buttons["submit"]
        blocker = task_review.lint_blocker(self.findings)
        if "submit" in allowed and blocker:
            submit.setEnabled(False)
            submit.setToolTip(blocker)
        else:
            submit.setToolTip(SUBMIT_TIP)

    def _fill_history(self, review: Review) -> None:
        events = list(reversed(review.history))  # newest first
        self.history.setRowCount(len(events))
        for row, event in enumerate(events):
            cells = (state_text(event.state), event.by, format_time(event.at), event.comment)
            for col, value in enumerate(cells):
                item = QTableWidgetItem(value)
                item.setToolTip(value)
                if col == 0:
                    item.setForeground(QBrush(QColor(STATE_STYLES[event.state][1])))
                self.history.setItem(row, col, item)

    def _transition(self, title: str, prompt: str, required: bool) -> str | None:
        comment = self._ask_comment(title, prompt)
        if comment is None:
            return None
        if required and not comment.strip():
            self.hint.setText("A rejection needs a comment that says what the author must fix.")
            self.hint.show()
            return None
        self.hint.hide()
        return comment.strip()

    def _on_submit_clicked(self) -> None:
        if not task_review.lint_blocker(self.findings):
            self.submit_requested.emit()

    def _on_approve_clicked(self) -> None:
        comment = self._transition("Approve task", "Comment (optional):", required=False)
        if comment is not None:
            self.approve_requested.emit(comment)

    def _on_reject_clicked(self) -> None:
        prompt = "What must the author fix? (required)"
        comment = self._transition("Reject task", prompt, "reject" in task_review.NEEDS_COMMENT)
        if comment is not None:
            self.reject_requested.emit(comment)

    def _on_reopen_clicked(self) -> None:
        comment = self._transition("Reopen task", "Why reopen it? (optional)", required=False)
        if comment is not None:
            self.reopen_requested.emit(comment)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _badge_style(background: str, color: str) -> str:
    return (
        f"background: {background}; color: {color}; font-weight: 700; "
        f"border: 1px solid {color}; border-radius: 4px; padding: 3px 8px;"
    )


def _last_event_text(review: Review) -> str:
    if not review.history:
        return "Never submitted."
    last = review.history[-1]
    who = f" by {last.by}" if last.by else ""
    text = f"{state_text(last.state).capitalize()}{who} on {format_time(last.at)}"
    return f"{text}: “{last.comment}”" if last.comment else text


def _finding_item(finding: LintFinding) -> QListWidgetItem:
    level = level_of(finding)
    item = QListWidgetItem(f"{finding.message}  →  {finding.fix}")
    item.setIcon(level_icon(level))
    item.setForeground(QBrush(QColor(LEVEL_COLORS.get(level, _MUTED))))
    item.setToolTip(f"{level} [{finding.code}]\n{finding.message}\nFix: {finding.fix}")
    item.setData(Qt.ItemDataRole.UserRole, finding.code)
    return item


def level_icon(level: str) -> QIcon:
    """A small filled circle in the level's colour with a white glyph."""
    pixmap = QPixmap(32, 32)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(LEVEL_COLORS.get(level, _MUTED)))
    painter.drawEllipse(2, 2, 28, 28)
    font = painter.font()
    font.setBold(True)
    font.setPixelSize(18)
    painter.setFont(font)
    painter.setPen(QColor("white"))
    glyph = _LEVEL_GLYPHS.get(level, "?")
    painter.drawText(QRectF(0, 0, 32, 32), Qt.AlignmentFlag.AlignCenter, glyph)
    painter.end()
    return QIcon(pixmap)


def _section_title(text: str, parent: QWidget) -> QLabel:
    label = QLabel(text, parent)
    label.setStyleSheet("font-weight: 600; padding-top: 6px;")
    return label


def _make_history_table(parent: QWidget) -> QTableWidget:
    modes = {0: Fit.ResizeToContents, 1: Fit.ResizeToContents, 2: Fit.ResizeToContents}
    return read_only_table(parent, HISTORY_COLUMNS, {**modes, 3: Fit.Stretch})

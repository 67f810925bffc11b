"""Two Scratch projects side by side as block pseudocode, one section per sprite that differs."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.services.core.project_diff import (
    DiffRow,
    ProjectComparison,
    RowKind,
    TargetDiff,
    compare_projects,
)
from studio.views.authoring.diff_pictures import DiffPictures

# Background per row kind for (left, right) cells; an absent side is a neutral grey.
_EMPTY = "#f1f3f4"
ROW_COLORS: dict[RowKind, tuple[str | None, str | None]] = {
    RowKind.SAME: (None, None),
    RowKind.ADDED: (_EMPTY, "#d7f0dd"),
    RowKind.REMOVED: ("#fbdcd9", _EMPTY),
    RowKind.CHANGED: ("#fff1bf", "#fff1bf"),
}
SECTION_COLOR = "#e3e7ee"
GUTTER_COLOR = "#f4f5f7"  # line numbers of unchanged rows, so the two columns read apart
_MARKS = {RowKind.SAME: "", RowKind.ADDED: "+", RowKind.REMOVED: "−", RowKind.CHANGED: "~"}
_NUMBER_COLOR = QColor("#70757a")
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_SUMMARY_STYLE = {
    "diff": "background: #eef3fb; color: #174ea6; font-weight: 600;",
    "same": "background: #e6f4ea; color: #0d652d; font-weight: 600;",
    "idle": "background: #f1f3f4; color: #3c4043;",
    "error": "background: #fdecea; color: #8c1d18; font-weight: 600;",
}
IDENTICAL_TEXT = "The two projects are identical: every script has the same blocks."


class DiffView(QWidget):
    """Shows how one project turns into another: aligned pseudocode and block-edit counts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setMargin(8)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.block_types = QLabel(self)
        self.block_types.setWordWrap(True)
        self.block_types.setStyleSheet("color: #5f6368; padding: 0 8px;")
        self.show_unchanged = QCheckBox("Show unchanged sprites", self)
        self.show_unchanged.toggled.connect(self._on_show_unchanged_toggled)
        self.table = _make_table(self)
        self.message = QLabel(self)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #5f6368; font-size: 13px; padding: 24px;")
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.table)
        self.stack.addWidget(self.message)
        options = QHBoxLayout()
        options.setContentsMargins(8, 2, 8, 2)
        options.addWidget(self.block_types, 1)
        options.addWidget(self.show_unchanged, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.summary)
        layout.addLayout(options)
        layout.addWidget(self.stack, 1)
        self.pictures = DiffPictures(self, options, self.stack)
        self.pictures.toggle.toggled.connect(self._on_show_unchanged_toggled)
        self.comparison: ProjectComparison | None = None
        self._projects: tuple[dict[str, Any], dict[str, Any]] | None = None
        self._titles = ("initial", "golden")
        self.clear()

    def clear(self) -> None:
        self.comparison, self._projects = None, None
        self.table.setRowCount(0)
        self.block_types.clear()
        self._set_summary("idle", "No comparison yet.")
        self._show_message("Choose two projects to compare.")

    def show_diff(
        self,
        left_project: dict[str, Any],
        right_project: dict[str, Any],
        left_title: str = "initial",
        right_title: str = "golden",
    ) -> None:
        """Compare two project.json dicts; the left one is the starting point."""
        self._projects = (left_project, right_project)
        self._titles = (left_title, right_title)
        self._render()

    def show_error(self, message: str) -> None:
        """The projects could not be read (the message names the file)."""
        self.comparison, self._projects = None, None
        self.table.setRowCount(0)
        self.block_types.clear()
        self._set_summary("error", message)
        self._show_message("Nothing to compare.")

    def summary_text(self) -> str:
        return self.summary.text()

    @property
    def titles(self) -> tuple[str, str]:
        """The names of the two sides shown (left, right)."""
        return self._titles

    def shows_session(self) -> bool:
        """Nothing is compared yet, or initial -> golden (what the tab refreshes by itself)."""
        return self._projects is None or self._titles == ("initial", "golden")

    def section_titles(self) -> list[str]:
        """The headline of every target section shown, in order."""
        return [
            item.text()
            for row in range(self.table.rowCount())
            if (item := self.table.item(row, 0)) is not None and self.table.columnSpan(row, 0) > 1
        ]

    def _render(self) -> None:
        if self._projects is None:
            return
        left, right = self._projects
        left_title, right_title = self._titles
        comparison = compare_projects(left, right, self.show_unchanged.isChecked())
        self.comparison = comparison
        summary = comparison.summary
        self.table.setHorizontalHeaderLabels(["", left_title, "", right_title])
        types = ", ".join(summary.block_types) or "none"
        self.block_types.setText(f"Block types in {right_title}: {types}")
        if comparison.identical:
            self._set_summary("same", f"{left_title} → {right_title}: identical")
        else:
            self._set_summary("diff", f"{left_title} → {right_title}: {summary.text(right_title)}")
        if not comparison.targets:
            self._show_message(IDENTICAL_TEXT)
            return
        self._fill(comparison.targets)
        self.stack.setCurrentWidget(self.table)
        if self.pictures.on:
            names = [t.name for t in comparison.targets]
            self.pictures.show(left, right, names, self._titles)

    def _set_summary(self, kind: str, text: str) -> None:
        self.summary.setText(text)
        self.summary.setStyleSheet(_SUMMARY_STYLE[kind])

    def _show_message(self, text: str) -> None:
        self.message.setText(text)
        self.stack.setCurrentWidget(self.message)

    def _fill(self, targets: list[TargetDiff]) -> None:
        self.table.clearSpans()
        self.table.setRowCount(sum(len(t.rows) + 1 for t in targets))
        row = 0
        for target in targets:
            self._add_section(row, target)
            row += 1
            for diff_row in target.rows:
                self._add_row(row, diff_row)
                row += 1

    def _add_section(self, row: int, target: TargetDiff) -> None:
        item = QTableWidgetItem(target.headline())
        font = item.font()
        font.setBold(True)
        item.setFont(font)
        item.setBackground(QBrush(QColor(SECTION_COLOR)))
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        self.table.setItem(row, 0, item)
        self.table.setSpan(row, 0, 1, 4)

    def _add_row(self, row: int, diff: DiffRow) -> None:
        left_bg, right_bg = ROW_COLORS[diff.kind]
        mark = _MARKS[diff.kind]
        cells = (
            (_number(diff.left_no, mark if diff.left is not None else ""), left_bg or GUTTER_COLOR),
            (_code(diff.left), left_bg),
            (
                _number(diff.right_no, mark if diff.right is not None else ""),
                right_bg or GUTTER_COLOR,
            ),
            (_code(diff.right), right_bg),
        )
        for col, (item, background) in enumerate(cells):
            if background is not None:
                item.setBackground(QBrush(QColor(background)))
            item.setData(Qt.ItemDataRole.UserRole, diff.kind.value)
            self.table.setItem(row, col, item)

    def _on_show_unchanged_toggled(self, _checked: bool) -> None:
        self._render()


def _number(value: int | None, mark: str) -> QTableWidgetItem:
    item = QTableWidgetItem("" if value is None else f"{mark}{value}")
    item.setTextAlignment(_RIGHT)
    item.setForeground(QBrush(_NUMBER_COLOR))
    return item


def _code(text: str | None) -> QTableWidgetItem:
    item = QTableWidgetItem(text or "")
    item.setFont(_mono())
    if text:
        item.setToolTip(text.strip())
    return item


def _mono() -> QFont:
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


def _make_table(parent: QWidget) -> QTableWidget:
    table = QTableWidget(0, 4, parent)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setShowGrid(False)
    table.setWordWrap(False)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(22)
    header = table.horizontalHeader()
    header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    for col, mode in enumerate((QHeaderView.ResizeMode.Fixed, QHeaderView.ResizeMode.Stretch) * 2):
        header.setSectionResizeMode(col, mode)
    table.setColumnWidth(0, 44)
    table.setColumnWidth(2, 44)
    return table

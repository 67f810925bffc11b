"""The step timeline: one row per step (index, action, target, duration, outcome, flags).

Failed steps are tinted red, no-op steps grey, repeated actions carry a ⟳ flag. Rows are
appended as a live episode steps; `set_steps` replaces them for a recorded trajectory.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from studio.views.viewer.marks import caption
from studio.views.viewer.steps import FLAG_FAILED, FLAG_NO_OP, FLAG_REPEATED, ViewerStep

COLUMNS = ("#", "Action", "Target", "ms", "Outcome", "Flags")
FAILED_BG = QColor(255, 222, 222)
NO_OP_FG = QColor(130, 130, 130)
REPEATED_BG = QColor(255, 243, 205)
_Index = QModelIndex | QPersistentModelIndex


def action_text(step: ViewerStep) -> str:
    args = step.record.action.get("args") or {}
    return caption(step.api, args if isinstance(args, dict) else {})


def flags_text(step: ViewerStep) -> str:
    parts = []
    if FLAG_FAILED in step.flags:
        parts.append("✗ failed")
    if FLAG_NO_OP in step.flags:
        parts.append("∅ no-op")
    if FLAG_REPEATED in step.flags:
        parts.append("⟳ repeated")
    if step.missing:
        parts.append("missing: " + ", ".join(step.missing))
    return "  ".join(parts)


class TimelineModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.steps: list[ViewerStep] = []

    def set_steps(self, steps: list[ViewerStep]) -> None:
        self.beginResetModel()
        self.steps = list(steps)
        self.endResetModel()

    def append(self, step: ViewerStep) -> None:
        row = len(self.steps)
        self.beginInsertRows(QModelIndex(), row, row)
        self.steps.append(step)
        self.endInsertRows()
        if row > 0:  # the previous step may just have become a no-op
            self.dataChanged.emit(self.index(row - 1, 0), self.index(row - 1, len(COLUMNS) - 1))

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.steps)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index: _Index, role: int = 0) -> Any:
        if not index.isValid():
            return None
        step = self.steps[index.row()]
        record = step.record
        if role == Qt.ItemDataRole.DisplayRole:
            col = index.column()
            if col == 0:
                return record.index
            if col == 1:
                return action_text(step)
            if col == 2:
                return record.target or ""
            if col == 3:
                return f"{record.duration_ms:.0f}"
            if col == 4:
                return "ok" if record.ok else f"error: {record.error}"
            return flags_text(step)
        if role == Qt.ItemDataRole.ToolTipRole:
            if index.column() == 2 and record.target:  # the full target, however it is cut
                return record.target
            return record.error or record.reasoning or None
        if role == Qt.ItemDataRole.BackgroundRole:
            if FLAG_FAILED in step.flags:
                return QBrush(FAILED_BG)
            if FLAG_REPEATED in step.flags:
                return QBrush(REPEATED_BG)
        if role == Qt.ItemDataRole.ForegroundRole and FLAG_NO_OP in step.flags:
            return QBrush(NO_OP_FG)
        if role == Qt.ItemDataRole.FontRole and FLAG_NO_OP in step.flags:
            font = QFont()
            font.setItalic(True)
            return font
        return None

"""A table of diagnostic items, one row each, with the review state coloured."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from studio.models.items import ReviewState

STATE_COLOURS = {
    ReviewState.DRAFT: QColor(120, 120, 120),
    ReviewState.LABELED: QColor(30, 100, 200),
    ReviewState.APPROVED: QColor(0, 130, 60),
    ReviewState.REJECTED: QColor(200, 40, 40),
}
Index = QModelIndex | QPersistentModelIndex


class ItemsModel(QAbstractTableModel):
    """Rows of items; a subclass names the columns and says what a row shows."""

    COLUMNS: tuple[str, ...] = ()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[Any] = []

    # ---- what a subclass says -------------------------------------------------------------
    def key(self, row: Any) -> str:
        """The item's id."""
        raise NotImplementedError

    def cells(self, row: Any) -> tuple[Any, ...]:
        raise NotImplementedError

    def review_state(self, row: Any) -> ReviewState:
        raise NotImplementedError

    def tooltip(self, row: Any) -> str:
        return ""

    # ---- rows ---------------------------------------------------------------------------------
    def set_rows(self, rows: list[Any]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def refresh(self, row_value: Any) -> None:
        """The row with `row_value`'s id shows `row_value` now."""
        row = self.row_of(self.key(row_value))
        if row >= 0:
            self.rows[row] = row_value
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.COLUMNS) - 1))

    def row_of(self, key: str) -> int:
        for row, value in enumerate(self.rows):
            if self.key(value) == key:
                return row
        return -1

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        value = self.rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cells(value)[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and self.COLUMNS[index.column()] == "State":
            return STATE_COLOURS.get(self.review_state(value))
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(value)
        return None

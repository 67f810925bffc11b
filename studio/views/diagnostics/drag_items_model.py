"""The drag items of a folder as a table: id, type, review state, connection, region sizes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from studio.services.drag.item import ItemFolder, load_item
from studio.services.drag.review import ReviewState
from studio.services.errors import StudioError

COLUMNS = ("Item", "Type", "State", "Connection", "Start", "End", "Labels")
STATE_COLOURS = {
    ReviewState.DRAFT: QColor(120, 120, 120),
    ReviewState.LABELED: QColor(30, 100, 200),
    ReviewState.APPROVED: QColor(0, 130, 60),
    ReviewState.REJECTED: QColor(200, 40, 40),
}
Index = QModelIndex | QPersistentModelIndex


def read_folder(root: Path) -> tuple[list[ItemFolder], list[str]]:
    """Every readable item under `root`, and one line per item folder that is not."""
    entries: list[ItemFolder] = []
    problems: list[str] = []
    if not root.is_dir():
        return [], [f"{root}: no such folder"]
    for file in sorted(root.rglob("item.json")):
        try:
            entries.append(load_item(file.parent))
        except StudioError as exc:
            problems.append(str(exc))
    entries.sort(key=lambda e: e.item.id)
    return entries, problems


class DragItemsModel(QAbstractTableModel):
    """One row per item folder."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.entries: list[ItemFolder] = []

    def set_entries(self, entries: list[ItemFolder]) -> None:
        self.beginResetModel()
        self.entries = list(entries)
        self.endResetModel()

    def refresh(self, entry: ItemFolder) -> None:
        """The row of `entry`'s folder shows `entry` now."""
        for row, old in enumerate(self.entries):
            if old.path == entry.path:
                self.entries[row] = entry
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))
                return

    def row_of(self, path: Path) -> int:
        for row, entry in enumerate(self.entries):
            if entry.path == path:
                return row
        return -1

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.entries)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self.entries[index.row()].item
        cfg = item.evaluation_config
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            connection = cfg.connection_type.value
            if cfg.target_input_name:
                connection += f" ({cfg.target_input_name})"
            values = (
                item.id,
                item.category,
                item.review.state.value,
                connection,
                len(cfg.feasible_start_points),
                len(cfg.feasible_points),
                ", ".join(lab.labeler for lab in item.labels),
            )
            return values[col]
        if role == Qt.ItemDataRole.ForegroundRole and col == 2:
            return STATE_COLOURS.get(item.review.state)
        if role == Qt.ItemDataRole.ToolTipRole:
            return item.instruction
        return None

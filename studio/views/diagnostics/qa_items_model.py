"""The perception QA items of a set as a table: id, type, state, ground truth, tag, answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from studio.services.errors import StudioError
from studio.services.qa.item import ITEMS_DIR, QaItem, read_item
from studio.views.diagnostics.drag_items_model import STATE_COLOURS

COLUMNS = ("Item", "Type", "State", "Truth", "Tag", "Answers")
Index = QModelIndex | QPersistentModelIndex


def read_set(root: Path) -> tuple[list[QaItem], list[str]]:
    """Every readable item of the set at `root`, and one line per item file that is not."""
    folder = root / ITEMS_DIR
    if not folder.is_dir():
        return [], [f"{folder}: no such folder (a QA set keeps its items in items/)"]
    items: list[QaItem] = []
    problems: list[str] = []
    for path in sorted(folder.glob("*.json")):
        try:
            items.append(read_item(path))
        except StudioError as exc:
            problems.append(str(exc))
    return items, problems


class QaItemsModel(QAbstractTableModel):
    """One row per QA item; `hide_truth` blanks the ground truth (blind labeling)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.items: list[QaItem] = []
        self.hide_truth = False

    def set_items(self, items: list[QaItem]) -> None:
        self.beginResetModel()
        self.items = list(items)
        self.endResetModel()

    def set_hide_truth(self, hide: bool) -> None:
        self.hide_truth = hide
        if self.items:
            self.dataChanged.emit(self.index(0, 3), self.index(len(self.items) - 1, 3))

    def refresh(self, item: QaItem) -> None:
        """The row of `item`'s id shows `item` now."""
        row = self.row_of(item.task_id)
        if row >= 0:
            self.items[row] = item
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def row_of(self, task_id: str) -> int:
        for row, item in enumerate(self.items):
            if item.task_id == task_id:
                return row
        return -1

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.items)

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
        item = self.items[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            values = (
                item.task_id,
                item.task_type.value,
                item.review.state.value,
                "·" if self.hide_truth else item.ground_truth,
                item.tag,
                len(item.answers),
            )
            return values[col]
        if role == Qt.ItemDataRole.ForegroundRole and col == 2:
            return STATE_COLOURS.get(item.review.state)
        if role == Qt.ItemDataRole.ToolTipRole:
            return item.instruction
        return None

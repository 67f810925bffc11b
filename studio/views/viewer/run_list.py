"""Pick recorded runs from a list instead of a bare folder dialog: one row per run under the
runs folder (agent, task, mode, verdict, steps, date), a filter that matches any column,
sorting by any column (newest first at the start). `RunListDialog(root, pick=1)` opens one run
(double click or Open); `pick=2` asks for two runs to compare (A and B in the order picked).
"Browse…" still offers any folder or exported .zip, for runs kept elsewhere.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.services.runs.trajectories.catalog import RunRow, list_runs

COLUMNS = ("Agent", "Task", "Mode", "Verdict", "Steps", "Date", "Folder")
_SORT = Qt.ItemDataRole.UserRole + 1


class RunListDialog(QDialog):
    """The runs under `root`; `chosen` holds the picked folder(s) once accepted."""

    def __init__(self, root: Path, pick: int = 1, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.root, self.pick = Path(root), pick
        self.chosen: list[Path] = []
        self.setWindowTitle("Open a recorded run" if pick == 1 else "Compare two runs")
        self.resize(980, 520)
        self.rows = list_runs(self.root)
        self.model = QStandardItemModel(0, len(COLUMNS), self)
        self.model.setHorizontalHeaderLabels(list(COLUMNS))
        for row in self.rows:
            self.model.appendRow(_items(row))
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setSortRole(_SORT)
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText("Filter: agent, task, mode, verdict, date…")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.table = QTableView(self)
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(5, Qt.SortOrder.DescendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(
            QAbstractItemView.SelectionMode.SingleSelection
            if pick == 1
            else QAbstractItemView.SelectionMode.MultiSelection
        )
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.doubleClicked.connect(lambda _i: self._accept_if_ready())
        self.hint = QLabel(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel, self
        )
        browse = QPushButton("Browse…", self)
        self.buttons.addButton(browse, QDialogButtonBox.ButtonRole.ActionRole)
        browse.clicked.connect(self._browse)
        self.buttons.accepted.connect(self._accept_if_ready)
        self.buttons.rejected.connect(self.reject)
        self._order: list[int] = []  # source rows in the order they were picked
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.hint)
        layout.addWidget(self.buttons)
        self._update()

    def selected(self) -> list[Path]:
        """The folders of the selected rows, in the order they were picked."""
        return [self.rows[r].folder for r in self._order]

    def _on_selection(self, *_args: object) -> None:
        now = {self.proxy.mapToSource(i).row() for i in self.table.selectionModel().selectedRows()}
        self._order = [r for r in self._order if r in now]
        self._order += sorted(now.difference(self._order))
        self._update()

    def _update(self) -> None:
        picked = len(self.selected())
        ready = picked == self.pick
        open_button = self.buttons.button(QDialogButtonBox.StandardButton.Open)
        open_button.setEnabled(ready)
        if not self.rows:
            self.hint.setText(f"No recorded runs in {self.root}. Browse… opens one kept elsewhere.")
        elif self.pick == 2:
            self.hint.setText(f"Pick two runs (A, then B): {picked} picked.")
        else:
            self.hint.setText(f"{len(self.rows)} runs in {self.root}")

    def _accept_if_ready(self) -> None:
        chosen = self.selected()
        if len(chosen) == self.pick:
            self.chosen = chosen
            self.accept()

    def _browse(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "A run folder", str(self.root))
        if path:
            self.chosen = [*self.selected()[: self.pick - 1], Path(path)]
            if len(self.chosen) == self.pick:
                self.accept()


def _items(row: RunRow) -> list[QStandardItem]:
    date = row.started.astimezone().strftime("%Y-%m-%d %H:%M") if row.started else ""
    values: list[tuple[str, object]] = [
        (row.agent or "?", row.agent),
        (row.task or "?", row.task),
        (row.mode, row.mode),
        (row.verdict or "unreadable", row.verdict),
        (str(row.steps) if not row.problem else "", row.steps),
        (date, row.started.timestamp() if row.started else 0.0),
        (row.folder.name, row.folder.name),
    ]
    items = []
    for text, key in values:
        item = QStandardItem(text)
        item.setData(key, _SORT)
        item.setToolTip(row.problem or str(row.folder))
        items.append(item)
    return items

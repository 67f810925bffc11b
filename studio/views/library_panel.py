"""The task library as a tree grouped by category, with a search box and load errors."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from studio.models.task import Category
from studio.services.errors import TaskFileError
from studio.services.store import LibraryScan, TaskFolder

ERRORS_GROUP = "Failed to load"
_ROLE = Qt.ItemDataRole.UserRole
_ERROR_COLOR = QColor("#b3261e")


class LibraryPanel(QWidget):
    """Lists the tasks of one library folder; selecting a task announces it."""

    task_selected = Signal(object)  # TaskFolder
    task_activated = Signal(object)  # TaskFolder (double click / Enter)
    load_error_selected = Signal(str)  # the message of a task that failed to load

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.root_label = QLabel(self)
        self.root_label.setWordWrap(True)
        self.root_label.setStyleSheet("color: #5f6368; padding: 2px 4px;")
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search tasks (id or instruction)")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._on_search_changed)
        self.tree = QTreeWidget(self)
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.currentItemChanged.connect(self._on_current_item_changed)
        self.tree.itemActivated.connect(self._on_item_activated)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.root_label)
        layout.addWidget(self.search)
        layout.addWidget(self.tree, 1)
        self.entries: dict[str, TaskFolder] = {}
        self.errors: list[TaskFileError] = []

    def set_library(self, root: Path, scan: LibraryScan) -> None:
        """Show the tasks of `scan` (read from `root`) and the folders that failed to load."""
        self.entries = {entry.task.id: entry for entry in scan.tasks}
        self.errors = list(scan.errors)
        self.root_label.setText(f"{root}  ·  {len(scan.tasks)} tasks, {len(scan.errors)} errors")
        self.root_label.setToolTip(str(root))
        self.tree.clear()
        for category in Category:
            group_entries = [e for e in scan.tasks if e.task.category == category]
            if group_entries:
                self._add_group(category.value, group_entries)
        if scan.errors:
            self._add_error_group(scan.errors, root)
        self._on_search_changed(self.search.text())

    def show_error(self, root: Path, message: str) -> None:
        """The library itself could not be read."""
        self.entries, self.errors = {}, []
        self.tree.clear()
        self.root_label.setText(f"{root}: {message}")
        item = QTreeWidgetItem(self.tree, [message])
        item.setForeground(0, QBrush(_ERROR_COLOR))

    def select_task(self, task_id: str) -> bool:
        for item in self._task_items():
            if item.data(0, _ROLE) == task_id:
                self.tree.setCurrentItem(item)
                return True
        return False

    def current_entry(self) -> TaskFolder | None:
        item = self.tree.currentItem()
        task_id = item.data(0, _ROLE) if item is not None else None
        return self.entries.get(task_id) if isinstance(task_id, str) else None

    def error_texts(self) -> list[str]:
        return [str(err) for err in self.errors]

    def _add_group(self, name: str, entries: list[TaskFolder]) -> None:
        group = QTreeWidgetItem(self.tree, [f"{name} ({len(entries)})"])
        group.setFlags(Qt.ItemFlag.ItemIsEnabled)
        for entry in sorted(entries, key=lambda e: e.task.id):
            first_line = (
                entry.task.instruction.strip().splitlines()[0] if entry.task.instruction else ""
            )
            item = QTreeWidgetItem(group, [entry.task.id])
            item.setData(0, _ROLE, entry.task.id)
            item.setToolTip(0, f"{entry.task.id}\n{first_line}\n{entry.folder}")
        group.setExpanded(True)

    def _add_error_group(self, errors: list[TaskFileError], root: Path) -> None:
        group = QTreeWidgetItem(self.tree, [f"{ERRORS_GROUP} ({len(errors)})"])
        group.setFlags(Qt.ItemFlag.ItemIsEnabled)
        group.setForeground(0, QBrush(_ERROR_COLOR))
        for error in errors:
            item = QTreeWidgetItem(group, [f"{_short_path(error.path, root)}: {error.problem}"])
            item.setData(0, _ROLE + 1, str(error))
            item.setForeground(0, QBrush(_ERROR_COLOR))
            item.setToolTip(0, str(error))
        group.setExpanded(True)

    def _task_items(self) -> list[QTreeWidgetItem]:
        items: list[QTreeWidgetItem] = []
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            if group is not None:
                items += [c for j in range(group.childCount()) if (c := group.child(j))]
        return items

    def _on_search_changed(self, text: str) -> None:
        needle = text.strip().lower()
        for item in self._task_items():
            task_id = item.data(0, _ROLE)
            entry = self.entries.get(task_id) if isinstance(task_id, str) else None
            haystack = f"{entry.task.id} {entry.task.instruction}" if entry else item.text(0)
            item.setHidden(bool(needle) and needle not in haystack.lower())

    def _on_current_item_changed(self, current: QTreeWidgetItem | None, _previous: object) -> None:
        if current is None:
            return
        error = current.data(0, _ROLE + 1)
        if isinstance(error, str):
            self.load_error_selected.emit(error)
            return
        entry = self.current_entry()
        if entry is not None:
            self.task_selected.emit(entry)

    def _on_item_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        task_id = item.data(0, _ROLE)
        entry = self.entries.get(task_id) if isinstance(task_id, str) else None
        if entry is not None:
            self.task_activated.emit(entry)


def _short_path(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)

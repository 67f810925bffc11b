"""The task library as a tree grouped by category: search, filters, last check, operations.

Filters: category, review state and author, plus a text search over id and instruction. The
second column shows each task's last check verdict and when it ran. The context menu (and the
window's Library menu) ask for new, duplicate, rename, delete, open folder and restore.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.models.task import Category, ReviewState
from studio.services.core.errors import TaskFileError
from studio.services.core.store import LibraryScan, TaskFolder

ERRORS_GROUP = "Failed to load"
_ROLE = Qt.ItemDataRole.UserRole
_ERROR_COLOR = QColor("#b3261e")
ANY = "any"
VERDICT_COLORS = {"valid": "#1e7b34", "weak": "#9a6700", "flaky": "#9a6700", "invalid": "#b3261e"}


class LibraryPanel(QWidget):
    """Lists the tasks of one library folder; selecting a task announces it."""

    task_selected = Signal(object)  # TaskFolder
    task_activated = Signal(object)  # TaskFolder (double click / Enter)
    load_error_selected = Signal(str)  # the message of a task that failed to load
    new_task_requested = Signal()
    duplicate_requested = Signal(object)  # TaskFolder
    rename_requested = Signal(object)  # TaskFolder
    delete_requested = Signal(object)  # TaskFolder
    open_folder_requested = Signal()
    restore_requested = Signal()
    forge_requested = Signal(object)  # TaskFolder, or None for the whole library

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.root_label = QLabel(self)
        self.root_label.setWordWrap(True)
        self.root_label.setStyleSheet("color: #5f6368; padding: 2px 4px;")
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search tasks (id or instruction)")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._on_search_changed)
        self.category_filter = self._combo("Category", [c.value for c in Category])
        self.review_filter = self._combo("Review state", [r.value for r in ReviewState])
        self.author_filter = self._combo("Author", [])
        filters = QHBoxLayout()
        filters.setSpacing(4)
        for combo in (self.category_filter, self.review_filter, self.author_filter):
            filters.addWidget(combo, 1)
        self.tree = QTreeWidget(self)
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Task", "Last check"])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setColumnWidth(0, 190)
        self.tree.currentItemChanged.connect(self._on_current_item_changed)
        self.tree.itemActivated.connect(self._on_item_activated)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._on_context_menu)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.root_label)
        layout.addWidget(self.search)
        layout.addLayout(filters)
        layout.addWidget(self.tree, 1)
        self.entries: dict[str, TaskFolder] = {}
        self.errors: list[TaskFileError] = []
        self.checks: dict[str, tuple[str, datetime | None]] = {}  # id -> (verdict, when)

    def _combo(self, label: str, values: list[str]) -> QComboBox:
        combo = QComboBox(self)
        combo.setToolTip(f"Show only tasks with this {label.lower()}")
        combo.addItem(f"{label}: {ANY}", ANY)
        for value in values:
            combo.addItem(value.replace("_", " "), value)
        combo.currentIndexChanged.connect(lambda _i: self._apply_filters())
        return combo

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
        self._fill_authors()
        self._apply_filters()

    def set_checks(self, checks: dict[str, tuple[str, datetime | None]]) -> None:
        """Show each task's last check verdict and when it ran (id -> (verdict, when))."""
        self.checks = dict(checks)
        for item in self._task_items():
            self._show_check(item)

    def set_check(self, task_id: str, verdict: str, when: datetime | None) -> None:
        self.checks[task_id] = (verdict, when)
        for item in self._task_items():
            if item.data(0, _ROLE) == task_id:
                self._show_check(item)

    def check_text(self, task_id: str) -> str:
        for item in self._task_items():
            if item.data(0, _ROLE) == task_id:
                return item.text(1)
        return ""

    def visible_ids(self) -> list[str]:
        return [str(i.data(0, _ROLE)) for i in self._task_items() if not i.isHidden()]

    def set_filter(self, which: str, value: str) -> None:
        """Pick a filter value ("category", "review", "author"; ANY for all)."""
        combo = {"category": self.category_filter, "review": self.review_filter}.get(
            which, self.author_filter
        )
        combo.setCurrentIndex(max(0, combo.findData(value)))

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
            item = QTreeWidgetItem(group, [entry.task.id, ""])
            item.setData(0, _ROLE, entry.task.id)
            state = entry.task.review.state.value.replace("_", " ")
            item.setToolTip(0, f"{entry.task.id} ({state})\n{first_line}\n{entry.folder}")
            self._show_check(item)
        group.setExpanded(True)

    def _show_check(self, item: QTreeWidgetItem) -> None:
        verdict, when = self.checks.get(str(item.data(0, _ROLE)), ("", None))
        item.setText(1, f"{verdict} · {_ago(when)}" if verdict else "not checked")
        item.setForeground(1, QBrush(QColor(VERDICT_COLORS.get(verdict, "#5f6368"))))
        item.setToolTip(1, f"last check: {verdict} at {when:%Y-%m-%d %H:%M} UTC" if when else "")

    def _fill_authors(self) -> None:
        current = self.author_filter.currentData()
        authors = sorted({e.task.author for e in self.entries.values() if e.task.author})
        self.author_filter.blockSignals(True)
        while self.author_filter.count() > 1:
            self.author_filter.removeItem(1)
        for author in authors:
            self.author_filter.addItem(author, author)
        self.author_filter.setCurrentIndex(max(0, self.author_filter.findData(current)))
        self.author_filter.blockSignals(False)

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

    def _on_search_changed(self, _text: str) -> None:
        self._apply_filters()

    def _apply_filters(self) -> None:
        needle = self.search.text().strip().lower()
        wanted = {
            "category": self.category_filter.currentData(),
            "review": self.review_filter.currentData(),
            "author": self.author_filter.currentData(),
        }
        for item in self._task_items():
            task_id = item.data(0, _ROLE)
            entry = self.entries.get(task_id) if isinstance(task_id, str) else None
            if entry is None:
                item.setHidden(bool(needle) and needle not in item.text(0).lower())
                continue
            task = entry.task
            values = {
                "category": task.category.value,
                "review": task.review.state.value,
                "author": task.author,
            }
            shown = all(v in (ANY, None) or values[k] == v for k, v in wanted.items())
            haystack = f"{task.id} {task.instruction}".lower()
            item.setHidden(not shown or (bool(needle) and needle not in haystack))

    def _on_context_menu(self, point: QPoint) -> None:
        menu = self.context_menu(self.current_entry())
        menu.popup(self.tree.viewport().mapToGlobal(point))

    def context_menu(self, entry: TaskFolder | None) -> QMenu:
        """The operations on the library and on `entry` (the selected task)."""
        menu = QMenu(self)
        menu.addAction("New task…", self.new_task_requested.emit)
        menu.addAction("Open task folder…", self.open_folder_requested.emit)
        if entry is not None:
            menu.addSeparator()
            menu.addAction(
                f"Duplicate {entry.task.id}…", lambda: self.duplicate_requested.emit(entry)
            )
            menu.addAction(f"Rename {entry.task.id}…", lambda: self.rename_requested.emit(entry))
            menu.addAction(f"Delete {entry.task.id}…", lambda: self.delete_requested.emit(entry))
        menu.addSeparator()
        menu.addAction("Restore a deleted task…", self.restore_requested.emit)
        menu.addSeparator()
        forge_from = f"from {entry.task.id}" if entry is not None else "from the library"
        menu.addAction(f"Forge debug tasks {forge_from}…", lambda: self.forge_requested.emit(entry))
        if entry is not None:
            menu.addAction(
                "Forge debug tasks from the library…", lambda: self.forge_requested.emit(None)
            )
        return menu

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


def _ago(when: datetime | None) -> str:
    if when is None:
        return "?"
    seconds = (datetime.now(UTC) - when.astimezone(UTC)).total_seconds()
    for size, unit in ((86400, "d"), (3600, "h"), (60, "min")):
        if seconds >= size:
            return f"{int(seconds // size)} {unit} ago"
    return "just now"


def _short_path(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)

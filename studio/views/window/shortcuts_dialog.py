"""Every keyboard shortcut of the window, grouped by menu and searchable."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QBrush, QColor, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

OTHER_GROUP = "Other"
KEYS_COLOR = "#174ea6"
GROUP_COLOR = "#eceff3"


@dataclass(frozen=True)
class ShortcutRow:
    """One command: its group (menu), its text without mnemonics, its keys, what it does."""

    group: str
    command: str
    keys: str
    tip: str = ""

    def matches(self, needle: str) -> bool:
        haystack = f"{self.group} {self.command} {self.keys} {self.tip}".lower()
        return all(word in haystack for word in needle.lower().split())


def plain_text(text: str) -> str:
    """Menu text without its '&' mnemonics ('&&' stays a literal '&')."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def native_keys(action: QAction) -> str:
    fmt = QKeySequence.SequenceFormat.NativeText
    return ", ".join(seq.toString(fmt) for seq in action.shortcuts() if not seq.isEmpty())


def menu_of(action: QAction) -> str:
    """The title of the first menu that holds the action, else OTHER_GROUP."""
    for owner in action.associatedObjects():
        if isinstance(owner, QMenu) and owner.title():
            return plain_text(owner.title())
    return OTHER_GROUP


def shortcut_rows(
    actions: Iterable[QAction] | Mapping[str, Iterable[QAction]],
    extra: Iterable[ShortcutRow] = (),
) -> list[ShortcutRow]:
    """Rows for the actions that have a shortcut, sorted by group (Other last), then command.

    A mapping names the groups itself; a plain list is grouped by the menus the actions are in.
    """
    pairs: list[tuple[str, QAction]]
    if isinstance(actions, Mapping):
        pairs = [(group, a) for group, group_actions in actions.items() for a in group_actions]
    else:
        pairs = [(menu_of(a), a) for a in actions]
    rows = {
        ShortcutRow(group, plain_text(a.text()), native_keys(a), a.statusTip())
        for group, a in pairs
        if native_keys(a)
    }
    rows.update(extra)
    return sorted(rows, key=lambda r: (r.group == OTHER_GROUP, r.group.lower(), r.command.lower()))


class ShortcutsDialog(QDialog):
    """A read-only list of commands and their keys with a filter box."""

    def __init__(
        self,
        actions: Iterable[QAction] | Mapping[str, Iterable[QAction]],
        parent: QWidget | None = None,
        extra: Iterable[ShortcutRow] = (),
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.resize(520, 620)
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Filter by command or key (e.g. “save”, “ctrl+s”)")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._on_search_changed)
        self.tree = QTreeWidget(self)
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Command", "Shortcut"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setIndentation(14)
        self.tree.setStyleSheet("QTreeWidget::item { padding: 3px 2px; }")
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setStretchLastSection(False)
        self.empty = QLabel(self)
        self.empty.setStyleSheet("color: #5f6368; padding: 6px;")
        self.empty.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.empty)
        layout.addWidget(buttons)
        self.all_rows = shortcut_rows(actions, extra)
        self._fill()
        self.search.setFocus()

    def rows(self) -> list[ShortcutRow]:
        """The rows currently shown (after filtering), in order."""
        return [
            item.data(0, Qt.ItemDataRole.UserRole)
            for group in self._groups()
            for item in _children(group)
            if not item.isHidden()
        ]

    def _groups(self) -> list[QTreeWidgetItem]:
        items = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        return [item for item in items if item is not None]

    def _fill(self) -> None:
        groups: dict[str, QTreeWidgetItem] = {}
        for row in self.all_rows:
            group = groups.get(row.group)
            if group is None:
                group = groups[row.group] = QTreeWidgetItem(self.tree, [row.group])
                group.setFlags(Qt.ItemFlag.ItemIsEnabled)
                group.setFirstColumnSpanned(True)
                font = group.font(0)
                font.setBold(True)
                group.setFont(0, font)
                group.setBackground(0, QBrush(QColor(GROUP_COLOR)))
                group.setExpanded(True)
            item = QTreeWidgetItem(group, [row.command, row.keys])
            item.setData(0, Qt.ItemDataRole.UserRole, row)
            item.setToolTip(0, row.tip or row.command)
            item.setForeground(1, QBrush(QColor(KEYS_COLOR)))
        self._on_search_changed(self.search.text())

    def _on_search_changed(self, text: str) -> None:
        needle = text.strip()
        visible = 0
        for group in self._groups():
            shown = 0
            for child in _children(group):
                row = child.data(0, Qt.ItemDataRole.UserRole)
                hide = bool(needle) and not row.matches(needle)
                child.setHidden(hide)
                shown += not hide
            group.setHidden(shown == 0)
            visible += shown
        self.empty.setText(f"No shortcut matches “{needle}”." if needle else "No shortcuts.")
        self.empty.setVisible(visible == 0)


def _children(group: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    items = (group.child(j) for j in range(group.childCount()))
    return [item for item in items if item is not None]

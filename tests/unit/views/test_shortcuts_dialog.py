"""The shortcuts dialog lists commands by menu, without mnemonics, and filters them."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow

from studio.views.window.shortcuts_dialog import (
    OTHER_GROUP,
    ShortcutRow,
    ShortcutsDialog,
    plain_text,
    shortcut_rows,
)


def _window(qtbot: Any) -> tuple[QMainWindow, dict[str, QAction]]:
    window = QMainWindow()
    qtbot.addWidget(window)

    def make(text: str, keys: list[str], tip: str = "") -> QAction:
        action = QAction(text, window)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setStatusTip(tip)
        return action

    actions = {
        "save": make("&Save task", ["Ctrl+S"], "Save projects, script and form"),
        "evaluate": make("&Evaluate", ["F5", "Ctrl+R"], "Run the script"),
        "check": make("&Check task", ["F6"], "Run the adversarial check"),
        "quit": make("&Quit", ["Ctrl+Q"]),
        "restore": make("Restore deleted task…", []),  # no key: not listed
        "drag": make("Drag && drop", ["Ctrl+Shift+D"]),  # in no menu
    }
    file_menu = window.menuBar().addMenu("&File")
    file_menu.addAction(actions["quit"])
    task_menu = window.menuBar().addMenu("&Task")
    for name in ("save", "evaluate", "check", "restore"):
        task_menu.addAction(actions[name])
    return window, actions


def _shown(dialog: ShortcutsDialog) -> list[tuple[str, str, str]]:
    return [(r.group, r.command, r.keys) for r in dialog.rows()]


def test_actions_are_grouped_by_menu_and_sorted(qtbot: Any) -> None:
    window, actions = _window(qtbot)
    dialog = ShortcutsDialog(list(actions.values()), window)
    qtbot.addWidget(dialog)
    assert _shown(dialog) == [
        ("File", "Quit", "Ctrl+Q"),
        ("Task", "Check task", "F6"),
        ("Task", "Evaluate", "F5, Ctrl+R"),
        ("Task", "Save task", "Ctrl+S"),
        (OTHER_GROUP, "Drag & drop", "Ctrl+Shift+D"),
    ]
    groups = [dialog.tree.topLevelItem(i).text(0) for i in range(dialog.tree.topLevelItemCount())]
    assert groups == ["File", "Task", "Other"]
    evaluate = dialog.tree.topLevelItem(1).child(1)
    assert (evaluate.text(0), evaluate.text(1)) == ("Evaluate", "F5, Ctrl+R")
    assert evaluate.toolTip(0) == "Run the script"


def test_the_filter_matches_command_keys_and_description(qtbot: Any) -> None:
    window, actions = _window(qtbot)
    extra = [ShortcutRow("Script editor", "Run the script", "Ctrl+Return")]
    dialog = ShortcutsDialog(list(actions.values()), window, extra=extra)
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.search, "ctrl+r")
    assert _shown(dialog) == [
        ("Script editor", "Run the script", "Ctrl+Return"),
        ("Task", "Evaluate", "F5, Ctrl+R"),
    ]
    assert dialog.tree.topLevelItem(0).isHidden()  # File has nothing left
    dialog.search.setText("adversarial")
    assert _shown(dialog) == [("Task", "Check task", "F6")]
    dialog.search.setText("task save")  # every word must match somewhere
    assert _shown(dialog) == [("Task", "Save task", "Ctrl+S")]
    dialog.search.setText("nothing like this")
    assert _shown(dialog) == []
    assert not dialog.empty.isHidden()
    assert dialog.empty.text() == "No shortcut matches “nothing like this”."
    dialog.search.clear()
    assert len(_shown(dialog)) == 6 and dialog.empty.isHidden()


def test_named_groups_and_mnemonics(qapp: Any) -> None:
    action = QAction("Re&name && move…")
    action.setShortcut(QKeySequence("F2"))
    assert shortcut_rows({"Library": [action]}) == [
        ShortcutRow("Library", "Rename & move…", "F2", "")
    ]
    assert plain_text("&&Save &all") == "&Save all"

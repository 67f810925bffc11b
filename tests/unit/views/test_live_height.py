"""Issue 31 (room to see): while an episode plays, the editor gets the episode's screen height
(720 px in the window): the toolbar, the document bar and the status bar give way, the tabs
shrink to their live minimum, and the window grows taller only when that is not enough, never
past its screen; everything is given back after the episode."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.views.live.height import TABS_LIVE_MIN, LiveHeight


def _window(
    qtbot: Any, height: int, run_min: int = 250
) -> tuple[QMainWindow, QWidget, QTabWidget, LiveHeight]:
    window = QMainWindow()
    qtbot.addWidget(window)
    toolbar = window.addToolBar("tools")
    toolbar.addAction("Evaluate")
    window.statusBar().showMessage("ready")
    splitter = QSplitter(Qt.Orientation.Vertical, window)
    splitter.setChildrenCollapsible(False)
    top = QWidget(splitter)
    column = QVBoxLayout(top)
    column.setContentsMargins(0, 0, 0, 0)
    bar, editor = QLabel("create_cat_walk (draft)"), QLabel("editor")
    bar.setObjectName("bar")
    bar.setMinimumHeight(30)
    column.addWidget(bar)
    column.addWidget(editor, 1)
    tabs = QTabWidget(splitter)
    run = QLabel("run steps")
    run.setMinimumHeight(run_min)  # the Run tab's table and step detail, as laid out for a run
    tabs.addTab(run, "Run")
    splitter.addWidget(top)
    splitter.addWidget(tabs)
    window.setCentralWidget(splitter)
    window.resize(600, height)
    window.move(0, 0)
    window.show()
    qtbot.waitExposed(window)
    collapse = [toolbar, bar, window.statusBar()]
    return window, editor, tabs, LiveHeight(window, splitter, top, editor, tabs, collapse)


def _settle() -> None:
    QApplication.processEvents()


def test_what_is_not_needed_gives_way_and_comes_back(qtbot: Any) -> None:
    window, editor, tabs, live = _window(qtbot, 480)
    hint = tabs.minimumSizeHint().height()
    assert editor.height() < 300  # the tabs' minimum leaves the editor less than it needs
    live.make_room(300)
    _settle()
    assert editor.height() >= 300 and window.height() == 480  # collapsing was enough
    bar = window.findChild(QLabel, "bar")
    assert not window.statusBar().isVisible() and not bar.isVisible()
    assert tabs.height() >= TABS_LIVE_MIN
    live.restore()
    _settle()
    assert window.statusBar().isVisible() and bar.isVisible()
    assert tabs.minimumSizeHint().height() == hint and tabs.height() >= hint
    assert window.height() == 480


def test_the_window_grows_when_it_must_but_never_past_its_screen(qtbot: Any) -> None:
    window, editor, _tabs, live = _window(qtbot, 330, run_min=150)
    screen = window.screen().availableGeometry()
    assert window.height() == 330
    live.make_room(320)
    _settle()
    assert editor.height() >= 320 and window.height() > 330
    assert screen.contains(window.frameGeometry())
    live.restore()
    _settle()
    assert window.height() == 330

    live.make_room(screen.height() * 2)  # more than the screen has
    _settle()
    assert window.frameGeometry().height() <= screen.height()
    assert screen.contains(window.frameGeometry())
    live.restore()
    _settle()
    assert window.height() == 330


def test_an_editor_tall_enough_changes_nothing(qtbot: Any) -> None:
    window, editor, _tabs, live = _window(qtbot, 700)
    live.make_room(editor.height())
    assert not live.made_room and window.statusBar().isVisible()

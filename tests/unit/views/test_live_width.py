"""Issue 31: while an episode plays, the editor's column gets the episode's width across when
the screen allows it (the library pane gives way first, then the window widens, never past its
screen), and everything is given back after the episode."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QSplitter

from studio.views.live.width import LiveWidth


def _window(qtbot: Any, width: int) -> tuple[QMainWindow, QSplitter, QLabel, QLabel, LiveWidth]:
    window = QMainWindow()
    qtbot.addWidget(window)
    main = QSplitter(Qt.Orientation.Horizontal, window)
    main.setChildrenCollapsible(False)
    left, column = QLabel("library", main), QLabel("editor", main)
    main.addWidget(left)
    main.addWidget(column)
    window.setCentralWidget(main)
    window.resize(width, 400)
    window.move(0, 0)
    main.setSizes([width // 3, width - width // 3])
    window.show()
    qtbot.waitExposed(window)
    return window, main, left, column, LiveWidth(window, main, left, column)


def _settle() -> None:
    QApplication.processEvents()


def test_the_library_gives_way_and_comes_back(qtbot: Any) -> None:
    window, main, left, column, live = _window(qtbot, 700)
    before = main.sizes()
    assert column.width() < 600
    live.widen(600)
    _settle()
    assert not left.isVisible() and column.width() >= 600
    assert window.width() == 700  # hiding the library was enough
    live.restore()
    _settle()
    assert left.isVisible() and main.sizes() == before and window.width() == 700


def test_the_window_widens_when_it_must_but_never_past_its_screen(qtbot: Any) -> None:
    window, _main, left, column, live = _window(qtbot, 450)
    screen = window.screen().availableGeometry()
    live.widen(600)
    _settle()
    assert not left.isVisible() and column.width() >= 600 and window.width() <= screen.width()
    live.restore()
    _settle()
    assert window.width() == 450 and left.isVisible()

    live.widen(screen.width() * 2)  # more than the screen has
    _settle()
    assert window.frameGeometry().width() <= screen.width()
    assert screen.contains(window.frameGeometry())
    live.restore()
    _settle()
    assert window.width() == 450


def test_a_column_wide_enough_changes_nothing(qtbot: Any) -> None:
    _win, main, left, _column, live = _window(qtbot, 760)
    before = main.sizes()
    live.widen(300)
    assert not live.widened and left.isVisible() and main.sizes() == before

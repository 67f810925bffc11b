"""How the main window is laid out: library and details left; the document bar and the
editor above the tabs (task form, script, results, checks, diff, review, run) right. The
window's geometry and its splitters' state are remembered in the settings file."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QSplitter, QTabWidget, QVBoxLayout, QWidget

from studio.views.widgets.settings import open_settings

DEFAULT_SIZE = (1500, 940)
SCREEN_MARGIN = 24  # room left around a first window on a screen smaller than the default


def build(
    window: QMainWindow,
    left: Sequence[QWidget],
    bar: QWidget,
    editor: QWidget,
    tabs: QTabWidget,
    pages: Sequence[tuple[QWidget, str]],
) -> dict[str, QSplitter]:
    """Lay the panes out in `window`: `left` (library, details) stacked on the left; on the
    right the document `bar` and the `editor` above `tabs`, which get `pages` (widget, label)
    in order. Returns the splitters by name (their state is saved)."""
    left_split = _splitter(Qt.Orientation.Vertical, "left", list(left), [560, 300])
    top = QWidget(window)
    column = QVBoxLayout(top)
    column.setContentsMargins(0, 0, 0, 0)
    column.setSpacing(0)
    column.addWidget(bar)
    column.addWidget(editor, 1)
    for widget, label in pages:
        tabs.addTab(widget, label)
    tabs.setDocumentMode(True)
    right = _splitter(Qt.Orientation.Vertical, "right", [top, tabs], [640, 260])
    main = _splitter(Qt.Orientation.Horizontal, "main", [left_split, right], [300, 1300])
    main.setStretchFactor(1, 1)
    right.setStretchFactor(0, 1)
    window.setCentralWidget(main)
    return {"main": main, "left": left_split, "right": right}


def restore(window: QMainWindow, splitters: dict[str, QSplitter]) -> None:
    """Give `window` and its `splitters` the geometry and state saved last (else the default
    size); either way the window fits the screen's available area."""
    settings = open_settings()
    geometry = settings.value("window/geometry")
    if isinstance(geometry, QByteArray) and not geometry.isEmpty():
        window.restoreGeometry(geometry)
    else:
        window.resize(*DEFAULT_SIZE)
    fit_screen(window)
    for name, splitter in splitters.items():
        state = settings.value(f"splitters/{name}")
        if isinstance(state, QByteArray) and not state.isEmpty():
            splitter.restoreState(state)


def fit_screen(window: QWidget) -> None:
    """Shrink `window` to its screen's available area (less a margin) and move it inside."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return
    area = screen.availableGeometry()
    width = min(window.width(), max(area.width() - SCREEN_MARGIN, 320))
    height = min(window.height(), max(area.height() - SCREEN_MARGIN, 240))
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
    frame = window.frameGeometry()
    if not area.contains(frame):
        x = min(max(frame.x(), area.x()), area.right() + 1 - frame.width())
        y = min(max(frame.y(), area.y()), area.bottom() + 1 - frame.height())
        window.move(max(x, area.x()), max(y, area.y()))


def save(window: QMainWindow, splitters: dict[str, QSplitter]) -> None:
    """Remember `window`'s geometry and its `splitters`' state for the next start."""
    settings = open_settings()
    settings.setValue("window/geometry", window.saveGeometry())
    for name, splitter in splitters.items():
        settings.setValue(f"splitters/{name}", splitter.saveState())
    settings.sync()


def _splitter(
    orientation: Qt.Orientation, name: str, widgets: list[QWidget], sizes: list[int]
) -> QSplitter:
    splitter = QSplitter(orientation)
    splitter.setObjectName(f"{name}-splitter")
    splitter.setChildrenCollapsible(False)
    for widget in widgets:
        splitter.addWidget(widget)
    splitter.setSizes(sizes)
    return splitter

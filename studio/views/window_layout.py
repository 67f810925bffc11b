"""How the main window is laid out: library and details left; the document bar and the
editor above the tabs (task form, script, results, checks, diff, review) right."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from studio.views.main_window import MainWindow


def build(window: MainWindow) -> dict[str, QSplitter]:
    """Build the panes into `window`; returns its splitters by name (their state is saved)."""
    left = _splitter(Qt.Orientation.Vertical, "left", [window.library, window.details], [560, 300])
    top = QWidget(window)
    column = QVBoxLayout(top)
    column.setContentsMargins(0, 0, 0, 0)
    column.setSpacing(0)
    column.addWidget(window.bar)
    column.addWidget(window.editor, 1)
    for widget, label in (
        (window.form, "Task"),
        (window.script, "Script"),
        (window.results, "Results"),
        (window.checks, "Checks"),
        (window.diff, "Diff"),
        (window.review, "Review"),
        (window.run_panel, "Run"),
    ):
        window.tabs.addTab(widget, label)
    window.tabs.setDocumentMode(True)
    right = _splitter(Qt.Orientation.Vertical, "right", [top, window.tabs], [640, 260])
    main = _splitter(Qt.Orientation.Horizontal, "main", [left, right], [300, 1300])
    main.setStretchFactor(1, 1)
    right.setStretchFactor(0, 1)
    window.setCentralWidget(main)
    return {"main": main, "left": left, "right": right}


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

"""Library -> Set statistics… (issue 42, point 3): the dialog shows `studio stats`' figures of
the window's library (the bundled one here) as a table and bar charts, says when a library has
no task, and Escape closes it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QApplication

from studio.services.authoring.set_stats import set_stats
from studio.services.core import paths
from studio.services.core.store import LibraryScan, scan_library
from studio.views.library.stats_dialog import open_set_stats
from studio.views.shell.actions import StudioActions
from studio.views.shell.studio_shell import LibraryLookup


def _lookup(root: Path, scan: LibraryScan | None) -> LibraryLookup:
    async def read() -> LibraryScan | None:
        return scan

    return LibraryLookup(root=lambda: root, scan=read, selected=lambda: None, find=lambda _: None)


def test_the_dialog_shows_the_bundled_librarys_figures_and_escape_closes_it(qtbot: Any) -> None:
    root = paths.BUNDLED_TASKS
    scan = scan_library(root)
    dialog = asyncio.run(open_set_stats(None, _lookup(root, scan)))
    qtbot.addWidget(dialog)
    stats = set_stats(scan.tasks)
    table = dialog.table
    rows = {table.item(r, 0).text(): r for r in range(table.rowCount())}
    assert list(rows) == [*stats["categories"], "all"]
    head = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    modified = head.index("Modified mean")
    assert table.item(rows["all"], 1).text() == str(len(scan.tasks))
    assert (
        table.item(rows["all"], modified).text()
        == f"{stats['overall']['modified_blocks']['mean']:.2f}"
    )
    assert set(dialog.charts) == {"tasks", "difficulty", "modified", "block_categories", "review"}
    assert all(w.renderer().isValid() for w in dialog.charts.values())
    assert f"{stats['overall']['block_types']} block types" in dialog.summary.text()
    with qtbot.waitSignal(dialog.finished):
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)


def test_an_empty_library_is_said_not_shown_as_zeros(qtbot: Any, tmp_path: Path) -> None:
    dialog = asyncio.run(open_set_stats(None, _lookup(tmp_path, LibraryScan([], []))))
    qtbot.addWidget(dialog)
    assert "holds no task folder" in dialog.summary.text()
    assert dialog.table.rowCount() == 0 and not dialog.charts


def test_a_dialog_closed_before_the_figures_come_is_left_alone(qtbot: Any) -> None:
    root = paths.BUNDLED_TASKS
    scan = scan_library(root)

    async def close_then_read() -> LibraryScan | None:
        for widget in QApplication.topLevelWidgets():
            if widget.objectName() == "set-stats-dialog" and widget.isVisible():
                widget.close()  # Qt deletes it (WA_DeleteOnClose)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        return scan

    lookup = LibraryLookup(
        root=lambda: root, scan=close_then_read, selected=lambda: None, find=lambda _: None
    )
    dialog = asyncio.run(open_set_stats(None, lookup))
    assert dialog.closed and not dialog.charts  # nothing drawn into a deleted dialog


def test_the_library_menu_offers_it(qtbot: Any) -> None:
    from PySide6.QtWidgets import QMainWindow

    window = QMainWindow()
    qtbot.addWidget(window)
    actions = StudioActions(window)
    assert actions.set_statistics in actions.library_actions
    assert actions.set_statistics.text() == "Set &statistics…"

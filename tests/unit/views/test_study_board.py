"""The study board window: participants x queue positions, state per cell, a double click
opens the cell's run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.services.core import paths
from studio.services.studies.plan import new_study, save_study
from tests.unit.studies.test_desk import _clicks, _desk, _end, _project, _skip_practice


def test_the_board_shows_each_cell_and_opens_its_run(qtbot: Any, tmp_path: Path) -> None:
    from studio.views.sessions.study_board import COLOURS, StudyBoard

    folder = tmp_path / "study"
    plan = new_study(paths.BUNDLED_TASKS, folder, 2, seed=1, task_ids=["create_cat_walk",
                     "debug_score_reset"])  # fmt: skip
    plan.break_s = 0
    save_study(folder, plan)
    desk = _desk((folder, plan))
    desk.claim("tab-aaaaaaaa")
    desk.consent()
    _skip_practice((folder, plan), desk)
    desk.start()
    desk.events(_clicks(2))
    _end(desk, "done", _project((folder, plan), plan.participants[0].queue[0]))
    desk.start()  # the second task is in progress

    board = StudyBoard(folder, refresh_ms=60_000)
    qtbot.addWidget(board)
    first = plan.participants[0]
    assert board.table.rowCount() == 2 and board.table.columnCount() == 3
    assert board.table.item(0, 0).text() == first.code
    done = board.table.item(0, 1)
    assert done.text().startswith(first.queue[0]) and "finished: passed" in done.text()
    assert "2 actions" in done.text()
    assert "in progress" in board.table.item(0, 2).text()
    assert board.table.item(1, 1).text().endswith("waiting")
    assert board.table.item(1, 1).background().color().name() == COLOURS["waiting"]
    assert "2 waiting, 1 in progress, 1 finished" in board.totals.text()
    board.opened.disconnect()
    seen: list[str] = []
    board.opened.connect(seen.append)
    board.table.cellDoubleClicked.emit(0, 1)
    board.table.cellDoubleClicked.emit(1, 1)  # waiting: no run to open
    assert len(seen) == 1 and seen[0].endswith(f"01-{first.queue[0]}")


def test_the_window_docks_the_board_and_reads_only_while_it_is_shown(
    qtbot: Any, tmp_path: Path
) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

    from studio.views.sessions.study_board import StudyBoard, dock_board

    folder = tmp_path / "study"
    new_study(paths.BUNDLED_TASKS, folder, 3, per=1, seed=2, task_ids=["create_cat_walk"])
    window = QMainWindow()
    window.setCentralWidget(QWidget())
    qtbot.addWidget(window)
    window.show()
    dock = dock_board(window, folder)
    assert dock is not None and not dock.isFloating() and dock.parent() is window
    assert window.dockWidgetArea(dock) == Qt.DockWidgetArea.BottomDockWidgetArea
    board = dock.widget()
    assert isinstance(board, StudyBoard) and not board.isWindow()
    assert board.table.rowCount() == 3 and "3 waiting" in board.totals.text()
    qtbot.waitUntil(board.isVisible)
    assert board.timer.isActive()
    dock.close()  # closed: hidden, and no more reading of the runs
    qtbot.waitUntil(lambda: not board.timer.isActive())
    again = dock_board(window, folder)  # the same study: the same dock, shown again
    assert again is dock and len(window.findChildren(QDockWidget)) == 1
    qtbot.waitUntil(board.timer.isActive)
    dock.setFloating(True)  # a window of its own when wanted
    assert dock.isWindow()

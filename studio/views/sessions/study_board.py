"""The live board of a human baseline study: participants x their queues, with state.

`StudyBoard(folder)` shows the study in `folder` (`studio study board STUDY`, a window of its
own, or the window's Run ▸ Study board…, a dock of the main window, `dock_board`): one row per
participant (their pseudonymous code), one column per position of the queue, each cell the
task and its state (waiting, in progress with the time so far, finished with the verdict,
gave up or the time limit, interrupted), coloured by state, and the totals below. It reads
the runs again every `refresh_ms` (the server writes them; the board only reads). A double
click on a cell with a run emits `opened` with the run's folder; by default that opens the
run in the studio's viewer (`studio view FOLDER`, a window of its own).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QHeaderView,
    QLabel,
    QMainWindow,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.models.errors import StudioError
from studio.services.studies import board as studies_board
from studio.services.studies.plan import load_study
from studio.views.widgets.tables import read_only_table

COLOURS = {
    "waiting": "#f2f4f7",
    "in progress": "#fff3cd",
    "finished": "#d4edda",
    "gave up": "#f8d7da",
    "interrupted": "#e2d9f3",
}
FAILED_COLOUR = "#fde2c4"  # finished, but the program did not pass


class StudyBoard(QWidget):
    """See the module docstring."""

    opened = Signal(str)

    def __init__(self, folder: Path, parent: QWidget | None = None, refresh_ms: int = 2000):
        super().__init__(parent)
        self.folder = Path(folder)
        self.setWindowTitle(f"Study {self.folder.name} — Scratch Bench Studio")
        self.title = QLabel(self)
        self.title.setWordWrap(True)
        self.totals = QLabel(self)
        self.table = read_only_table(self, ["Participant"], {0: QHeaderView.ResizeMode.Fixed})
        self.table.setWordWrap(True)
        self.table.verticalHeader().setDefaultSectionSize(44)
        self.table.setColumnWidth(0, 96)
        self.table.cellDoubleClicked.connect(self._open)
        layout = QVBoxLayout(self)
        for widget in (self.title, self.table, self.totals):
            layout.addWidget(widget)
        self.folders: dict[tuple[int, int], str] = {}
        self.opened.connect(open_in_viewer)
        self.refresh()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.refresh)
        self.timer.start(refresh_ms)

    def refresh(self) -> None:
        try:
            plan = load_study(self.folder)
            board = studies_board.read_board(self.folder, plan)
        except StudioError as exc:
            self.title.setText(str(exc))
            return
        self.title.setText(
            f"<b>Study {plan.name}</b> — {len(plan.participants)} participants, "
            f"{len(plan.tasks)} tasks, {plan.design.tasks_per_participant} each; "
            f"practice {plan.practice or 'none'}; time limit "
            f"{plan.protocol.time_limit_s or 'none'} s. Double-click a cell to open its run."
        )
        width = max((len(cells) for cells in board.rows.values()), default=0)
        self.table.setColumnCount(width + 1)
        self.table.setHorizontalHeaderLabels(
            ["Participant", *(f"Task {i + 1}" for i in range(width))]
        )
        self.table.setRowCount(len(board.rows))
        self.folders = {}
        for row, (code, cells) in enumerate(board.rows.items()):
            self.table.setItem(row, 0, QTableWidgetItem(code))
            for col, cell in enumerate(cells, 1):
                item = QTableWidgetItem(f"{cell.task_id}\n{_state_text(cell)}")
                colour = COLOURS[cell.state]
                if cell.state == "finished" and cell.verdict != "passed":
                    colour = FAILED_COLOUR
                item.setBackground(QBrush(QColor(colour)))
                item.setForeground(QBrush(QColor("#1f2933")))
                if cell.folder:
                    item.setToolTip(cell.folder)
                    self.folders[(row, col)] = cell.folder
                self.table.setItem(row, col, item)
        for col in range(1, width + 1):
            self.table.horizontalHeader().setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
        totals = board.totals()
        self.totals.setText("Totals: " + ", ".join(f"{n} {s}" for s, n in totals.items()))

    def _open(self, row: int, col: int) -> None:
        folder = self.folders.get((row, col))
        if folder:
            self.opened.emit(folder)


def _state_text(cell: studies_board.Cell) -> str:
    if cell.state == "finished":
        return f"finished: {cell.verdict} ({cell.seconds:.0f} s, {cell.actions} actions)"
    if cell.state == "in progress":
        return f"in progress ({cell.seconds:.0f} s)"
    if cell.state == "gave up":
        return "time limit" if cell.stopped == "time limit" else f"gave up ({cell.seconds:.0f} s)"
    return cell.state


def open_in_viewer(folder: str) -> None:
    """Open a recorded run in the studio's viewer (a window of its own)."""
    subprocess.Popen([sys.executable, "-m", "studio", "view", folder])


def dock_board(window: QMainWindow, folder: Path | None = None) -> QDockWidget | None:
    """The window's *Study board…* (Run menu): ask for the study folder, then its board as a
    dock of the main window, below the editor. The dock can be moved, tabbed with another,
    floated out as a window of its own, or closed; the board reads the runs only while it is
    shown. Asking again for a study already docked shows that dock rather than a second."""
    if folder is None:
        chosen = QFileDialog.getExistingDirectory(window, "Open a study folder (holds study.json)")
        if not chosen:
            return None
        folder = Path(chosen)
    name = f"study-board:{Path(folder).resolve()}"
    for dock in window.findChildren(QDockWidget):
        if dock.objectName() == name:
            dock.show()
            dock.raise_()
            return dock
    dock = QDockWidget(f"Study {Path(folder).name}", window)
    dock.setObjectName(name)
    board = StudyBoard(folder, dock)
    dock.setWidget(board)
    dock.visibilityChanged.connect(lambda shown: _follow(board, shown))
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    rows = max(1, board.table.rowCount())
    window.resizeDocks([dock], [min(420, 130 + 46 * rows)], Qt.Orientation.Vertical)
    dock.show()
    dock.raise_()
    return dock


def _follow(board: StudyBoard, shown: bool) -> None:
    """Read the runs while the board is on screen; a hidden dock (closed or behind a tab)
    reads nothing until shown again."""
    if shown:
        board.refresh()
        board.timer.start()
    else:
        board.timer.stop()


def show_board(folder: Path) -> int:
    """`studio study board`: the board in a window of its own until it is closed."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "studio"])
    board = StudyBoard(folder)
    board.resize(1100, 120 + 46 * max(1, board.table.rowCount()))
    board.show()
    return int(app.exec())

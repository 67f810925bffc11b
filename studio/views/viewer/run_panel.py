"""The Run tab: live controls, the step timeline and the selected step in detail.

Live: `start_live` binds the controls of an episode the editor is showing; `add_step` appends
each step as it finishes (the newest is shown while "Follow" is on). Offline: `show_steps`
lists a recorded trajectory, with what is missing on disk in the header.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.services.episodes.live.controls import RunControls, RunState
from studio.views.viewer.marks import caption
from studio.views.viewer.step_detail import StepDetail
from studio.views.viewer.steps import ViewerStep
from studio.views.viewer.timeline import TimelineModel
from studio.views.widgets.elided_label import ElidedLabel

NO_RUN = "No run. Run ▸ Start agent run… or Run ▸ Open trajectory…"
DELAYS_S = (0.0, 0.25, 0.5, 1.0, 2.0, 5.0)
ACTION_COLUMN, TARGET_COLUMN = 1, 2
ACTION_MAX, TARGET_MAX = 200, 240  # px: the columns fit their contents up to these widths
COLUMN_MIN = 60
FIT_ROWS = 20  # a live run's columns are fitted to its first steps


class MiddleElide(QStyledItemDelegate):
    """Elides its column's text in the middle (both ends of a target name say something)."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: Any) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


def fit_column(table: QTableView, column: int, cap: int) -> None:
    """Give `column` the width its contents ask for, between COLUMN_MIN and `cap`."""
    wanted = max(table.sizeHintForColumn(column), table.horizontalHeader().sectionSizeHint(column))
    table.setColumnWidth(column, max(COLUMN_MIN, min(cap, wanted)))


class RunPanel(QWidget):
    """Controls, timeline and step detail of one run (live or recorded)."""

    step_shown = Signal(int)  # step index now shown in the detail
    stopped = Signal()  # the user stopped the live run

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(NO_RUN, self)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.state = QLabel(self)
        self.pending = ElidedLabel(parent=self)  # a long held action must not widen the window
        self.pending.setStyleSheet("color: #9a6700")
        self.pause_button = QPushButton("Pause", self)
        self.step_button = QPushButton("Step", self)
        self.resume_button = QPushButton("Resume", self)
        self.stop_button = QPushButton("Stop", self)
        self.delay = QComboBox(self)
        for seconds in DELAYS_S:
            self.delay.addItem(
                "no delay" if seconds == 0 else f"{seconds:g} s between actions", seconds
            )
        self.follow = QCheckBox("Follow", self)
        self.follow.setChecked(True)
        self.follow.setToolTip("Show each new step as it finishes")
        bar = QHBoxLayout()
        for widget in (
            self.pause_button,
            self.step_button,
            self.resume_button,
            self.stop_button,
            self.delay,
            self.follow,
            self.state,
        ):
            bar.addWidget(widget)
        bar.addWidget(self.pending, 1)
        self.model = TimelineModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(22)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for col, width in enumerate((40, ACTION_MAX, TARGET_MAX, 55, 120)):
            self.table.setColumnWidth(col, width)
        # a target is a path-like name ("blocks: motion_gotoxy ... of Cat"): cut in its middle
        self.table.setItemDelegateForColumn(TARGET_COLUMN, MiddleElide(self.table))
        self.detail = StepDetail(self)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        split.setSizes([460, 1020])  # the step detail (its screenshot) gets the room
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addLayout(bar)
        layout.addWidget(split, 1)
        self.controls: RunControls | None = None
        self.table.selectionModel().currentRowChanged.connect(self._on_row)
        self.pause_button.clicked.connect(self.pause)
        self.step_button.clicked.connect(self.step)
        self.resume_button.clicked.connect(self.resume)
        self.stop_button.clicked.connect(self.stop)
        self.delay.currentIndexChanged.connect(self._on_delay)
        self._update_controls()

    # ---- live ----------------------------------------------------------------------------
    def start_live(self, title: str, controls: RunControls) -> None:
        self.model.set_steps([])
        self.detail.show_step(None)
        self.detail.program.show_project(None)
        self.title.setText(title)
        self.controls = controls
        controls.set_delay(float(self.delay.currentData() or 0.0))
        controls.on_change.append(lambda _c: self._update_controls())
        self._update_controls()

    def add_step(self, step: ViewerStep) -> None:
        self.model.append(step)
        if self.model.rowCount() <= FIT_ROWS:  # the first steps set the widths; then they stay
            self._fit_columns()
        if self.follow.isChecked():
            self.select_row(self.model.rowCount() - 1)

    def end_live(self, text: str) -> None:
        self.note(text)
        self.controls = None
        self._update_controls()

    def pause(self) -> None:
        if self.controls is not None:
            self.controls.pause()

    def step(self) -> None:
        if self.controls is not None:
            self.controls.step()

    def resume(self) -> None:
        if self.controls is not None:
            self.controls.resume()

    def toggle_pause(self) -> None:
        if self.controls is None:
            return
        if self.controls.state is RunState.PAUSED:
            self.controls.resume()
        else:
            self.controls.pause()

    def stop(self) -> None:
        if self.controls is not None:
            self.controls.stop()
            self.stopped.emit()

    def note(self, text: str) -> None:
        """Add a line under the title (e.g. the episode ended)."""
        self.title.setText(f"{self.title.text()}<br>{text}")

    def clear(self, text: str = NO_RUN) -> None:
        """Show no run (`text` says why); a live run's controls are let go."""
        self.controls = None
        self.title.setText(text)
        self.model.set_steps([])
        self.detail.show_step(None)
        self.detail.program.show_project(None)
        self._update_controls()

    # ---- recorded ------------------------------------------------------------------------
    def show_steps(self, title: str, steps: list[ViewerStep]) -> None:
        self.controls = None
        self.title.setText(title)
        self.model.set_steps(steps)
        self._fit_columns()
        self._update_controls()
        self.detail.show_step(None)
        if steps:
            self.select_row(0)

    def _fit_columns(self) -> None:
        fit_column(self.table, ACTION_COLUMN, ACTION_MAX)
        fit_column(self.table, TARGET_COLUMN, TARGET_MAX)

    # ---- selection -----------------------------------------------------------------------
    def select_row(self, row: int) -> None:
        if 0 <= row < self.model.rowCount():
            index = self.model.index(row, 0)
            self.table.selectionModel().setCurrentIndex(
                index,
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )
            self.table.scrollTo(index)

    def current_step(self) -> ViewerStep | None:
        row = self.table.currentIndex().row()
        return self.model.steps[row] if 0 <= row < len(self.model.steps) else None

    def _on_row(self, current: object, _previous: object) -> None:
        step = self.current_step()
        self.detail.show_step(step)
        if step is not None:
            self.step_shown.emit(step.index)

    def _on_delay(self, _i: int) -> None:
        if self.controls is not None:
            self.controls.set_delay(float(self.delay.currentData() or 0.0))

    def _update_controls(self) -> None:
        c = self.controls
        live = c is not None and c.state is not RunState.STOPPED
        paused = c is not None and c.state is RunState.PAUSED
        self.pause_button.setEnabled(live and not paused)
        self.resume_button.setEnabled(paused)
        self.step_button.setEnabled(live)
        self.stop_button.setEnabled(live)
        # the controls stay in place (disabled) after a run: the layout does not jump
        if c is None:
            self.state.setText("")
            self.pending.clear()
            return
        self.state.setText(f"<b>{c.state.value}</b> · {c.passed} actions")
        if c.pending is not None and c.state is RunState.PAUSED:
            args = c.pending.get("args") or {}
            text = caption(str(c.pending.get("api", "?")), args if isinstance(args, dict) else {})
            self.pending.setText(f"next: {text}")
        elif c.pending is None:  # what the studio is doing now, never a guess
            self.pending.setText(c.activity if c.state is not RunState.STOPPED else "")
        else:
            self.pending.clear()

"""Two runs of one task side by side: steps aligned by index (differences tinted), both
screenshots of the selected step with their actions drawn, and the final per-test results."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QImage
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.services.runs.trajectories.compare import Comparison
from studio.views.viewer import overlay
from studio.views.viewer.marks import mark_for
from studio.views.viewer.recorded import OpenedRun
from studio.views.viewer.steps import ViewerStep
from studio.views.viewer.timeline import action_text
from studio.views.viewer.zoom_view import ZoomImageView

DIFFERS = QColor(255, 243, 205)
MISSING = QColor(235, 235, 235)


class CompareDialog(QDialog):
    def __init__(
        self, comparison: Comparison, a: OpenedRun, b: OpenedRun, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Compare runs")
        self.resize(1400, 860)
        self.comparison = comparison
        self._a = {s.index: s for s in a.steps}
        self._b = {s.index: s for s in b.steps}
        header = QLabel(self)
        header.setWordWrap(True)
        warn = "".join(f"<br><span style='color:#cf222e'>{w}</span>" for w in comparison.warnings)
        first = comparison.first_divergence
        header.setText(
            f"<b>A:</b> {a.source} — {comparison.verdict_a}<br><b>B:</b> {b.source} — "
            f"{comparison.verdict_b}<br>First difference at step {first}{warn}"
            if first is not None
            else f"<b>A:</b> {a.source} — {comparison.verdict_a}<br><b>B:</b> {b.source} — "
            f"{comparison.verdict_b}<br>Same actions at every step{warn}"
        )
        self.steps = QTableWidget(len(comparison.rows), 5, self)
        self.steps.setHorizontalHeaderLabels(
            ["#", "A action", "A outcome", "B action", "B outcome"]
        )
        self.steps.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.steps.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.steps.verticalHeader().hide()
        for row, pair in enumerate(comparison.rows):
            cells = [
                str(pair.index),
                *self._cells(pair.index, self._a),
                *self._cells(pair.index, self._b),
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if not pair.same_action:
                    item.setBackground(QBrush(DIFFERS))
                self.steps.setItem(row, col, item)
        self.steps.resizeColumnsToContents()
        self.tests = QTableWidget(len(comparison.tests), 3, self)
        self.tests.setHorizontalHeaderLabels(["Test", "A", "B"])
        self.tests.verticalHeader().hide()
        self.tests.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        for row, test in enumerate(comparison.tests):
            for col, text in enumerate((test.name, test.outcome_a or "—", test.outcome_b or "—")):
                item = QTableWidgetItem(text)
                if test.differs:
                    item.setBackground(QBrush(DIFFERS))
                self.tests.setItem(row, col, item)
        self.tests.horizontalHeader().setStretchLastSection(True)
        self.image_a, self.image_b = ZoomImageView(self), ZoomImageView(self)
        images = QWidget(self)
        row_layout = QHBoxLayout(images)
        row_layout.setContentsMargins(0, 0, 0, 0)
        row_layout.addWidget(self.image_a)
        row_layout.addWidget(self.image_b)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.steps)
        split.addWidget(images)
        split.addWidget(self.tests)
        split.setSizes([300, 380, 140])
        layout = QVBoxLayout(self)
        layout.addWidget(header)
        layout.addWidget(split, 1)
        self.steps.currentCellChanged.connect(lambda row, *_: self.show_row(row))
        if comparison.rows:
            self.steps.selectRow(first - 1 if first else 0)

    def _cells(self, index: int, steps: dict[int, ViewerStep]) -> list[str]:
        step = steps.get(index)
        if step is None:
            return ["—", ""]
        return [action_text(step), "ok" if step.record.ok else f"error: {step.record.error}"]

    def show_row(self, row: int) -> None:
        if not 0 <= row < len(self.comparison.rows):
            return
        index = self.comparison.rows[row].index
        for steps, view in ((self._a, self.image_a), (self._b, self.image_b)):
            step = steps.get(index)
            data = step.screenshot_bytes() if step is not None else None
            image = QImage.fromData(data) if data else QImage()
            if step is None or image.isNull():
                view.set_image(None, "no step" if step is None else "screenshot missing")
            else:
                view.set_image(overlay.draw(image, mark_for(step), not step.record.ok))

"""One step in detail: the screenshot with the action drawn on it, the element list with the
hit element highlighted, the reasoning, the program change and (composite) the observation."""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from studio.models.agent import ProgramChange
from studio.services.episodes.limits import usage_text
from studio.views.viewer import overlay
from studio.views.viewer.marks import hit_index, mark_for
from studio.views.viewer.program_view import ProgramView
from studio.views.viewer.steps import FLAG_FAILED, ViewerStep
from studio.views.viewer.zoom_view import ZoomImageView

ELEMENT_COLUMNS = ("#", "type", "text", "x", "y", "w", "h")
CACHED_IMAGES = 48  # decoded screenshots kept, so scrubbing back and forth does not decode again


def change_html(change: ProgramChange) -> str:
    """The program change of a step as coloured lines."""
    if change.empty:
        return "<i>The program did not change.</i>"
    rows = []
    for sign, colour, items in (
        ("+ added", "#1a7f37", change.added),
        ("− removed", "#cf222e", change.removed),
        ("↔ moved", "#0969da", change.moved),
        ("✎ changed", "#9a6700", change.fields_changed),
    ):
        for item in items:
            rows.append(f"<div style='color:{colour}'><b>{sign}</b> {_escape(item)}</div>")
    return "".join(rows)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class StepDetail(QWidget):
    """Shows one ViewerStep; `show_step(None)` clears it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image = ZoomImageView(self)
        self.caption = QLabel(self)
        self.caption.setWordWrap(True)
        self.elements = QTableWidget(0, len(ELEMENT_COLUMNS), self)
        self.elements.setHorizontalHeaderLabels(list(ELEMENT_COLUMNS))
        self.elements.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.elements.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.elements.verticalHeader().hide()
        self.elements.horizontalHeader().setStretchLastSection(True)
        self.reasoning = QPlainTextEdit(self)
        self.reasoning.setReadOnly(True)
        self.change = QTextBrowser(self)
        self.observation_text = QPlainTextEdit(self)
        self.observation_text.setReadOnly(True)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.change, "Change")
        self.tabs.addTab(self.elements, "Elements")
        self.tabs.addTab(self.reasoning, "Reasoning")
        self.tabs.addTab(self.observation_text, "Observation")
        self.program = ProgramView(self)  # the run's final program (not per step)
        self.tabs.addTab(self.program, "Program")
        top = QWidget(self)
        column = QVBoxLayout(top)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.image, 1)
        column.addWidget(self.caption)
        # the screenshot is the main pane: the whole width, the tabs below it
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(top)
        split.addWidget(self.tabs)
        split.setSizes([440, 120])
        split.setStretchFactor(0, 1)
        split.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)
        self.step: ViewerStep | None = None
        self.highlighted: int | None = None
        self._elements_of: int | None = None  # id() of the observation listed
        # id(step) -> (step, decoded picture); the step is kept so its id is not reused
        self._images: OrderedDict[int, tuple[ViewerStep, QImage]] = OrderedDict()

    def show_step(self, step: ViewerStep | None) -> None:
        self.step = step
        if step is None:
            self.image.set_image(None, "No step selected")
            self.caption.clear()
            self.reasoning.clear()
            self.change.clear()
            return
        record = step.record
        image = self._image(step)
        if image.isNull():
            gone = step.missing or step.screenshot_bytes() is None
            why = "screenshot missing" if gone else "screenshot unreadable"
            self.image.set_image(None, f"Step {record.index}: {why}")
        else:
            self.image.set_image(overlay.draw(image, mark_for(step), FLAG_FAILED in step.flags))
        outcome = "ok" if record.ok else f"<span style='color:#cf222e'>error: {record.error}</span>"
        missing = f" · <b>missing:</b> {', '.join(step.missing)}" if step.missing else ""
        spent = usage_text(record.usage)
        self.caption.setText(
            f"<b>Step {record.index}</b> · {step.api} · {record.duration_ms:.0f} ms · "
            f"{outcome} · after: {record.status_after.value}{missing}"
            + (f" · {spent}" if spent else "")
        )
        self.reasoning.setPlainText(record.reasoning or "(no reasoning recorded)")
        self.change.setHtml(change_html(record.change))
        self._show_observation(step)

    def _image(self, step: ViewerStep) -> QImage:
        key = id(step)
        cached = self._images.get(key)
        if cached is not None and cached[0] is step:
            self._images.move_to_end(key)
            return cached[1]
        data = step.screenshot_bytes()
        image = QImage.fromData(data) if data else QImage()
        self._images[key] = (step, image)
        while len(self._images) > CACHED_IMAGES:
            self._images.popitem(last=False)
        return image

    def _show_observation(self, step: ViewerStep) -> None:
        obs = step.observation()
        self.highlighted = hit_index(step)
        if obs is None:
            self.elements.setRowCount(0)
            self._elements_of = None
            self.observation_text.setPlainText("(no observation recorded for this step)")
            return
        self.observation_text.setPlainText(obs.text or f"{len(obs.elements)} elements")
        if self._elements_of != id(obs):
            self._elements_of = id(obs)
            self.elements.setUpdatesEnabled(False)
            self.elements.setRowCount(len(obs.elements))
            for row, e in enumerate(obs.elements):
                values = (
                    e.index,
                    e.type,
                    e.text,
                    f"{e.x:.0f}",
                    f"{e.y:.0f}",
                    f"{e.w:.0f}",
                    f"{e.h:.0f}",
                )
                for col, value in enumerate(values):
                    self.elements.setItem(row, col, QTableWidgetItem(str(value)))
            self.elements.setUpdatesEnabled(True)
        self.elements.clearSelection()
        if self.highlighted is not None and 0 <= self.highlighted < self.elements.rowCount():
            self.elements.selectRow(self.highlighted)
            item = self.elements.item(self.highlighted, 0)
            if item is not None:
                self.elements.scrollToItem(item, QAbstractItemView.ScrollHint.PositionAtCenter)

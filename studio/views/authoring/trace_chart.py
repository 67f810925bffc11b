"""A small chart of one observable over time: the trace excerpt a proposed test comes from.

Numbers are drawn as a step line between their lowest and highest value; other values (costume
names, texts, shown/hidden) as steps between levels, one level per distinct value in order of
first appearance, each level labelled. Time runs left to right in seconds from the scenario's
start; the time axis ends at the last change or at `duration_ms` when given. A number that never
changes is one level across the middle, labelled once.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

MARGIN_LEFT, MARGIN = 92, 14
LINE = QColor("#2b6cb0")
GRID = QColor("#d0d7de")
TEXT = QColor("#444")


def _label(value: Any) -> str:
    if isinstance(value, bool):
        return "shown" if value else "hidden"
    if isinstance(value, float):
        return f"{value:g}"
    text = str(value)
    return text if len(text) <= 12 else text[:11] + "…"


class TraceChart(QWidget):
    """Paints [(ms, value), ...] as a step chart."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.points: list[tuple[int, Any]] = []
        self.duration_ms = 0
        self.title = ""
        self.setMinimumHeight(150)

    def sizeHint(self) -> QSize:
        return QSize(520, 170)

    def show_points(self, points: list[tuple[int, Any]], duration_ms: int, title: str) -> None:
        self.points, self.duration_ms, self.title = list(points), duration_ms, title
        self.update()

    def levels(self) -> tuple[list[float], list[str]]:
        """Each point's height (0..1) and the labels of the value axis (bottom to top)."""
        values = [v for _t, v in self.points]
        if values and all(isinstance(v, float) for v in values):
            low, high = min(values), max(values)
            if low == high:  # a flat line: one labelled level, in the middle
                return [0.5] * len(values), ["", _label(low), ""]
            span = high - low
            return [(v - low) / span for v in values], [_label(low), _label(high)]
        names = list(dict.fromkeys(_label(v) for v in values))
        step = 1.0 / max(1, len(names) - 1)
        return [names.index(_label(v)) * step for v in values], names

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor("white"))
        width = self.width() - MARGIN_LEFT - MARGIN
        box = QRectF(MARGIN_LEFT, MARGIN + 12, width, self.height() - 2 * MARGIN - 28)
        painter.setPen(TEXT)
        painter.drawText(QPointF(MARGIN, MARGIN + 4), self.title)
        if not self.points or box.width() < 10 or box.height() < 10:
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, "no trace")
            return
        end = max(self.duration_ms, self.points[-1][0], 1)
        heights, labels = self.levels()
        painter.setPen(QPen(GRID, 1))
        painter.drawRect(box)
        for i, name in enumerate(labels):
            frac = i / max(1, len(labels) - 1)
            y = box.bottom() - frac * box.height()
            painter.drawLine(QPointF(box.left(), y), QPointF(box.right(), y))
            painter.setPen(TEXT)
            align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            painter.drawText(QRectF(2, y - 8, MARGIN_LEFT - 6, 16), align, name)
            painter.setPen(QPen(GRID, 1))
        painter.setPen(TEXT)
        painter.drawText(QPointF(box.left(), box.bottom() + 16), "0 s")
        painter.drawText(QPointF(box.right() - 40, box.bottom() + 16), f"{end / 1000:.1f} s")
        painter.setPen(QPen(LINE, 2))
        last: QPointF | None = None
        for (t, _v), h in zip(self.points, heights, strict=True):
            point = QPointF(box.left() + t / end * box.width(), box.bottom() - h * box.height())
            if last is not None:
                painter.drawLine(last, QPointF(point.x(), last.y()))
                painter.drawLine(QPointF(point.x(), last.y()), point)
            last = point
        if last is not None:
            painter.drawLine(last, QPointF(box.right(), last.y()))

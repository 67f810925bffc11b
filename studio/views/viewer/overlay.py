"""Draw a step's action on its screenshot: click point, drag path with both ends, scroll,
typed text and keys, a frame for a failed step.

The drawing is in the screenshot's own pixels (1280x720 for the benchmark screen), on a copy;
callers scale the result to fit. `Mark` is the part of an action that has a place on screen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPainterPath, QPen

CLICK = QColor(230, 40, 60)
DRAG = QColor(255, 140, 0)
SCROLL = QColor(40, 120, 230)
TEXT_BG = QColor(20, 20, 30, 210)
FAILED = QColor(220, 30, 30)
HIT_BOX = QColor(0, 170, 90)


@dataclass
class Mark:
    """What to draw: kind is click, double_click, drag, scroll, type, key, hotkey, caption."""

    kind: str
    points: list[tuple[float, float]] = field(default_factory=list)
    text: str = ""
    direction: str = ""
    button: str = "left"
    box: tuple[float, float, float, float] | None = None  # hit element x, y, w, h


def draw(image: QImage, mark: Mark | None, failed: bool = False) -> QImage:
    """A copy of `image` with `mark` drawn on it."""
    out = image.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(out)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    try:
        if mark is not None:
            if mark.box is not None:
                _box(painter, mark.box)
            _DRAWERS.get(mark.kind, _caption_only)(painter, mark)
        if failed:
            painter.setPen(QPen(FAILED, 6))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(QRectF(3, 3, out.width() - 6, out.height() - 6))
    finally:
        painter.end()
    return out


def _box(p: QPainter, box: tuple[float, float, float, float]) -> None:
    p.setPen(QPen(HIT_BOX, 2, Qt.PenStyle.DashLine))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(QRectF(*box))


def _click(p: QPainter, mark: Mark) -> None:
    if not mark.points:
        return _caption_only(p, mark)
    x, y = mark.points[0]
    centre = QPointF(x, y)
    p.setPen(QPen(CLICK, 3))
    p.setBrush(QBrush(QColor(CLICK.red(), CLICK.green(), CLICK.blue(), 60)))
    p.drawEllipse(centre, 14, 14)
    if mark.kind == "double_click":
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(centre, 21, 21)
    p.drawLine(QPointF(x - 24, y), QPointF(x - 8, y))
    p.drawLine(QPointF(x + 8, y), QPointF(x + 24, y))
    p.drawLine(QPointF(x, y - 24), QPointF(x, y - 8))
    p.drawLine(QPointF(x, y + 8), QPointF(x, y + 24))
    label = "double-click" if mark.kind == "double_click" else "click"
    if mark.button != "left":
        label = f"{mark.button} {label}"
    _label(p, QPointF(x + 26, y - 26), label, CLICK)
    return None


def _drag(p: QPainter, mark: Mark) -> None:
    if len(mark.points) < 2:
        return _caption_only(p, mark)
    (x0, y0), (x1, y1) = mark.points[0], mark.points[1]
    start, end = QPointF(x0, y0), QPointF(x1, y1)
    p.setPen(QPen(DRAG, 4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    p.drawLine(start, end)
    angle = math.atan2(y1 - y0, x1 - x0)
    head = QPainterPath(end)
    for side in (-1, 1):
        head.lineTo(
            QPointF(
                x1 - 18 * math.cos(angle + side * 0.45), y1 - 18 * math.sin(angle + side * 0.45)
            )
        )
        head.moveTo(end)
    p.drawPath(head)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(DRAG, 3))
    p.drawEllipse(start, 10, 10)  # press: hollow ring
    p.setBrush(QBrush(DRAG))
    p.drawEllipse(end, 6, 6)  # release: filled dot
    _label(p, QPointF(x0 + 14, y0 + 14), "press", DRAG)
    _label(p, QPointF(x1 + 14, y1 - 28), "release", DRAG)
    return None


def _scroll(p: QPainter, mark: Mark) -> None:
    if not mark.points:
        return _caption_only(p, mark)
    x, y = mark.points[0]
    dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}.get(
        mark.direction, (0, 1)
    )
    p.setPen(QPen(SCROLL, 4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawEllipse(QPointF(x, y), 10, 10)
    tip = QPointF(x + dx * 60, y + dy * 60)
    p.drawLine(QPointF(x + dx * 12, y + dy * 12), tip)
    for side in (-1, 1):
        p.drawLine(
            tip, QPointF(tip.x() - dx * 14 + side * dy * 10, tip.y() - dy * 14 + side * dx * 10)
        )
    _label(p, QPointF(x + 18, y - 30), mark.text or f"scroll {mark.direction}", SCROLL)
    return None


def _caption_only(p: QPainter, mark: Mark) -> None:
    text = mark.text or mark.kind
    _label(p, QPointF(16, 16), text, QColor(255, 255, 255), big=True)


def _label(p: QPainter, at: QPointF, text: str, colour: QColor, big: bool = False) -> None:
    font = QFont()
    font.setPixelSize(22 if big else 16)
    font.setBold(True)
    p.setFont(font)
    metrics = p.fontMetrics()
    text = metrics.elidedText(text, Qt.TextElideMode.ElideRight, 900)
    rect = QRectF(at.x(), at.y(), metrics.horizontalAdvance(text) + 16, metrics.height() + 8)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(TEXT_BG))
    p.drawRoundedRect(rect, 5, 5)
    p.setPen(QPen(colour))
    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


_DRAWERS = {
    "click": _click,
    "double_click": _click,
    "drag": _drag,
    "scroll": _scroll,
}

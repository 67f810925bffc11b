"""Draw a step's action on its screenshot: click point, drag path with both ends, scroll,
typed text and keys, a frame for a failed step.

The drawing is in the screenshot's own pixels (1280x720 for the benchmark screen), on a copy;
callers scale the result to fit. `Mark` is the part of an action that has a place on screen.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)

CLICK = QColor(230, 40, 60)
DRAG = QColor(255, 140, 0)
SCROLL = QColor(40, 120, 230)
TEXT_BG = QColor(20, 20, 30, 210)
FAILED = QColor(220, 30, 30)
HIT_BOX = QColor(0, 170, 90)
HALO = QColor(255, 255, 255, 230)  # drawn under each stroke, so it reads on any background
# Strokes are sized for a 1280x720 picture shown at a third of its size or less: thinner
# lines vanish when the viewer scales the screenshot down.
RING, RING_PEN, ARM = 22, 6, 36
DRAG_PEN, HEAD = 8, 30


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


def _haloed(p: QPainter, colour: QColor, width: float, paint: Callable[[], None]) -> None:
    """Run `paint` twice: a wider white halo first, then in `colour`."""
    cap = Qt.PenCapStyle.RoundCap
    p.setPen(QPen(HALO, width + 4, Qt.PenStyle.SolidLine, cap))
    paint()
    p.setPen(QPen(colour, width, Qt.PenStyle.SolidLine, cap))
    paint()


def _box(p: QPainter, box: tuple[float, float, float, float]) -> None:
    p.setPen(QPen(HIT_BOX, 3, Qt.PenStyle.DashLine))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(QRectF(*box))


def _click(p: QPainter, mark: Mark) -> None:
    if not mark.points:
        return _caption_only(p, mark)
    x, y = mark.points[0]
    centre = QPointF(x, y)
    p.setBrush(QBrush(QColor(CLICK.red(), CLICK.green(), CLICK.blue(), 70)))

    def ring() -> None:
        p.drawEllipse(centre, RING, RING)
        if mark.kind == "double_click":
            p.drawEllipse(centre, RING + 10, RING + 10)
        gap = 8
        p.drawLine(QPointF(x - ARM, y), QPointF(x - gap, y))
        p.drawLine(QPointF(x + gap, y), QPointF(x + ARM, y))
        p.drawLine(QPointF(x, y - ARM), QPointF(x, y - gap))
        p.drawLine(QPointF(x, y + gap), QPointF(x, y + ARM))

    _haloed(p, CLICK, RING_PEN, ring)
    label = "double-click" if mark.kind == "double_click" else "click"
    if mark.button != "left":
        label = f"{mark.button} {label}"
    _label(p, QPointF(x + ARM, y - ARM), label, CLICK)
    return None


def _drag(p: QPainter, mark: Mark) -> None:
    if len(mark.points) < 2:
        return _caption_only(p, mark)
    # a drag has two points; a stroke its whole path: the head points along the last segment
    path_points = QPolygonF([QPointF(x, y) for x, y in mark.points])
    (x0, y0), (x1, y1) = mark.points[0], mark.points[-1]
    start, end = QPointF(x0, y0), QPointF(x1, y1)
    bx, by = mark.points[-2]
    angle = math.atan2(y1 - by, x1 - bx)
    head = QPainterPath(end)
    for side in (-1, 1):
        head.lineTo(
            QPointF(
                x1 - HEAD * math.cos(angle + side * 0.45),
                y1 - HEAD * math.sin(angle + side * 0.45),
            )
        )
        head.moveTo(end)
    p.setBrush(Qt.BrushStyle.NoBrush)

    def path() -> None:
        p.drawPolyline(path_points)
        p.drawPath(head)
        p.drawEllipse(start, 14, 14)  # press: hollow ring

    _haloed(p, DRAG, DRAG_PEN, path)
    p.setBrush(QBrush(DRAG))
    p.setPen(QPen(HALO, 3))
    p.drawEllipse(end, 9, 9)  # release: filled dot
    _label(p, QPointF(x0 + 18, y0 + 18), "press", DRAG)
    _label(p, QPointF(x1 + 18, y1 - 34), "release", DRAG)
    return None


def _scroll(p: QPainter, mark: Mark) -> None:
    if not mark.points:
        return _caption_only(p, mark)
    x, y = mark.points[0]
    dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}.get(
        mark.direction, (0, 1)
    )
    p.setBrush(Qt.BrushStyle.NoBrush)
    tip = QPointF(x + dx * 70, y + dy * 70)

    def arrow() -> None:
        p.drawEllipse(QPointF(x, y), 14, 14)
        p.drawLine(QPointF(x + dx * 16, y + dy * 16), tip)
        for side in (-1, 1):
            p.drawLine(
                tip,
                QPointF(tip.x() - dx * 20 + side * dy * 14, tip.y() - dy * 20 + side * dx * 14),
            )

    _haloed(p, SCROLL, 6, arrow)
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

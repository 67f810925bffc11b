"""An item's screenshot with its feasible regions on it, and a brush to correct them.

Start points are green, end points red, each region bordered by a dark line over a white one
(so it reads on blocks of its own colour), the drag start a blue dot; the dragged and the
reference block are outlined. With the brush, the left button adds grid points within the
brush radius to the region being edited and the right button (or Shift) erases them; every
stroke is one step on the undo stack. In pick mode a click reports the screen point instead
(the labeler picking a block). The wheel zooms about the pointer (up to 8x), the middle
button pans; a new picture starts unzoomed. Points are screen pixels of the 1280x720
benchmark screen.
"""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
    QUndoCommand,
    QUndoStack,
    QWheelEvent,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from studio.services.diagnostics.drag.grid import Point, brush

START_COLOUR = QColor(0, 170, 60, 140)
END_COLOUR = QColor(220, 30, 30, 140)
START_EDGE = QColor(0, 70, 25)  # the borders of the regions, dark over a white line
END_EDGE = QColor(110, 0, 0)
DRAG_START_COLOUR = QColor(0, 90, 255, 230)
COMPARE_START_COLOUR = QColor(0, 90, 30, 230)  # outlines: regions to compare with (computed)
COMPARE_END_COLOUR = QColor(130, 0, 0, 230)
BRUSH_RADII = (5, 10, 15, 20, 30, 45)
SCREEN = QSize(1280, 720)
MAX_ZOOM = 8.0
ZOOM_STEP = 1.25


class Tool(StrEnum):
    NONE = "none"
    START = "start"  # brushing the start region
    END = "end"  # brushing the end region
    PICK = "pick"  # a click picks a point


class _Stroke(QUndoCommand):
    """One brush stroke on one region: undo puts the points back as they were."""

    def __init__(
        self, canvas: RegionCanvas, tool: Tool, before: set[Point], after: set[Point]
    ) -> None:
        added, removed = len(after - before), len(before - after)
        super().__init__(f"{tool.value} region: +{added} / -{removed} points")
        self.canvas, self.tool, self.before, self.after = canvas, tool, before, after

    def redo(self) -> None:
        self.canvas._set_region(self.tool, self.after)

    def undo(self) -> None:
        self.canvas._set_region(self.tool, self.before)


class RegionCanvas(QWidget):
    """Screenshot, regions and brush."""

    regions_changed = Signal()
    picked = Signal(float, float)  # a screen point, in pick mode

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(480, 270)
        self.pixmap = QPixmap()
        self.start: set[Point] = set()
        self.end: set[Point] = set()
        self.grid = 5
        self.drag_start: Point | None = None
        self.boxes: list[tuple[QRectF, QColor, str]] = []
        self.marks: list[tuple[QPointF, QColor, str]] = []  # picked points and the like
        # regions drawn as outlines over the filled ones (computed regions beside stored ones)
        self.compare: tuple[set[Point], set[Point]] | None = None
        self.tool = Tool.NONE
        self.radius = 10
        self.show_start = True
        self.show_end = True
        self.undo_stack = QUndoStack(self)
        self._stroke_before: set[Point] | None = None
        self._stroke_erase = False
        self._hover: QPointF | None = None
        self.zoom = 1.0  # 1: the whole screen fits the widget
        self.pan = QPointF(0, 0)  # widget px the picture is moved by
        self._pan_from: QPointF | None = None

    # ---- content ---------------------------------------------------------------------------
    def show_item(
        self,
        png: bytes | None,
        start: set[Point],
        end: set[Point],
        grid: int,
        drag_start: Point | None,
        boxes: list[tuple[QRectF, QColor, str]] | None = None,
    ) -> None:
        """A new item: its picture and regions; the undo history starts again."""
        self.pixmap = QPixmap()
        if png:
            self.pixmap.loadFromData(png, "PNG")
        self.start, self.end = set(start), set(end)
        self.grid = max(1, grid)
        self.drag_start = drag_start
        self.boxes = list(boxes or [])
        self.marks = []
        self.compare = None
        self.undo_stack.clear()
        self.reset_view()

    def reset_view(self) -> None:
        """The whole screen again (zoom 1, no pan)."""
        self.zoom, self.pan = 1.0, QPointF(0, 0)
        self.update()

    def zoom_at(self, pos: QPointF, factor: float) -> None:
        """Zoom by `factor` (within 1x..MAX_ZOOM) keeping the screen point under `pos` there."""
        fixed = self.to_screen(pos)
        self.zoom = max(1.0, min(MAX_ZOOM, self.zoom * factor))
        if self.zoom == 1.0:
            self.pan = QPointF(0, 0)
        else:
            self.pan += pos - self.to_widget(fixed.x(), fixed.y())
        self.update()

    def set_tool(self, tool: Tool) -> None:
        self.tool = tool
        cursor = Qt.CursorShape.CrossCursor if tool is not Tool.NONE else Qt.CursorShape.ArrowCursor
        self.setCursor(cursor)
        self.update()

    def set_radius(self, radius: int) -> None:
        self.radius = max(1, int(radius))
        self.update()

    def region(self, tool: Tool) -> set[Point]:
        return self.start if tool is Tool.START else self.end

    def _set_region(self, tool: Tool, points: set[Point]) -> None:
        if tool is Tool.START:
            self.start = set(points)
        else:
            self.end = set(points)
        self.update()
        self.regions_changed.emit()

    def replace_regions(self, start: set[Point], end: set[Point], what: str) -> None:
        """Both regions at once (e.g. a computation's result), as one undoable step."""
        self.undo_stack.push(_Replace(self, what, (set(self.start), set(self.end)), (start, end)))

    # ---- geometry --------------------------------------------------------------------------
    def _screen_size(self) -> QSize:
        return self.pixmap.size() if not self.pixmap.isNull() else SCREEN

    def image_rect(self) -> QRectF:
        """Where the screen is drawn in the widget (scaled to fit, aspect kept, then zoomed
        and panned)."""
        size = self._screen_size()
        scale = min(self.width() / size.width(), self.height() / size.height()) * self.zoom
        w, h = size.width() * scale, size.height() * scale
        x = (self.width() - w) / 2 + self.pan.x()
        y = (self.height() - h) / 2 + self.pan.y()
        return QRectF(x, y, w, h)

    def _scale(self) -> float:
        return self.image_rect().width() / self._screen_size().width()

    def to_screen(self, pos: QPointF) -> QPointF:
        rect = self.image_rect()
        s = self._scale()
        return QPointF((pos.x() - rect.x()) / s, (pos.y() - rect.y()) / s)

    def to_widget(self, x: float, y: float) -> QPointF:
        rect = self.image_rect()
        s = self._scale()
        return QPointF(rect.x() + x * s, rect.y() + y * s)

    # ---- input -----------------------------------------------------------------------------
    def _brushing(self) -> bool:
        return self.tool in (Tool.START, Tool.END)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.MiddleButton:
            self._pan_from = event.position()
            return
        point = self.to_screen(event.position())
        if self.tool is Tool.PICK and event.button() == Qt.MouseButton.LeftButton:
            self.picked.emit(point.x(), point.y())
            return
        if not self._brushing():
            return
        erase = event.button() == Qt.MouseButton.RightButton or bool(
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        )
        self._stroke_before = set(self.region(self.tool))
        self._stroke_erase = erase
        self._paint_at(point)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self._hover = event.position()
        if self._pan_from is not None:
            self.pan += event.position() - self._pan_from
            self._pan_from = event.position()
            self.update()
        elif self._stroke_before is not None:
            self._paint_at(self.to_screen(event.position()))
        else:
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.MiddleButton:
            self._pan_from = None
            return
        before, self._stroke_before = self._stroke_before, None
        if before is None or not self._brushing():
            return
        after = set(self.region(self.tool))
        if after != before:
            self.undo_stack.push(_Stroke(self, self.tool, before, after))

    def wheelEvent(self, event: QWheelEvent) -> None:
        """The wheel zooms about the pointer; Ctrl+wheel changes the brush radius."""
        up = event.angleDelta().y() > 0
        if not (event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            self.zoom_at(event.position(), ZOOM_STEP if up else 1 / ZOOM_STEP)
            return
        radii = list(BRUSH_RADII)
        i = min(range(len(radii)), key=lambda k: abs(radii[k] - self.radius))
        i = max(0, min(len(radii) - 1, i + (1 if up else -1)))
        self.set_radius(radii[i])

    def leaveEvent(self, event: object) -> None:
        self._hover = None
        self.update()

    def _paint_at(self, point: QPointF) -> None:
        region = brush(
            self.region(self.tool),
            (point.x(), point.y()),
            self.radius,
            self.grid,
            add=not self._stroke_erase,
        )
        if self.tool is Tool.START:
            self.start = region
        else:
            self.end = region
        self.update()

    # ---- painting --------------------------------------------------------------------------
    def _outline(self, painter: QPainter, points: set[Point], colour: QColor, half: float) -> None:
        """The region's border (cell edges with no region cell beyond), white under a dark
        line: it reads on blocks of the region's own colour (green Operators, red Events)."""
        g = self.grid
        edges = []
        for x, y in points:
            c = self.to_widget(x, y)
            left, right, top, bottom = c.x() - half, c.x() + half, c.y() - half, c.y() + half
            if (x - g, y) not in points:
                edges.append((QPointF(left, top), QPointF(left, bottom)))
            if (x + g, y) not in points:
                edges.append((QPointF(right, top), QPointF(right, bottom)))
            if (x, y - g) not in points:
                edges.append((QPointF(left, top), QPointF(right, top)))
            if (x, y + g) not in points:
                edges.append((QPointF(left, bottom), QPointF(right, bottom)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for pen in (QPen(QColor("white"), 3.5), QPen(colour, 1.8)):
            painter.setPen(pen)
            for a, b in edges:
                painter.drawLine(a, b)

    def sizeHint(self) -> QSize:
        return QSize(960, 540)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().window())
        rect = self.image_rect()
        if self.pixmap.isNull():
            painter.fillRect(rect, QColor(235, 235, 235))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, "no screenshot")
        else:
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawPixmap(rect, self.pixmap, QRectF(self.pixmap.rect()))
        s = self._scale()
        half = self.grid * s / 2
        painter.setPen(Qt.PenStyle.NoPen)
        for visible, points, colour in (
            (self.show_start, self.start, START_COLOUR),
            (self.show_end, self.end, END_COLOUR),
        ):
            if not visible:
                continue
            painter.setBrush(colour)
            for x, y in points:
                c = self.to_widget(x, y)
                painter.drawRect(QRectF(c.x() - half, c.y() - half, 2 * half, 2 * half))
        for visible, points, colour in (
            (self.show_start, self.start, START_EDGE),
            (self.show_end, self.end, END_EDGE),
        ):
            if visible:
                self._outline(painter, points, colour, half)
        painter.setPen(Qt.PenStyle.NoPen)
        if self.compare is not None:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for visible, points, colour in (
                (self.show_start, self.compare[0], COMPARE_START_COLOUR),
                (self.show_end, self.compare[1], COMPARE_END_COLOUR),
            ):
                if not visible:
                    continue
                painter.setPen(QPen(colour, 1.2))
                inner = max(1.0, half - 1)
                for x, y in points:
                    c = self.to_widget(x, y)
                    painter.drawRect(QRectF(c.x() - inner, c.y() - inner, 2 * inner, 2 * inner))
            painter.setPen(Qt.PenStyle.NoPen)
        for box, colour, label in self.boxes:
            top_left = self.to_widget(box.x(), box.y())
            painter.setPen(QPen(colour, 2, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(QRectF(top_left.x(), top_left.y(), box.width() * s, box.height() * s))
            painter.drawText(top_left + QPointF(2, -4), label)
        if self.drag_start is not None:
            c = self.to_widget(*self.drag_start)
            painter.setPen(QPen(QColor("white"), 1.5))
            painter.setBrush(DRAG_START_COLOUR)
            painter.drawEllipse(c, 5, 5)
            painter.setPen(QPen(DRAG_START_COLOUR, 1))
            painter.drawText(c + QPointF(8, 4), "grab")
        for point, colour, label in self.marks:
            c = self.to_widget(point.x(), point.y())
            painter.setPen(QPen(colour, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(c, 7, 7)
            painter.drawText(c + QPointF(10, -8), label)
        if self._hover is not None and self._brushing():
            colour = START_COLOUR if self.tool is Tool.START else END_COLOUR
            painter.setPen(QPen(colour.darker(150), 1.5))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(self._hover, self.radius * s, self.radius * s)
        painter.end()


class _Replace(QUndoCommand):
    """Both regions replaced in one step."""

    def __init__(
        self,
        canvas: RegionCanvas,
        what: str,
        before: tuple[set[Point], set[Point]],
        after: tuple[set[Point], set[Point]],
    ) -> None:
        super().__init__(what)
        self.canvas, self.before, self.after = canvas, before, after

    def redo(self) -> None:
        self.canvas._set_region(Tool.START, self.after[0])
        self.canvas._set_region(Tool.END, self.after[1])

    def undo(self) -> None:
        self.canvas._set_region(Tool.START, self.before[0])
        self.canvas._set_region(Tool.END, self.before[1])

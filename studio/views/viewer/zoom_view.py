"""A picture view for evidence: the picture fits the view at first; the wheel zooms in and out
around the pointer (up to 8x), dragging pans a zoomed picture, a double click fits it again.
`shown_rect()` is the part of the picture in view, in the picture's own pixels."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QImage, QMouseEvent, QPainter, QPaintEvent, QPixmap, QWheelEvent
from PySide6.QtWidgets import QWidget

MAX_ZOOM = 8.0
WHEEL_STEP = 1.25  # zoom factor per wheel notch


class ZoomImageView(QWidget):
    """Paints a picture scaled to fit (aspect kept), zoomed and panned as the user asks."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pixmap = QPixmap()
        self.placeholder = "No step selected"
        self.zoom = 1.0  # 1 = the whole picture fits the view
        self.centre = QPointF(0.5, 0.5)  # the picture point (as fractions) at the view's centre
        self._drag_from: QPoint | None = None
        self.setMinimumSize(160, 90)  # small enough not to squeeze the editor above
        self.setToolTip("Wheel: zoom · drag: pan · double click: fit")

    def set_image(self, image: QImage | None, placeholder: str = "") -> None:
        """Show `image` (the zoom and pan are kept, so scrubbing steps compares one spot)."""
        self.pixmap = QPixmap.fromImage(image) if image is not None else QPixmap()
        self.placeholder = placeholder
        self.update()

    def fit(self) -> None:
        self.zoom, self.centre = 1.0, QPointF(0.5, 0.5)
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(800, 450)

    def _fit_scale(self) -> float:
        if self.pixmap.isNull():
            return 1.0
        return min(self.width() / self.pixmap.width(), self.height() / self.pixmap.height())

    def _target(self) -> QRectF:
        """Where the whole picture is drawn in the view (larger than the view when zoomed)."""
        scale = self._fit_scale() * self.zoom
        w, h = self.pixmap.width() * scale, self.pixmap.height() * scale
        x = self.width() / 2 - self.centre.x() * w
        y = self.height() / 2 - self.centre.y() * h
        return QRectF(x, y, w, h)

    def shown_rect(self) -> QRectF:
        """The part of the picture in view, in picture pixels."""
        if self.pixmap.isNull():
            return QRectF()
        target = self._target()
        sx = self.pixmap.width() / target.width()
        sy = self.pixmap.height() / target.height()
        view = QRectF(0, 0, self.width(), self.height()).intersected(target)
        return QRectF(
            (view.x() - target.x()) * sx,
            (view.y() - target.y()) * sy,
            view.width() * sx,
            view.height() * sy,
        )

    def zoom_at(self, factor: float, at: QPointF) -> None:
        """Zoom by `factor`, keeping the picture point under `at` (view pixels) in place."""
        if self.pixmap.isNull():
            return
        before = self._target()
        fx = (at.x() - before.x()) / before.width()
        fy = (at.y() - before.y()) / before.height()
        self.zoom = min(MAX_ZOOM, max(1.0, self.zoom * factor))
        scale = self._fit_scale() * self.zoom
        w, h = self.pixmap.width() * scale, self.pixmap.height() * scale
        self.centre = QPointF(
            fx - (at.x() - self.width() / 2) / w, fy - (at.y() - self.height() / 2) / h
        )
        self._clamp()
        self.update()

    def pan(self, dx: float, dy: float) -> None:
        """Move the picture by (dx, dy) view pixels."""
        target = self._target()
        if target.width() <= 0:
            return
        self.centre -= QPointF(dx / target.width(), dy / target.height())
        self._clamp()
        self.update()

    def _clamp(self) -> None:
        half_w = 0.5 / self.zoom
        half_h = 0.5 / self.zoom
        x = min(max(self.centre.x(), half_w), 1 - half_w)
        y = min(max(self.centre.y(), half_h), 1 - half_h)
        self.centre = QPointF(x, y)

    # ---- events --------------------------------------------------------------------------
    def wheelEvent(self, event: QWheelEvent) -> None:
        notches = event.angleDelta().y() / 120
        if notches:
            self.zoom_at(WHEEL_STEP**notches, event.position())
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() is Qt.MouseButton.LeftButton:
            self._drag_from = event.position().toPoint()
            self.setCursor(Qt.CursorShape.ClosedHandCursor)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._drag_from is not None:
            now = event.position().toPoint()
            self.pan(now.x() - self._drag_from.x(), now.y() - self._drag_from.y())
            self._drag_from = now

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._drag_from = None
        self.unsetCursor()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        self.fit()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()  # kept: window() is a reference into it
        painter.fillRect(self.rect(), palette.window())
        if self.pixmap.isNull():
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.placeholder)
        else:
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawPixmap(self._target(), self.pixmap, QRectF(self.pixmap.rect()))
            if self.zoom > 1.0:
                painter.drawText(
                    self.rect().adjusted(6, 4, -6, -4),
                    Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop,
                    f"{self.zoom:.1f}x",
                )
        painter.end()

"""Issue 31, point 8: the step screenshot can be zoomed and panned, and the action drawn on it
stays visible once the picture is scaled down to the viewer's size."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage

from studio.views.viewer import overlay
from studio.views.viewer.zoom_view import ZoomImageView

SHOWN_SCALE = 310 / 1280  # the size the issue saw the screenshot at


def _screenshot() -> QImage:
    image = QImage(1280, 720, QImage.Format.Format_RGB32)
    image.fill(QColor(90, 150, 90))  # a green block area: the worst case for a red ring
    return image


def _marked(image: QImage, colour: QColor) -> int:
    """Pixels of `image` close to `colour`."""
    count = 0
    for y in range(image.height()):
        for x in range(image.width()):
            c = image.pixelColor(x, y)
            if (
                abs(c.red() - colour.red()) < 60
                and abs(c.green() - colour.green()) < 60
                and abs(c.blue() - colour.blue()) < 60
            ):
                count += 1
    return count


def test_a_click_ring_and_a_drag_arrow_survive_the_scale_down(qapp: Any) -> None:
    click = overlay.draw(_screenshot(), overlay.Mark("click", [(640, 360)]))
    drag = overlay.draw(_screenshot(), overlay.Mark("drag", [(200, 200), (900, 500)]))
    width = int(1280 * SHOWN_SCALE)
    small_click = click.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)
    small_drag = drag.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)
    assert _marked(small_click, overlay.CLICK) >= 60
    assert _marked(small_drag, overlay.DRAG) >= 150


def test_the_screenshot_zooms_around_the_pointer_pans_and_fits_again(qtbot: Any) -> None:
    view = ZoomImageView()
    qtbot.addWidget(view)
    view.resize(640, 360)
    view.show()
    view.set_image(_screenshot())
    assert view.shown_rect().width() == 1280

    corner = QPointF(160, 90)  # a quarter of the way in: picture point (320, 180)
    view.zoom_at(4.0, corner)
    shown = view.shown_rect()
    assert round(shown.width()) == 320 and round(shown.height()) == 180
    assert abs(shown.x() + shown.width() / 4 - 320) < 2  # the point stayed under the pointer

    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=QPoint(300, 200))
    qtbot.mouseMove(view, QPoint(200, 200))
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=QPoint(200, 200))
    assert view.shown_rect().x() > shown.x()  # dragged left: more of the right side shows

    qtbot.mouseDClick(view, Qt.MouseButton.LeftButton, pos=QPoint(10, 10))
    assert view.zoom == 1.0 and view.shown_rect().width() == 1280

"""A stroke is drawn on its screenshot as its whole path (press ring, the path, release dot),
not as a straight line between its ends."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from PySide6.QtGui import QColor, QImage

from studio.models.agent import StepRecord
from studio.views.viewer import overlay
from studio.views.viewer.marks import mark_for
from studio.views.viewer.steps import ViewerStep


def _screenshot() -> QImage:
    image = QImage(1280, 720, QImage.Format.Format_RGB32)
    image.fill(QColor(255, 255, 255))
    return image


def _is_drag(image: QImage, x: int, y: int) -> bool:
    c, d = image.pixelColor(x, y), overlay.DRAG
    return abs(c.red() - d.red()) < 40 and abs(c.green() - d.green()) < 40


def test_the_stroke_path_passes_through_its_middle_point(qapp: Any) -> None:
    path = [(200.0, 500.0), (640.0, 150.0), (1000.0, 500.0)]
    stroke = overlay.draw(_screenshot(), overlay.Mark("drag", path))
    assert _is_drag(stroke, 640, 152)  # on the path, at the middle point
    assert not _is_drag(stroke, 600, 500)  # the straight line between the ends is not drawn
    straight = overlay.draw(_screenshot(), overlay.Mark("drag", [path[0], path[-1]]))
    assert _is_drag(straight, 600, 500) and not _is_drag(straight, 640, 152)


def test_a_recorded_stroke_becomes_a_drag_mark_with_its_path(qapp: Any) -> None:
    record = StepRecord(
        index=1,
        at=datetime.now(UTC),
        action={"api": "stroke", "args": {"points": [[10, 20], [30, 40], [50, 20]]}},
    )
    step = ViewerStep(record=record)
    mark = mark_for(step)
    assert mark.kind == "drag" and mark.points == [(10.0, 20.0), (30.0, 40.0), (50.0, 20.0)]

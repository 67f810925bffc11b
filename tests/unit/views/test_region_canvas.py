"""Issue 31, point 10: a start region drawn over green blocks is still seen: its border is a
dark line over a white one, whatever the colour underneath."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QColor, QImage

from studio.views.diagnostics.region_canvas import RegionCanvas

GREEN_BLOCK = QColor(89, 192, 89)  # Scratch's Operators green


def _green_png() -> bytes:
    image = QImage(1280, 720, QImage.Format.Format_RGB32)
    image.fill(GREEN_BLOCK)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def test_the_start_region_is_bordered_on_a_block_of_its_own_colour(qtbot: Any) -> None:
    canvas = RegionCanvas()
    qtbot.addWidget(canvas)
    canvas.resize(1280, 720)
    start = {(x, y) for x in range(600, 700, 10) for y in range(300, 360, 10)}
    canvas.show_item(_green_png(), start, set(), 10, None)
    shot = canvas.grab().toImage()
    left_edge = canvas.to_widget(595, 330)  # the region's left border, half a cell out
    inside = canvas.to_widget(650, 330)
    edge = shot.pixelColor(round(left_edge.x()), round(left_edge.y()))
    fill = shot.pixelColor(round(inside.x()), round(inside.y()))
    assert edge.lightness() < 90, edge.name()  # a dark line, not green on green
    assert abs(fill.green() - GREEN_BLOCK.green()) < 60  # the fill stays light

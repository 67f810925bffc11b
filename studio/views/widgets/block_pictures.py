"""Block pictures in the window: scripts drawn as Scratch 3 blocks, in two columns.

`PicturePane` shows sections (a title, and a left and a right list of pictures; a single
column when the right side is None) in a QTextBrowser. Each SVG (from the scratchblocks
renderer, `services.core.blocktext.pictures`) is drawn by Qt's SVG renderer into an image at the
screen's pixel ratio and added to the document as a resource. A script whose text the other
side lacks is framed (red on the left: removed or changed; green on the right: added or
changed), so a change stands out among unchanged scripts; the first one is scrolled into view.

`PictureDrawer` draws projects off the GUI thread (one renderer run for all of them) and
delivers the result on the GUI thread: `drawn(token, targets per project)` or
`failed(token, message)`; a caller keeps the token of its last request and drops older ones.
"""

from __future__ import annotations

import contextlib
import html
import threading
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QByteArray, QObject, QRectF, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QTextDocument
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QTextBrowser, QWidget

from studio.services.core.blocktext.pictures import Picture, TargetPictures, many_pictures

__all__ = ["ZOOM", "PictureDrawer", "PicturePane", "Section", "framed", "svg_image"]

_REMOVED = "#cf222e"
_ADDED = "#1a7f37"
ZOOM = 0.7  # pictures beside the editor read best a little smaller than the package draws them


@dataclass
class Section:
    """One target's scripts on both sides (`right` None: one column)."""

    title: str
    left: list[Picture]
    right: list[Picture] | None = None


def svg_image(svg: str, ratio: float = 1.0, zoom: float = 1.0) -> QImage:
    """The SVG drawn by Qt on white, `zoom` times its size at `ratio` device pixels per pixel.
    It is drawn at its own size (or larger) and then scaled smoothly: text drawn at a small
    size is hinted wider than the shapes measured for it."""
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    size = renderer.defaultSize()
    if not renderer.isValid() or size.isEmpty():
        return QImage()
    scale = max(1.0, ratio)
    width, height = size.width() * scale, size.height() * scale
    image = QImage(QSize(round(width), round(height)), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("white"))
    painter = QPainter(image)
    renderer.render(painter, QRectF(0, 0, width, height))
    painter.end()
    wanted = QSize(round(size.width() * zoom * ratio), round(size.height() * zoom * ratio))
    if wanted != image.size():
        image = image.scaled(
            wanted,
            Qt.AspectRatioMode.IgnoreAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
    image.setDevicePixelRatio(ratio)
    return image


def framed(image: QImage, colour: str, width: int = 3) -> QImage:
    """The image inside a frame of `colour` (`width` pixels, with as much white inside)."""
    ratio = image.devicePixelRatio()
    pad = round(2 * width * ratio)
    out = QImage(image.size() + QSize(2 * pad, 2 * pad), image.format())
    out.fill(QColor("white"))
    painter = QPainter(out)
    painter.drawImage(pad, pad, image)
    pen = QPen(QColor(colour))
    pen.setWidthF(width * ratio)
    painter.setPen(pen)
    half = width * ratio / 2
    painter.drawRect(QRectF(half, half, out.width() - 2 * half, out.height() - 2 * half))
    painter.end()
    out.setDevicePixelRatio(ratio)
    return out


class PicturePane(QTextBrowser):
    """Sections of block pictures (see the module doc); `message` shows a line instead."""

    def __init__(self, parent: QWidget | None = None, zoom: float = ZOOM) -> None:
        super().__init__(parent)
        self.zoom = zoom
        self.setOpenLinks(False)
        self.pictures_shown = 0
        self.framed = 0

    def message(self, text: str) -> None:
        self.pictures_shown = self.framed = 0
        self.setHtml(f"<p style='color:#5f6368'>{html.escape(text)}</p>")

    def show_sections(self, sections: list[Section], titles: tuple[str, str] = ("", "")) -> None:
        document = QTextDocument(self)
        ratio = self.devicePixelRatioF() or 1.0
        self.pictures_shown = self.framed = 0
        parts = ["<table width='100%' cellspacing='6'>"]
        if titles != ("", ""):
            parts.append(
                f"<tr><th align='left'>{html.escape(titles[0])}</th>"
                f"<th align='left'>{html.escape(titles[1])}</th></tr>"
            )
        for section in sections:
            span = " colspan='2'" if section.right is not None else ""
            parts.append(
                f"<tr><td{span} style='background:#e3e7ee'><b>{html.escape(section.title)}</b>"
                "</td></tr>"
            )
            right = section.right
            other = {p.text for p in right} if right is not None else None
            mine = {p.text for p in section.left}
            cells = [self._cell(document, section.left, other, _REMOVED, ratio)]
            if right is not None:
                cells.append(self._cell(document, right, mine, _ADDED, ratio))
            parts.append("<tr>" + "".join(f"<td valign='top'>{c}</td>" for c in cells) + "</tr>")
        parts.append("</table>")
        document.setHtml("".join(parts))
        self.setDocument(document)
        if self.framed:
            self.scrollToAnchor("change")  # the first change in view

    def _cell(
        self,
        document: QTextDocument,
        pictures: list[Picture],
        other: set[str] | None,
        colour: str,
        ratio: float,
    ) -> str:
        if not pictures:
            return "<i style='color:#5f6368'>no scripts</i>"
        out = []
        for picture in pictures:
            lacking = other is not None and picture.text not in other
            image = svg_image(picture.svg, ratio, self.zoom) if picture.error is None else QImage()
            if image.isNull():
                out.append(f"<pre>{html.escape(picture.text)}</pre>")
                continue
            anchor = ""
            if lacking:
                image = framed(image, colour)
                # a line of its own above the picture: an anchor beside an image is at its foot
                first = not self.framed
                anchor = "<p style='font-size:1px'><a name='change'>&nbsp;</a></p>" if first else ""
                self.framed += 1
            self.pictures_shown += 1
            url = QUrl(f"blocks://{self.pictures_shown}.png")
            document.addResource(QTextDocument.ResourceType.ImageResource, url, image)
            width = round(image.width() / ratio)
            out.append(f"{anchor}<p><img src='{url.toString()}' width='{width}'></p>")
        return "".join(out)


class PictureDrawer(QObject):
    """Draws projects in a worker thread; results come back as signals on the GUI thread."""

    drawn = Signal(int, object)  # token, list[list[TargetPictures]]
    failed = Signal(int, str)  # token, message

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.token = 0
        self.worker: threading.Thread | None = None

    def request(self, projects: list[dict[str, Any]]) -> int:
        """Start drawing; the token the answer will carry (the latest request's is `token`).
        `worker` is the thread drawing it."""
        self.token += 1
        token = self.token
        self.worker = threading.Thread(target=self._work, args=(token, projects), daemon=True)
        self.worker.start()
        return token

    def _work(self, token: int, projects: list[dict[str, Any]]) -> None:
        try:
            result: list[list[TargetPictures]] = many_pictures([p["targets"] for p in projects])
        except Exception as exc:  # a renderer that cannot run: the pane says why
            self._answer("failed", token, str(exc))
            return
        self._answer("drawn", token, result)

    def _answer(self, signal: str, *args: Any) -> None:
        """Emit `signal` unless the drawer was deleted while it drew (its pane or window closed):
        then nobody waits for the answer, and Qt's "Signal source has been deleted" is dropped."""
        with contextlib.suppress(RuntimeError):
            getattr(self, signal).emit(*args)

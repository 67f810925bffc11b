"""The OCR interface: text boxes found in a screenshot, and a cache keyed by the image.

A backend turns PNG bytes into `OcrBox`es (axis-aligned, in screenshot pixels, with the
recognizer's confidence). Recognition is CPU-heavy: backends run it in an executor so the
event loop (and the GUI thread on qasync) never waits on it. A caller may pass `skip`
rectangles (x, y, w, h): text found entirely inside one of them will be dropped anyway (the
DOM already names it), so a backend may leave it unrecognized and unreported - recognizing
only the rest is most of the time saved.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from studio.models.errors import StudioError

__all__ = [
    "COVER_TOLERANCE_PX", "CachedOcr", "OcrBackend", "OcrBox", "OcrUnavailable", "Rect",
    "box_from_polygon", "rect_covers",
]  # fmt: skip

Rect = tuple[float, float, float, float]  # x, y, w, h
COVER_TOLERANCE_PX = 2.0


@dataclass(frozen=True)
class OcrBox:
    """One line of text found in an image: what it says, how sure, and where."""

    text: str
    score: float
    x: float
    y: float
    w: float
    h: float


class OcrUnavailable(StudioError, RuntimeError):
    """An OCR backend cannot run here; the message names what is missing."""


class OcrBackend(Protocol):
    """Recognizes text in a PNG image."""

    name: str

    async def recognize(self, png: bytes, skip: Sequence[Rect] = ()) -> list[OcrBox]:
        """Text boxes found in `png`, in image pixels (those inside a `skip` rect may lack)."""
        ...


def rect_covers(outer: Rect, inner: Rect, tolerance: float = COVER_TOLERANCE_PX) -> bool:
    """Whether `outer` contains `inner` entirely (allowing a few pixels of OCR slack)."""
    ox, oy, ow, oh = outer
    ix, iy, iw, ih = inner
    return (
        ix >= ox - tolerance
        and iy >= oy - tolerance
        and ix + iw <= ox + ow + tolerance
        and iy + ih <= oy + oh + tolerance
    )


def box_from_polygon(points: Iterable[Sequence[float]], text: str, score: float) -> OcrBox:
    """The axis-aligned box around a detector's polygon (4 points, possibly tilted)."""
    xs, ys = zip(*((float(p[0]), float(p[1])) for p in points), strict=True)
    x, y = min(xs), min(ys)
    return OcrBox(text.strip(), float(score), x, y, max(xs) - x, max(ys) - y)


class CachedOcr:
    """Wraps a backend: the same screenshot (by SHA-256, with the same skip rects) is
    recognized once."""

    def __init__(self, backend: OcrBackend, size: int = 16) -> None:
        self.backend = backend
        self.name = backend.name
        self.size = size
        self.hits = 0
        self._cache: OrderedDict[str, list[OcrBox]] = OrderedDict()

    async def recognize(self, png: bytes, skip: Sequence[Rect] = ()) -> list[OcrBox]:
        key = hashlib.sha256(png + repr([tuple(r) for r in skip]).encode()).hexdigest()
        if key in self._cache:
            self._cache.move_to_end(key)
            self.hits += 1
            return list(self._cache[key])
        boxes = await self.backend.recognize(png, skip)
        self._cache[key] = boxes
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)
        return list(boxes)

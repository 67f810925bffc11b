"""Default OCR backend: RapidOCR on onnxruntime, whose PP-OCRv4 models ship in the wheel.

It works offline. The engine is loaded once per process (about 0.3 s) and shared by every
backend instance; recognition runs in an executor, one image at a time.

With `skip` rects the work is split: detection on the whole image, then recognition only of
the lines not inside a skip rect (most of an editor screenshot's text is DOM text that the
fusion drops anyway, and recognition is most of the cost).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from typing import Any

from studio.services.ocr.base import OcrBox, OcrUnavailable, Rect, box_from_polygon, rect_covers

_engine: Any = None
_engine_lock = threading.Lock()
_run_lock = threading.Lock()


def _load_engine() -> Any:
    global _engine
    with _engine_lock:
        if _engine is None:
            try:
                from rapidocr_onnxruntime import RapidOCR
            except ImportError as exc:
                raise OcrUnavailable(
                    "rapidocr_onnxruntime is not installed; install the studio's dependencies "
                    "(pip install -e .) or rapidocr_onnxruntime==1.4.4"
                ) from exc
            _engine = RapidOCR()
        return _engine


class RapidOcrBackend:
    """OCR with `rapidocr_onnxruntime` (no download, no GPU).

    The angle classifier is off by default: editor screenshots hold upright text only.
    """

    name = "rapidocr"

    def __init__(self, use_cls: bool = False, min_score: float = 0.5) -> None:
        self.use_cls = use_cls
        self.min_score = min_score

    async def warm_up(self) -> None:
        """Load the models now rather than at the first screenshot."""
        await asyncio.get_running_loop().run_in_executor(None, _load_engine)

    async def recognize(self, png: bytes, skip: Sequence[Rect] = ()) -> list[OcrBox]:
        return await asyncio.get_running_loop().run_in_executor(None, self._recognize, png, skip)

    def _recognize(self, png: bytes, skip: Sequence[Rect]) -> list[OcrBox]:
        engine = _load_engine()
        with _run_lock:
            if skip and hasattr(engine, "text_rec") and hasattr(engine, "load_img"):
                return self._detect_then_recognize(engine, png, skip)
            result, _elapsed = engine(png, use_cls=self.use_cls, text_score=self.min_score)
        return [
            box_from_polygon(poly, str(text), float(score)) for poly, text, score in result or []
        ]

    def _detect_then_recognize(self, engine: Any, png: bytes, skip: Sequence[Rect]) -> list[OcrBox]:
        polygons, _elapsed = engine(png, use_rec=False, use_cls=False)
        found = [box_from_polygon(poly, "", 1.0) for poly in polygons or []]
        todo = [b for b in found if not any(rect_covers(r, (b.x, b.y, b.w, b.h)) for r in skip)]
        image = engine.load_img(png)
        height, width = image.shape[:2]
        crops, boxes = [], []
        for b in todo:
            x0, y0 = max(0, int(b.x)), max(0, int(b.y))
            x1, y1 = min(width, int(b.x + b.w + 1)), min(height, int(b.y + b.h + 1))
            if x1 - x0 >= 2 and y1 - y0 >= 2:
                crops.append(image[y0:y1, x0:x1])
                boxes.append(b)
        if not crops:
            return []
        recognized, _elapsed = engine.text_rec(crops)
        return [
            OcrBox(str(res[0]).strip(), float(res[1]), b.x, b.y, b.w, b.h)
            for b, res in zip(boxes, recognized, strict=True)
            if float(res[1]) >= self.min_score
        ]

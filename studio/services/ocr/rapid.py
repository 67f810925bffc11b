"""Default OCR backend: RapidOCR on onnxruntime, whose PP-OCRv4 models ship in the wheel.

It works offline. The engine is loaded once per process (about 0.3 s) and shared by every
backend instance; recognition runs in an executor, one image at a time.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from studio.services.ocr.base import OcrBox, OcrUnavailable, box_from_polygon

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

    def __init__(self, use_cls: bool = False) -> None:
        self.use_cls = use_cls

    async def warm_up(self) -> None:
        """Load the models now rather than at the first screenshot."""
        await asyncio.get_running_loop().run_in_executor(None, _load_engine)

    async def recognize(self, png: bytes) -> list[OcrBox]:
        return await asyncio.get_running_loop().run_in_executor(None, self._recognize, png)

    def _recognize(self, png: bytes) -> list[OcrBox]:
        engine = _load_engine()
        with _run_lock:
            result, _elapsed = engine(png, use_cls=self.use_cls)
        return [
            box_from_polygon(poly, str(text), float(score)) for poly, text, score in result or []
        ]

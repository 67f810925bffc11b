"""OCR for primitive-mode observations: backends, a cache, and fusion with DOM elements.

`make_backend()` gives the default offline backend (RapidOCR); `make_backend("paddle")` the
optional PaddleOCR one. `$STUDIO_OCR` (rapidocr | paddleocr) changes the default; `off` turns
OCR off in primitive mode (studio.services.episodes.primitive).
"""

from __future__ import annotations

import os

from studio.services.episodes.ocr.base import CachedOcr, OcrBackend, OcrBox, OcrUnavailable

__all__ = ["CachedOcr", "OcrBackend", "OcrBox", "OcrUnavailable", "make_backend"]


def make_backend(name: str | None = None) -> OcrBackend:
    """The OCR backend called `name` (default: $STUDIO_OCR, else rapidocr)."""
    choice = (name or os.environ.get("STUDIO_OCR") or "rapidocr").lower()
    if choice in ("rapid", "rapidocr"):
        from studio.services.episodes.ocr.rapid import RapidOcrBackend

        return RapidOcrBackend()
    if choice in ("paddle", "paddleocr"):
        from studio.services.episodes.ocr.paddle import PaddleOcrBackend

        backend = PaddleOcrBackend()
        backend.check()
        return backend
    raise OcrUnavailable(f"unknown OCR backend {choice!r}; use rapidocr or paddleocr")

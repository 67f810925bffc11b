"""Default OCR backend: RapidOCR 3 on onnxruntime, whose PP-OCRv6 models ship in its wheel.

It works offline: the `rapidocr` wheel carries its default detection, recognition and angle
models (`rapidocr/models/*.onnx`) and the engine is given their paths, so it never reaches for
a model hub (it would, to fetch or replace a missing or altered default model); a missing model
is an `OcrUnavailable` naming the file. OpenCV comes as `opencv-python-headless` (no Qt of its
own). The engine is created once per process and shared by every backend instance; its models
load at the first use (about 1 s) or at `warm_up()`; recognition runs in an executor, one
image at a time.

With `skip` rects the work is split: detection on the whole image, then recognition only of
the lines not inside a skip rect (most of an editor screenshot's text is DOM text that the
fusion drops anyway, and recognition is most of the cost).
"""

from __future__ import annotations

import asyncio
import importlib.util
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studio.services.episodes.ocr.base import (
    OcrBox,
    OcrUnavailable,
    Rect,
    box_from_polygon,
    rect_covers,
)

__all__ = ["MODELS", "RapidOcrBackend", "model_params"]

_engine: Any = None
_engine_lock = threading.Lock()
_run_lock = threading.Lock()
MODELS = {  # the models rapidocr 3.10 ships and uses by default
    "Det": "PP-OCRv6_det_small.onnx",
    "Rec": "PP-OCRv6_rec_small.onnx",
    "Cls": "ch_ppocr_mobile_v2.0_cls_mobile.onnx",
}
_INSTALL = "install the studio's dependencies (pip install -c constraints.txt .)"


def model_params() -> dict[str, str]:
    """The engine parameters: the bundled model files, and errors only in its log."""
    spec = importlib.util.find_spec("rapidocr")
    if spec is None or spec.origin is None:
        raise OcrUnavailable(f"rapidocr is not installed; {_INSTALL}")
    root = Path(spec.origin).parent / "models"
    params = {"Global.log_level": "error"}  # not a warning for each screenshot without text
    for section, name in MODELS.items():
        path = root / name
        if not path.is_file():
            raise OcrUnavailable(
                f"RapidOCR's model {path} is missing (its wheel carries it, nothing is "
                f"downloaded); {_INSTALL}"
            )
        params[f"{section}.model_path"] = str(path)
    return params


def _load_engine() -> Any:
    global _engine
    with _engine_lock:
        if _engine is None:
            params = model_params()
            try:
                from rapidocr import RapidOCR
            except ImportError as exc:  # e.g. onnxruntime or OpenCV missing
                raise OcrUnavailable(f"rapidocr cannot be imported ({exc}); {_INSTALL}") from exc
            _engine = RapidOCR(params=params)
        return _engine


def _load_models() -> None:
    """Load the detection and recognition models (the engine loads them at first use)."""
    import numpy as np

    engine = _load_engine()
    blank = np.full((64, 64, 3), 255, dtype=np.uint8)
    with _run_lock:
        engine(blank, use_det=True, use_cls=False, use_rec=False)
        engine.recognize_txt([blank])


class RapidOcrBackend:
    """OCR with `rapidocr` and its bundled models (no download, no GPU).

    The angle classifier is off by default: editor screenshots hold upright text only.
    """

    name = "rapidocr"

    def __init__(self, use_cls: bool = False, min_score: float = 0.5) -> None:
        self.use_cls = use_cls
        self.min_score = min_score

    async def warm_up(self) -> None:
        """Load the models now rather than at the first screenshot."""
        await asyncio.get_running_loop().run_in_executor(None, _load_models)

    async def recognize(self, png: bytes, skip: Sequence[Rect] = ()) -> list[OcrBox]:
        return await asyncio.get_running_loop().run_in_executor(None, self._recognize, png, skip)

    def _recognize(self, png: bytes, skip: Sequence[Rect]) -> list[OcrBox]:
        engine = _load_engine()
        with _run_lock:  # every flag is passed: the engine keeps the last call's as its own
            if skip:
                return self._detect_then_recognize(engine, png, skip)
            out = engine(
                png, use_det=True, use_cls=self.use_cls, use_rec=True, text_score=self.min_score
            )
        if out.boxes is None or not out.txts:
            return []
        return [
            box_from_polygon(poly, str(text), float(score))
            for poly, text, score in zip(out.boxes, out.txts, out.scores, strict=True)
            if float(score) >= self.min_score
        ]

    def _detect_then_recognize(self, engine: Any, png: bytes, skip: Sequence[Rect]) -> list[OcrBox]:
        detected = engine(png, use_det=True, use_cls=False, use_rec=False)
        polygons = [] if detected.boxes is None else detected.boxes
        found = [box_from_polygon(poly, "", 1.0) for poly in polygons]
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
        recognized = engine.recognize_txt(crops)
        return [
            OcrBox(str(text).strip(), float(score), b.x, b.y, b.w, b.h)
            for b, text, score in zip(boxes, recognized.txts, recognized.scores, strict=True)
            if float(score) >= self.min_score
        ]

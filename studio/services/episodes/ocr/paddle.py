"""Optional OCR backend: PaddleOCR (the ScratchWorld paper's choice), with local models only.

PaddleOCR downloads its models at first use, which machines without internet cannot do. This
backend never lets it try: it looks for the detection and recognition model folders first
(`$STUDIO_PADDLE_MODELS`, else `~/.paddlex/official_models`, where PaddleOCR keeps them) and
raises `OcrUnavailable` naming the package or the folder that is missing. Use the default
RapidOCR backend otherwise.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studio.services.episodes.ocr.base import OcrBox, OcrUnavailable, Rect, box_from_polygon

__all__ = ["DET_MODEL", "REC_MODEL", "PaddleOcrBackend", "default_model_root"]

DET_MODEL = "PP-OCRv5_mobile_det"
REC_MODEL = "PP-OCRv5_mobile_rec"
_WEIGHTS = "inference.pdiparams"
_GRAPHS = ("inference.json", "inference.pdmodel")


def default_model_root() -> Path:
    override = os.environ.get("STUDIO_PADDLE_MODELS")
    return Path(override) if override else Path.home() / ".paddlex" / "official_models"


def _model_problem(folder: Path) -> str | None:
    if not folder.is_dir():
        return f"{folder} does not exist"
    if not (folder / _WEIGHTS).is_file():
        return f"{folder} has no {_WEIGHTS}"
    if not any((folder / g).is_file() for g in _GRAPHS):
        return f"{folder} has neither {' nor '.join(_GRAPHS)}"
    return None


class PaddleOcrBackend:
    """OCR with `paddleocr` 3.x and models already on disk (never downloaded)."""

    name = "paddleocr"

    def __init__(
        self, model_root: Path | None = None, det_model: str = DET_MODEL, rec_model: str = REC_MODEL
    ) -> None:
        self.model_root = model_root or default_model_root()
        self.det_dir = self.model_root / det_model
        self.rec_dir = self.model_root / rec_model
        self.det_model = det_model
        self.rec_model = rec_model
        self._engine: Any = None
        self._lock = threading.Lock()

    def check(self) -> None:
        """Raise OcrUnavailable naming every missing package or model folder."""
        missing = [
            f"the Python package {pkg} (pip install {pkg})"
            for pkg in ("paddleocr", "paddle")
            if importlib.util.find_spec(pkg) is None
        ]
        missing += [
            f"the {kind} model: {problem}"
            for kind, folder in (("detection", self.det_dir), ("recognition", self.rec_dir))
            if (problem := _model_problem(folder))
        ]
        if missing:
            raise OcrUnavailable(
                "PaddleOCR backend cannot run; missing "
                + "; ".join(missing)
                + ". Models cannot be downloaded here: copy them into "
                f"{self.model_root} (or set STUDIO_PADDLE_MODELS), or use the default "
                "rapidocr backend."
            )

    def _load(self) -> Any:
        with self._lock:
            if self._engine is None:
                self.check()
                from paddleocr import PaddleOCR

                self._engine = PaddleOCR(
                    text_detection_model_name=self.det_model,
                    text_detection_model_dir=str(self.det_dir),
                    text_recognition_model_name=self.rec_model,
                    text_recognition_model_dir=str(self.rec_dir),
                    use_doc_orientation_classify=False,
                    use_doc_unwarping=False,
                    use_textline_orientation=False,
                )
            return self._engine

    async def warm_up(self) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self._load)

    async def recognize(self, png: bytes, skip: Sequence[Rect] = ()) -> list[OcrBox]:
        """All text found (`skip` is not used: PaddleOCR detects and recognizes in one go)."""
        return await asyncio.get_running_loop().run_in_executor(None, self._recognize, png)

    def _recognize(self, png: bytes) -> list[OcrBox]:
        import cv2
        import numpy as np

        engine = self._load()
        image = cv2.imdecode(np.frombuffer(png, dtype=np.uint8), cv2.IMREAD_COLOR)
        boxes: list[OcrBox] = []
        for page in engine.predict(image):
            for poly, text, score in zip(
                page["rec_polys"], page["rec_texts"], page["rec_scores"], strict=False
            ):
                boxes.append(box_from_polygon(poly, str(text), float(score)))
        return boxes

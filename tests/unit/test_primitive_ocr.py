"""OCR backends: RapidOCR reads text offline with its wheel's models and names a missing one;
PaddleOCR says what is missing; names."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from studio.services.episodes.ocr import OcrUnavailable, make_backend, rapid
from studio.services.episodes.ocr.paddle import PaddleOcrBackend
from studio.services.episodes.ocr.rapid import RapidOcrBackend


def _png_with_text(text: str, below: str = "") -> bytes:
    import cv2
    import numpy as np

    # the detector scales the short side to 736 px: a small image would be blown up
    image = np.full((736, 736, 3), 255, dtype=np.uint8)
    cv2.putText(image, text, (12, 52), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (20, 20, 20), 2)
    if below:
        cv2.putText(image, below, (12, 400), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (20, 20, 20), 2)
    ok, buf = cv2.imencode(".png", image)
    assert ok
    return bytes(buf)


def test_rapidocr_reads_text_offline() -> None:
    backend = make_backend("rapidocr")
    assert isinstance(backend, RapidOcrBackend)
    boxes = asyncio.run(backend.recognize(_png_with_text("Make a Variable")))
    assert boxes, "no text found"
    best = max(boxes, key=lambda b: b.score)
    assert "Variable" in best.text and best.score > 0.5
    assert 0 <= best.x < 60 and 10 <= best.y < 50 and best.w > 150


def test_rapidocr_leaves_skipped_text_unrecognized() -> None:
    backend = RapidOcrBackend()
    png = _png_with_text("Make a Variable", below="Sprite")
    boxes = asyncio.run(backend.recognize(png, skip=[(0, 0, 400, 100)]))
    assert [b.text for b in boxes] == ["Sprite"]
    assert 350 < boxes[0].y < 420


def test_rapidocr_uses_the_models_of_its_wheel_and_names_a_missing_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    params = rapid.model_params()
    assert {Path(params[f"{s}.model_path"]).name for s in ("Det", "Rec", "Cls")} == set(
        rapid.MODELS.values()
    )
    assert all(Path(p).parent.parent.name == "rapidocr" for k, p in params.items() if "model" in k)
    monkeypatch.setitem(rapid.MODELS, "Rec", "no-such-model.onnx")
    with pytest.raises(OcrUnavailable, match=r"model \S+/rapidocr/models/no-such-model.onnx is"):
        rapid.model_params()


def test_paddle_names_what_is_missing(tmp_path: Path) -> None:
    (tmp_path / "PP-OCRv5_mobile_det").mkdir()
    (tmp_path / "PP-OCRv5_mobile_det" / "inference.pdiparams").write_bytes(b"")
    backend = PaddleOcrBackend(model_root=tmp_path)
    with pytest.raises(OcrUnavailable) as info:
        backend.check()
    message = str(info.value)
    assert "detection model" in message and "neither inference.json" in message
    assert f"recognition model: {tmp_path / 'PP-OCRv5_mobile_rec'} does not exist" in message
    assert "rapidocr" in message and str(tmp_path) in message


def test_paddle_model_root_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUDIO_PADDLE_MODELS", str(tmp_path))
    assert PaddleOcrBackend().det_dir == tmp_path / "PP-OCRv5_mobile_det"
    with pytest.raises(OcrUnavailable, match="PaddleOCR backend cannot run"):
        make_backend("paddle")


def test_unknown_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(OcrUnavailable, match="unknown OCR backend 'tesseract'"):
        make_backend("tesseract")
    monkeypatch.setenv("STUDIO_OCR", "rapidocr")
    assert isinstance(make_backend(), RapidOcrBackend)

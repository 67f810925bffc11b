"""Primitive-mode observations on a fake page: screenshot, fused elements, OCR switch."""

from __future__ import annotations

import asyncio
import base64

import pytest

from studio.services.episodes.ocr.base import OcrBox
from studio.services.episodes.primitive import PrimitiveMode, ocr_enabled_by_default
from tests.helpers.primitive_fakes import PNG, FakeOcr, FakePage, dom

ELEMENTS = [
    dom("category_menu", "Motion", 1, 93, 60, 45, id="motion", selected=True),
    dom("canvas", "code area", 313, 93, 470, 627),
]
BOXES = [
    OcrBox("Motion", 0.99, 10, 120, 40, 12),  # inside the category: dropped
    OcrBox("Sprite", 0.98, 801, 486, 34, 15),
    OcrBox("x", 0.3, 1000, 486, 8, 15),  # low confidence: dropped
]


def test_observation_fuses_dom_and_ocr() -> None:
    ocr = FakeOcr(BOXES)
    mode, page = PrimitiveMode(backend=ocr), FakePage(ELEMENTS)
    asyncio.run(mode.setup(page))
    assert ocr.warmed and page.injected == 1
    obs = asyncio.run(mode.observe(page, 3))
    assert obs.step == 3 and base64.b64decode(obs.screenshot_png_b64 or "") == PNG
    assert [(e.index, e.type, e.text, e.source) for e in obs.elements] == [
        (0, "category_menu", "Motion", "dom"),
        (1, "canvas", "code area", "dom"),
        (2, "text", "Sprite", "ocr"),
    ]
    assert obs.elements[0].meta == {"id": "motion", "selected": True}
    assert mode.elements == obs.elements
    assert ocr.skips == [[(1, 93, 60, 45)]]  # the category's text needs no recognition
    assert set(mode.last_timings) >= {"screenshot_ms", "elements_ms", "total_ms"}
    asyncio.run(mode.observe(page, 4))
    assert ocr.calls == 1  # the same screenshot is recognized once


def test_ocr_off_lists_dom_elements_only() -> None:
    ocr = FakeOcr(BOXES)
    mode, page = PrimitiveMode(ocr=False, backend=ocr), FakePage(ELEMENTS)
    asyncio.run(mode.setup(page))
    obs = asyncio.run(mode.observe(page, 0))
    assert [e.source for e in obs.elements] == ["dom", "dom"]
    assert ocr.calls == 0 and not ocr.warmed


def test_script_is_injected_again_after_a_reload() -> None:
    mode, page = PrimitiveMode(ocr=False), FakePage(ELEMENTS)
    obs = asyncio.run(mode.observe(page, 0))  # no setup: the page lacks the script
    assert page.injected == 1 and len(obs.elements) == 2
    assert page.js_calls[0][0] == "settle"


@pytest.mark.parametrize(
    ("value", "on"), [("", True), ("rapidocr", True), ("off", False), ("0", False)]
)
def test_ocr_default_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, value: str, on: bool
) -> None:
    monkeypatch.setenv("STUDIO_OCR", value)
    assert ocr_enabled_by_default() is on
    assert PrimitiveMode().ocr is on
    assert PrimitiveMode(ocr=True).ocr is True

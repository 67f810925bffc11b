"""Fusing DOM elements with OCR boxes: thresholds, covering, areas, order and indexes."""

from __future__ import annotations

import asyncio

import pytest

from studio.models.agent import Element
from studio.services.episodes.ocr.base import CachedOcr, OcrBox, box_from_polygon
from studio.services.episodes.ocr.fuse import MIN_SCORE, covers, fuse, kept_ocr_boxes
from tests.helpers.primitive_fakes import FakeOcr, dom

BUTTON = dom("buttons", "Code", 0, 53, 95, 40)
CANVAS = dom("canvas", "code area", 313, 93, 470, 627)
STAGE = dom("stage", "Stage", 790, 92, 482, 362)


def _el(**kw: float) -> Element:
    return Element(index=0, type="blocks", text="b", **{"x": 10, "y": 10, "w": 100, "h": 40, **kw})


def test_threshold_is_half_and_inclusive() -> None:
    assert MIN_SCORE == 0.5
    boxes = [OcrBox("low", 0.49, 0, 0, 10, 10), OcrBox("edge", 0.5, 0, 20, 10, 10)]
    assert [b.text for b in kept_ocr_boxes([], boxes)] == ["edge"]
    assert [b.text for b in kept_ocr_boxes([], boxes, min_score=0.3)] == ["low", "edge"]


def test_fully_covered_boxes_are_dropped_partly_covered_kept() -> None:
    inside = OcrBox("Code", 0.99, 20, 65, 40, 18)
    overlapping = OcrBox("Code Costumes", 0.99, 20, 65, 150, 18)
    outside = OcrBox("Sprite", 0.99, 801, 486, 34, 15)
    fused = fuse([BUTTON], [inside, overlapping, outside])
    assert [e.text for e in fused] == ["Code", "Code Costumes", "Sprite"]


def test_cover_allows_a_little_slack() -> None:
    el = _el()
    assert covers(el, OcrBox("t", 1, 8.5, 9, 102, 42))  # within 2 px
    assert not covers(el, OcrBox("t", 1, 7, 10, 50, 20))  # 3 px out on the left
    assert not covers(el, OcrBox("t", 1, 10, 10, 100, 43.5))  # 3.5 px out at the bottom


def test_canvas_and_stage_cover_nothing() -> None:
    in_canvas = OcrBox("when clicked", 0.9, 400, 200, 80, 16)
    on_stage = OcrBox("Hello!", 0.9, 1000, 200, 50, 16)
    fused = fuse([CANVAS, STAGE], [in_canvas, on_stage])
    assert [(e.type, e.text) for e in fused[2:]] == [("text", "when clicked"), ("text", "Hello!")]


def test_order_indexes_and_ocr_fields() -> None:
    boxes = [
        OcrBox("second row", 0.8, 10, 300, 40, 10),
        OcrBox("right", 0.8, 500, 100, 40, 10),
        OcrBox("left", 0.8, 100, 101, 40, 10),  # same row as "right" (within 4 px)
        OcrBox("   ", 0.99, 0, 600, 10, 10),  # empty text: dropped
    ]
    fused = fuse([STAGE, BUTTON], boxes)
    assert [e.index for e in fused] == list(range(5))
    assert [e.text for e in fused] == ["Stage", "Code", "left", "right", "second row"]
    assert fused[0].source == "dom" and fused[0].type == "stage"
    left = fused[2]
    assert (left.type, left.source, left.x, left.y, left.w, left.h) == (
        "text",
        "ocr",
        100,
        101,
        40,
        10,
    )
    assert left.meta == {"score": 0.8}


def test_dom_elements_keep_their_order_and_meta() -> None:
    raw = [dom("blocks", "motion_movesteps on canvas", 300, 100, 90, 40, block_id="abc"), BUTTON]
    fused = fuse(raw)
    assert [(e.index, e.text) for e in fused] == [(0, "motion_movesteps on canvas"), (1, "Code")]
    assert fused[0].meta == {"block_id": "abc"}
    again = fuse([fused[1], fused[0]])  # Element instances are renumbered too
    assert [(e.index, e.text) for e in again] == [(0, "Code"), (1, "motion_movesteps on canvas")]


def test_box_from_a_tilted_polygon() -> None:
    box = box_from_polygon([[127, 66], [189, 69], [189, 86], [127, 84]], " Costumes ", 0.99)
    assert box == OcrBox("Costumes", 0.99, 127, 66, 62, 20)


def test_cache_recognizes_a_screenshot_once() -> None:
    backend = FakeOcr([OcrBox("File", 0.9, 1, 2, 3, 4)])
    cache = CachedOcr(backend, size=2)

    async def run() -> None:
        assert await cache.recognize(b"a") == backend.boxes
        assert await cache.recognize(b"a") == backend.boxes
        await cache.recognize(b"b")
        await cache.recognize(b"c")  # evicts "a"
        await cache.recognize(b"a")

    asyncio.run(run())
    assert backend.calls == 4 and cache.hits == 1


@pytest.mark.parametrize("score", [0.0, 0.2, 0.4999])
def test_low_scores_never_listed(score: float) -> None:
    assert fuse([], [OcrBox("x", score, 0, 0, 5, 5)]) == []

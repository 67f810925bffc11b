"""Fuse DOM elements with OCR text boxes into one indexed element list (FORMATS.md section 3).

DOM elements keep their order and come first. An OCR box is dropped when its confidence is
under `MIN_SCORE` or when one DOM element's box covers it fully (DOM text wins where both
exist: small mixed text such as "go to x: 0 y: 0" often comes out of OCR garbled). The
`canvas` and `stage` elements are areas, not labels: they cover nothing, so text drawn in
the code area or on the stage (a speech bubble) stays. The remaining OCR boxes are appended
as type `text`, source `ocr`, top-to-bottom then left-to-right, and everything is numbered
0..n-1.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from studio.models.agent import Element
from studio.services.episodes.ocr.base import COVER_TOLERANCE_PX, OcrBox, Rect, rect_covers

__all__ = ["AREA_TYPES", "MIN_SCORE", "covering_rects", "covers", "fuse", "kept_ocr_boxes"]

MIN_SCORE = 0.5
AREA_TYPES = frozenset({"canvas", "stage"})


def covers(outer: Element, box: OcrBox, tolerance: float = COVER_TOLERANCE_PX) -> bool:
    """Whether `outer` contains `box` entirely (allowing a few pixels of OCR slack)."""
    return rect_covers(
        (outer.x, outer.y, outer.w, outer.h), (box.x, box.y, box.w, box.h), tolerance
    )


def covering_rects(dom: Iterable[Element]) -> list[Rect]:
    """The rects whose text fusion drops: every DOM element but the areas (a backend's skip)."""
    return [(e.x, e.y, e.w, e.h) for e in dom if e.type not in AREA_TYPES]


def _as_element(index: int, raw: Element | Mapping[str, Any]) -> Element:
    if isinstance(raw, Element):
        return raw.model_copy(update={"index": index})
    data = {k: raw[k] for k in ("type", "text", "x", "y", "w", "h") if k in raw}
    return Element(
        index=index,
        source=raw.get("source", "dom"),
        meta=dict(raw.get("meta") or {}),
        **data,
    )


def kept_ocr_boxes(
    dom: Sequence[Element], boxes: Iterable[OcrBox], min_score: float = MIN_SCORE
) -> list[OcrBox]:
    """The OCR boxes worth listing: confident, non-empty, not covered by a DOM element."""
    covering = [e for e in dom if e.type not in AREA_TYPES]
    kept = [
        b
        for b in boxes
        if b.score >= min_score and b.text.strip() and not any(covers(e, b) for e in covering)
    ]
    return sorted(kept, key=lambda b: (round(b.y / 4), b.x))


def fuse(
    dom: Iterable[Element | Mapping[str, Any]],
    boxes: Iterable[OcrBox] = (),
    min_score: float = MIN_SCORE,
) -> list[Element]:
    """DOM elements in their order, then the OCR boxes kept, indexed 0..n-1."""
    elements = [_as_element(i, raw) for i, raw in enumerate(dom)]
    for box in kept_ocr_boxes(elements, boxes, min_score):
        elements.append(
            Element(
                index=len(elements),
                type="text",
                text=box.text,
                x=round(box.x),
                y=round(box.y),
                w=round(box.w),
                h=round(box.h),
                source="ocr",
                meta={"score": round(box.score, 3)},
            )
        )
    return elements

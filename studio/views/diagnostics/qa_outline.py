"""Where a QA item's block is drawn on its screenshot.

A QA item made by `studio qa capture` (or the labeling window) records in `capture.subject_box`
the box of the block its question is about, in px of its screenshot; the QA tab outlines it.
The box is read from a file, so it is checked: four finite numbers with a positive size, or no
outline. An item about a block (`subject.block_id`) that carries no usable box says so in the
caption, so a missing outline is never silent (`studio qa recapture` gives an item one; the
items shipped in diagnostics/qa were recaptured so).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRectF

from studio.models.qa_item import QaItem


def subject_rect(item: QaItem) -> QRectF | None:
    """The box of the block asked about (`capture.subject_box`, px of the screenshot), or None
    when the item has none or it is not four finite numbers with a positive size."""
    box = item.capture.get("subject_box")
    if not isinstance(box, dict):
        return None
    try:
        x, y, w, h = (float(box[key]) for key in ("x", "y", "w", "h"))
    except (KeyError, TypeError, ValueError):
        return None
    if not all(math.isfinite(v) for v in (x, y, w, h)) or w <= 0 or h <= 0:
        return None
    return QRectF(x, y, w, h)


def outline_note(item: QaItem) -> str:
    """What the caption adds when a question about a block cannot outline it."""
    if not item.subject.block_id or subject_rect(item) is not None:
        return ""
    why = "unreadable" if "subject_box" in item.capture else "not recorded at capture"
    return f" · no outline: the block's box is {why} (studio qa recapture gives it one)"

"""Capturing perception QA items from the editor and suggesting their answers.

`capture` takes a screenshot of the full window or of the code area only; `suggest` computes
the answer a question should have from the VM and the workspace at that moment (connection:
the block has a parent in the VM; existence: a block of the opcode is in the code area and
enough of it can be reached by a press, i.e. is not hidden; field: the text the field shows).
The labeler confirms or corrects the suggestion (`studio.services.diagnostics.qa.review.confirm`).
"""

from __future__ import annotations

from typing import Any

from studio.models.errors import StudioError
from studio.models.qa_item import QaItem, QaType, Subject, Suggestion
from studio.services.runtime import page_scripts
from studio.services.runtime.page_scripts import COMPOSITE, DRAG, EDITOR, QA
from studio.services.runtime.page_seam import EditorPage

__all__ = ["capture", "make_item", "subject_box", "suggest"]


async def capture(page: EditorPage, area: str = "window") -> tuple[bytes, dict[str, Any]]:
    """A PNG of the window or of the code area ("canvas"), and how it was taken."""
    await page_scripts.call(page, COMPOSITE, "snapshot")  # let the editor settle
    if area == "window":
        return await page.screenshot(type="png"), {"area": "window"}
    if area != "canvas":
        raise StudioError(f"capture area {area!r}: use window or canvas")
    box = await page_scripts.call(page, QA, "codeArea")
    view = await page_scripts.call(page, EDITOR, "viewport")
    clip = {k: round(box[k]) for k in ("x", "y")}
    # the picture stops at the screen's edge, and so does the clip kept with it
    clip["w"] = min(round(box["x"] + box["w"]), int(view[0])) - clip["x"]
    clip["h"] = min(round(box["y"] + box["h"]), int(view[1])) - clip["y"]
    png = await page.screenshot(
        type="png", clip={"x": clip["x"], "y": clip["y"], "width": clip["w"], "height": clip["h"]}
    )
    return png, {"area": "canvas", "clip": clip}


async def suggest(page: EditorPage, task_type: QaType, subject: Subject) -> Suggestion:
    """The answer the VM and workspace give now, with a finer tag and the reason."""
    if task_type is QaType.CONNECTION:
        out = await page_scripts.call(page, QA, "connection", subject.block_id)
    elif task_type is QaType.EXISTENCE:
        out = await page_scripts.call(page, QA, "existence", subject.opcode)
    else:
        out = await page_scripts.call(page, QA, "field", subject.block_id, subject.field)
    if "error" in out:
        raise StudioError(f"cannot suggest an answer: {out['error']}")
    return Suggestion(answer=str(out["answer"]), tag=str(out["tag"]), why=str(out.get("why", "")))


async def subject_box(
    page: EditorPage, subject: Subject, clip: dict[str, int] | None = None
) -> dict[str, float] | None:
    """Where the question's block is in the picture (px of the picture, so relative to the
    clip of a code-area capture); None for a question about an opcode."""
    if not subject.block_id:
        return None
    blocks = await page_scripts.call(page, QA, "blocks")
    found = next((b["box"] for b in blocks if b["id"] == subject.block_id), None)
    if found is None:
        return None
    dx, dy = (clip["x"], clip["y"]) if clip else (0, 0)
    return {
        "x": round(found["x"] - dx, 1),
        "y": round(found["y"] - dy, 1),
        "w": round(found["w"], 1),
        "h": round(found["h"], 1),
    }


async def make_item(
    page: EditorPage,
    task_id: str,
    question: str,
    task_type: QaType,
    subject: Subject,
    screenshot: str,
    focus_hint: str = "",
    capture_info: dict[str, Any] | None = None,
    tag: str | None = None,
) -> QaItem:
    """A draft item whose ground truth is the suggestion (the labeler then confirms it)."""
    sugg = await suggest(page, task_type, subject)
    view = await page_scripts.call(page, DRAG, "viewState")
    info = dict(capture_info or {})
    if view:
        info["workspace_state"] = view
    box = await subject_box(page, subject, info.get("clip"))
    if box is not None:
        info["subject_box"] = box
    return QaItem(
        task_id=task_id,
        instruction=question,
        screenshot=screenshot,
        task_type=task_type,
        tag=tag or sugg.tag,
        ground_truth=sugg.answer,
        focus_hint=focus_hint,
        subject=subject,
        capture=info,
        suggestion=sugg,
    )

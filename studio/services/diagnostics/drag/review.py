"""The review rules of a drag item, on top of the shared steps of `studio.services.diagnostics`.

- A label is a labeler's start region and end region, both non-empty; recording it makes a
  draft or rejected item labeled (an approved item stays approved: a label is kept apart).
- An item is labeled or approved only with both regions: its stored ones, or, when a labeler
  is named, that labeler's label (approving with a labeler makes the label the item's regions,
  and the label's grab point the item's `drag_start_point`: an end region is for one grab).
- Approving with `again` re-approves an approved item (reopened first, as the labeling window
  does when the labeler approves what the canvas shows); without, that is a ReviewError.

Every refusal is a `studio.services.core.errors.ReviewError` that names the item.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from studio.models.drag_item import DragItem, RegionLabel
from studio.models.errors import ReviewError
from studio.models.items import ReviewState
from studio.services.diagnostics.drag.agreement import label_of
from studio.services.diagnostics.review import about, after_labeling, approval

__all__ = ["Points", "approve", "move", "record_label", "regions_replaced"]

Points = list[list[int]]


def _name(item: DragItem) -> str:
    return f"drag item {item.id}"


def _require_regions(start: Points, end: Points, what: str) -> None:
    missing = [name for name, points in (("a start", start), ("an end", end)) if not points]
    if missing:
        raise ReviewError(
            f"{what} needs {' and '.join(missing)} region (compute the regions or brush them first)"
        )


def record_label(
    item: DragItem,
    labeler: str,
    start: Points,
    end: Points,
    grab: Sequence[float] | None = None,
) -> DragItem:
    """Store `labeler`'s regions (replacing their earlier ones) with the grab point the end
    region is for (`grab`, else the item's `drag_start_point`); the item becomes labeled."""
    with about(_name(item)):
        if not labeler:
            raise ReviewError("a label needs the labeler's name")
        _require_regions(start, end, "a label")
        at = datetime.now(UTC).isoformat(timespec="seconds")
        point = grab if grab is not None else item.evaluation_config.drag_start_point
        label = RegionLabel(
            labeler=labeler,
            start_points=start,
            end_points=end,
            at=at,
            drag_start_point=[float(v) for v in point] if point else None,
        )
        labels = [lab for lab in item.labels if lab.labeler != labeler] + [label]
        review = after_labeling(item.review, labeler)
    return item.model_copy(update={"labels": labels, "review": review})


def approve(
    item: DragItem,
    reviewer: str,
    labeler: str | None = None,
    comment: str = "",
    again: bool = False,
) -> DragItem:
    """Approve the item; with `labeler`, that labeler's regions become the item's regions."""
    cfg = item.evaluation_config.model_copy()
    if labeler:
        lab = label_of(item, labeler)
        cfg.feasible_start_points = lab.start_points
        cfg.feasible_points = lab.end_points
        if lab.drag_start_point:  # the end region is for the label's grab point
            cfg.drag_start_point = list(lab.drag_start_point)
    with about(_name(item)):
        _require_regions(cfg.feasible_start_points, cfg.feasible_points, "approving")
        review = approval(item.review, reviewer, labeler or "", comment, again)
    return item.model_copy(update={"evaluation_config": cfg, "review": review})


def move(item: DragItem, state: ReviewState, by: str, comment: str = "") -> DragItem:
    """One step of the item's review (reject, reopen, labeled by `by`); approving goes
    through `approve` (the item's stored regions)."""
    if state is ReviewState.APPROVED:
        return approve(item, by, comment=comment)
    with about(_name(item)):
        if state is ReviewState.LABELED:
            own = [lab for lab in item.labels if lab.labeler == by]
            cfg = item.evaluation_config
            if own:
                _require_regions(own[0].start_points, own[0].end_points, "labeled")
            else:
                _require_regions(cfg.feasible_start_points, cfg.feasible_points, "labeled")
        review = item.review.move(state, by, comment)
    return item.model_copy(update={"review": review})


def regions_replaced(item: DragItem, by: str, comment: str) -> DragItem:
    """New regions need a new look: a labeled, approved or rejected item goes back to draft."""
    if item.review.state is ReviewState.DRAFT:
        return item
    return item.model_copy(update={"review": item.review.move(ReviewState.DRAFT, by, comment)})

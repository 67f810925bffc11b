"""Two labelers on one drag item: blind labeling and region agreement (IoU).

A labeler works on `blind_copy(item, name)`: the item without the other labelers' regions
(and without the computed regions when `hide_computed`), so a second labeler does not see the
first's labels. Each labeler's regions are kept apart (`diagnostics.drag.review.record_label`);
`region_agreement` reports the IoU of the start regions and of the end regions of two labelers.
An end region is for one grab point (the label's `drag_start_point`): when the two labels were
made for different grab points, the second's end region is moved by the difference (to the
nearest grid step) before they are compared, as scoring moves an end point with its start.
"""

from __future__ import annotations

from typing import Any

from studio.models.drag_item import DragItem, RegionLabel
from studio.models.errors import StudioError
from studio.services.diagnostics.drag.grid import iou

__all__ = ["blind_copy", "label_of", "region_agreement"]


def blind_copy(item: DragItem, labeler: str, hide_computed: bool = False) -> DragItem:
    """The item as `labeler` may see it: only their own labels."""
    copy = item.model_copy(deep=True)
    copy.labels = [lab for lab in copy.labels if lab.labeler == labeler]
    if hide_computed:
        copy.evaluation_config.feasible_start_points = []
        copy.evaluation_config.feasible_points = []
    return copy


def label_of(item: DragItem, labeler: str) -> RegionLabel:
    for lab in item.labels:
        if lab.labeler == labeler:
            return lab
    raise StudioError(f"item {item.id}: {labeler} has not labeled it")


def _pts(points: list[list[int]]) -> set[tuple[int, int]]:
    return {(int(p[0]), int(p[1])) for p in points}


def _grab_shift(item: DragItem, a: RegionLabel, b: RegionLabel) -> tuple[int, int]:
    """How far b's end region moves to be for a's grab point (whole grid steps)."""
    own = item.evaluation_config.drag_start_point
    ga, gb = a.drag_start_point or own, b.drag_start_point or own
    if not ga or not gb:
        return 0, 0
    grid = item.evaluation_config.grid
    return (
        round((ga[0] - gb[0]) / grid) * grid,
        round((ga[1] - gb[1]) / grid) * grid,
    )


def region_agreement(item: DragItem, first: str, second: str) -> dict[str, Any]:
    """IoU of the two labelers' start regions, end regions (for one grab point), and their
    mean."""
    a, b = label_of(item, first), label_of(item, second)
    start = iou(_pts(a.start_points), _pts(b.start_points))
    dx, dy = _grab_shift(item, a, b)
    moved = {(x + dx, y + dy) for x, y in _pts(b.end_points)}
    end = iou(_pts(a.end_points), moved)
    return {
        "item": item.id,
        "labelers": [first, second],
        "start_iou": round(start, 4),
        "end_iou": round(end, 4),
        "mean_iou": round((start + end) / 2, 4),
    }

"""What a region computation's result becomes: compared with the item's stored regions,
kept beside them as the "computed" label, or stored as the item's working regions.

Split from `regions` (which computes the result and re-exports these names)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from studio.models.drag_item import RegionLabel, RegionStats
from studio.services.labeling.drag.grid import iou
from studio.services.labeling.drag.item import ItemFolder
from studio.services.labeling.drag.review import regions_replaced

if TYPE_CHECKING:
    from studio.services.labeling.drag.regions import RegionResult

__all__ = ["COMPUTED_LABEL", "apply_result", "compare_with_stored", "keep_as_label"]

COMPUTED_LABEL = "computed"


def compare_with_stored(entry: ItemFolder, result: RegionResult) -> dict[str, Any]:
    """IoU of computed against stored regions (start and end), with the point counts."""
    cfg = entry.item.evaluation_config
    out: dict[str, Any] = {}
    for kind, stored, computed in (
        ("start", cfg.feasible_start_points, result.start_points),
        ("end", cfg.feasible_points, result.end_points),
    ):
        out[kind] = {
            "iou": round(iou([(p[0], p[1]) for p in stored], computed), 4),
            "stored": len(stored),
            "computed": len(computed),
        }
    return out


def keep_as_label(entry: ItemFolder, result: RegionResult) -> None:
    """Keep computed regions beside the stored ones (a label named "computed"), and save."""
    labels = [lab for lab in entry.item.labels if lab.labeler != COMPUTED_LABEL]
    labels.append(
        RegionLabel(
            labeler=COMPUTED_LABEL,
            start_points=[list(p) for p in result.start_points],
            end_points=[list(p) for p in result.end_points],
            at=datetime.now(UTC).isoformat(timespec="seconds"),
            drag_start_point=[float(v) for v in result.drag_start_point],
        )
    )
    entry.item.labels = labels
    entry.save()


def apply_result(entry: ItemFolder, result: RegionResult, grid: int, pages: int) -> None:
    """Store computed regions in the item (its working regions) and save it. Regions that
    differ from the stored ones send a reviewed item back to draft; the same regions computed
    again leave its review as it was (only the computation's figures are new)."""
    cfg = entry.item.evaluation_config
    before = (_point_set(cfg.feasible_start_points), _point_set(cfg.feasible_points))
    cfg.feasible_start_points = [list(p) for p in result.start_points]
    cfg.feasible_points = [list(p) for p in result.end_points]
    cfg.drag_start_point = [float(v) for v in result.drag_start_point]  # the regions' grab
    if cfg.seed_point is None:
        cfg.seed_point = [float(v) for v in result.drag_start_point]
    cfg.grid = grid
    implied = sum(v.get("implied", 0) for v in result.evidence.values())
    entry.item.region_stats = RegionStats(
        seconds=round(result.seconds, 2),
        drags=result.drags,
        pages=pages,
        start_points=len(result.start_points),
        end_points=len(result.end_points),
        implied_points=implied,
        method="predicted regions, boundary verified by real drags",
    )
    if before != (_point_set(cfg.feasible_start_points), _point_set(cfg.feasible_points)):
        entry.item = regions_replaced(entry.item, "studio", "regions recomputed")
    entry.save()


def _point_set(points: Sequence[Sequence[float]]) -> frozenset[tuple[float, float]]:
    return frozenset((float(p[0]), float(p[1])) for p in points)

"""What a region computation's result becomes: compared with the item's stored regions,
kept beside them as the "computed" label, or stored as the item's working regions.

`record` is the one rule both front ends go through (`compute.RegionWorkshop.compute` applies
it to every result it computes): a comparison keeps the result as the "computed" label and
leaves the stored regions alone; otherwise the result becomes the item's regions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from studio.models.drag_item import RegionLabel, RegionStats
from studio.services.diagnostics.drag.grid import iou
from studio.services.diagnostics.drag.item import ItemFolder
from studio.services.diagnostics.drag.regions import RegionResult
from studio.services.diagnostics.drag.review import regions_replaced

__all__ = [
    "COMPUTED_LABEL",
    "RegionOutcome",
    "apply_result",
    "compare_with_stored",
    "keep_as_label",
    "record",
]

COMPUTED_LABEL = "computed"


@dataclass(frozen=True)
class RegionOutcome:
    """One item's computation as `record` left it: the result, the grid and the number of
    pages it was computed with, and its comparison with the stored regions (`compared`, as
    `compare_with_stored` gives it; None: the result became the item's regions)."""

    item_id: str
    result: RegionResult
    grid: int
    pages: int
    compared: dict[str, Any] | None = None

    @property
    def stored(self) -> bool:
        """Whether the result became the item's working regions (not only a label)."""
        return self.compared is None

    def as_json(self) -> dict[str, Any]:
        """The item's row: its id, the result's figures, and the comparison when one was made."""
        row = {"item": self.item_id} | self.result.as_json()
        return row | ({"compare": self.compared} if self.compared is not None else {})


def record(
    entry: ItemFolder, result: RegionResult, grid: int, pages: int, compare: bool = False
) -> RegionOutcome:
    """The one rule for a computed result. `compare`: the result is compared with the stored
    regions and kept beside them as the "computed" label (`keep_as_label`); the item's
    regions and review stay as they were. Otherwise it becomes the item's regions, computed
    on a `grid` px grid with `pages` pages (`apply_result`). The item is saved either way."""
    if compare:
        compared = compare_with_stored(entry, result)
        keep_as_label(entry, result)
        return RegionOutcome(entry.item.id, result, grid, pages, compared)
    apply_result(entry, result, grid, pages)
    return RegionOutcome(entry.item.id, result, grid, pages)


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

"""Regions: compute a drag item's feasible start and end regions and store or keep the result.

The use case of `studio regions compute` and of the drag items tab's Compute, written once:
`prepare` checks items before a browser opens, `RegionWorkshop` computes on a browser's editor
windows (borrowed from the caller's pool, or opened for it), for the item's grab point, with
progress and interruption (`compute`); `record` is the one rule for what a result becomes
(`results`). How a region is computed (predicted, its boundary verified by real drags) is the
service's: `studio.services.diagnostics.drag.regions`.
"""

from studio.app.regions.compute import (
    RegionOptions,
    RegionPlan,
    RegionWorkshop,
    check_item,
    prepare,
)
from studio.app.regions.results import (
    COMPUTED_LABEL,
    RegionOutcome,
    apply_result,
    compare_with_stored,
    keep_as_label,
    record,
)
from studio.services.diagnostics.drag.regions import (
    DEFAULT_PAGES,
    Progress,
    RegionInterrupted,
    RegionResult,
)

__all__ = [
    "COMPUTED_LABEL",
    "DEFAULT_PAGES",
    "Progress",
    "RegionInterrupted",
    "RegionOptions",
    "RegionOutcome",
    "RegionPlan",
    "RegionResult",
    "RegionWorkshop",
    "apply_result",
    "check_item",
    "compare_with_stored",
    "keep_as_label",
    "prepare",
    "record",
]

"""Labeling: drag items (authoring, feasible regions, runs, scoring, agreement) and
perception QA items (capture, answers, runs, scoring), and the published diagnostic sets.

What the window and the command line use of the services, in one place.
"""

from __future__ import annotations

# --- re-exported services (generated from what the front ends import) ---
from studio.services.labeling.drag import review as drag_review
from studio.services.labeling.drag.agreement import blind_copy as drag_blind_copy
from studio.services.labeling.drag.agreement import region_agreement
from studio.services.labeling.drag.author import (
    Pick,
    author_item,
    pick_at,
    prepare_from_project,
    save_authored,
)
from studio.services.labeling.drag.grid import Point, brush, iou
from studio.services.labeling.drag.item import (
    DragItemError,
    ItemFolder,
    check_screenshot,
    load_item,
    scan_items,
)
from studio.services.labeling.drag.page import open_window
from studio.services.labeling.drag.regions import (
    COMPUTED_LABEL,
    DEFAULT_PAGES,
    RegionComputer,
    RegionInterrupted,
    RegionResult,
    apply_result,
    compare_with_stored,
    keep_as_label,
)
from studio.services.labeling.drag.run import new_run_dir, run_drag
from studio.services.labeling.drag.scoring import K_MAX, read_predictions, score_items
from studio.services.labeling.drag.scoring import execute as drag_execute
from studio.services.labeling.drag.scoring import report as drag_report
from studio.services.labeling.published.sets import export_diagnostics_only, import_diagnostics
from studio.services.labeling.qa import review as qa_review
from studio.services.labeling.qa import screens
from studio.services.labeling.qa.capture import capture, make_item
from studio.services.labeling.qa.item import ITEMS_DIR, QaSet, read_item
from studio.services.labeling.qa.review import truth_change
from studio.services.labeling.qa.run import run_qa
from studio.services.labeling.qa.scoring import blind_copy as qa_blind_copy
from studio.services.labeling.qa.scoring import (
    correct,
    labeler_agreement,
    read_answers,
    record_answer,
    score,
)
from studio.services.labeling.qa.screens import published_state

__all__ = [
    "COMPUTED_LABEL",
    "DEFAULT_PAGES",
    "ITEMS_DIR",
    "K_MAX",
    "DragItemError",
    "ItemFolder",
    "Pick",
    "Point",
    "QaSet",
    "RegionComputer",
    "RegionInterrupted",
    "RegionResult",
    "apply_result",
    "author_item",
    "brush",
    "capture",
    "check_screenshot",
    "compare_with_stored",
    "correct",
    "drag_blind_copy",
    "drag_execute",
    "drag_report",
    "drag_review",
    "export_diagnostics_only",
    "import_diagnostics",
    "iou",
    "keep_as_label",
    "labeler_agreement",
    "load_item",
    "make_item",
    "new_run_dir",
    "open_window",
    "pick_at",
    "prepare_from_project",
    "published_state",
    "qa_blind_copy",
    "qa_review",
    "read_answers",
    "read_item",
    "read_predictions",
    "record_answer",
    "region_agreement",
    "run_drag",
    "run_qa",
    "save_authored",
    "scan_items",
    "score",
    "score_items",
    "screens",
    "truth_change",
]
# --- end of re-exports ---

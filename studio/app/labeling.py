"""Labeling: drag items (authoring, feasible regions, runs, scoring, agreement) and
perception QA items (capture, answers, runs, scoring), and the published diagnostic sets.

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.formats.scratchworld.items.sets import (
        export_diagnostics_only,
        import_diagnostics,
    )
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
    from studio.services.labeling.drag.run import new_run_dir, run_drag
    from studio.services.labeling.drag.scoring import K_MAX, read_predictions, score_items
    from studio.services.labeling.drag.scoring import execute as drag_execute
    from studio.services.labeling.drag.scoring import report as drag_report
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

__getattr__ = lazy.exports(
    __name__,
    {
        "DragItemError": ("studio.services.labeling.drag.item", "DragItemError"),
        "ITEMS_DIR": ("studio.services.labeling.qa.item", "ITEMS_DIR"),
        "ItemFolder": ("studio.services.labeling.drag.item", "ItemFolder"),
        "K_MAX": ("studio.services.labeling.drag.scoring", "K_MAX"),
        "Pick": ("studio.services.labeling.drag.author", "Pick"),
        "Point": ("studio.services.labeling.drag.grid", "Point"),
        "QaSet": ("studio.services.labeling.qa.item", "QaSet"),
        "author_item": ("studio.services.labeling.drag.author", "author_item"),
        "brush": ("studio.services.labeling.drag.grid", "brush"),
        "capture": ("studio.services.labeling.qa.capture", "capture"),
        "check_screenshot": ("studio.services.labeling.drag.item", "check_screenshot"),
        "correct": ("studio.services.labeling.qa.scoring", "correct"),
        "drag_blind_copy": ("studio.services.labeling.drag.agreement", "blind_copy"),
        "drag_execute": ("studio.services.labeling.drag.scoring", "execute"),
        "drag_report": ("studio.services.labeling.drag.scoring", "report"),
        "drag_review": ("studio.services.labeling.drag", "review"),
        "export_diagnostics_only": (
            "studio.services.formats.scratchworld.items.sets",
            "export_diagnostics_only",
        ),
        "import_diagnostics": (
            "studio.services.formats.scratchworld.items.sets",
            "import_diagnostics",
        ),
        "iou": ("studio.services.labeling.drag.grid", "iou"),
        "labeler_agreement": ("studio.services.labeling.qa.scoring", "labeler_agreement"),
        "load_item": ("studio.services.labeling.drag.item", "load_item"),
        "make_item": ("studio.services.labeling.qa.capture", "make_item"),
        "new_run_dir": ("studio.services.labeling.drag.run", "new_run_dir"),
        "open_window": ("studio.services.labeling.drag.page", "open_window"),
        "pick_at": ("studio.services.labeling.drag.author", "pick_at"),
        "prepare_from_project": ("studio.services.labeling.drag.author", "prepare_from_project"),
        "published_state": ("studio.services.labeling.qa.screens", "published_state"),
        "qa_blind_copy": ("studio.services.labeling.qa.scoring", "blind_copy"),
        "qa_review": ("studio.services.labeling.qa", "review"),
        "read_answers": ("studio.services.labeling.qa.scoring", "read_answers"),
        "read_item": ("studio.services.labeling.qa.item", "read_item"),
        "read_predictions": ("studio.services.labeling.drag.scoring", "read_predictions"),
        "record_answer": ("studio.services.labeling.qa.scoring", "record_answer"),
        "region_agreement": ("studio.services.labeling.drag.agreement", "region_agreement"),
        "run_drag": ("studio.services.labeling.drag.run", "run_drag"),
        "run_qa": ("studio.services.labeling.qa.run", "run_qa"),
        "save_authored": ("studio.services.labeling.drag.author", "save_authored"),
        "scan_items": ("studio.services.labeling.drag.item", "scan_items"),
        "score": ("studio.services.labeling.qa.scoring", "score"),
        "score_items": ("studio.services.labeling.drag.scoring", "score_items"),
        "screens": ("studio.services.labeling.qa", "screens"),
        "truth_change": ("studio.services.labeling.qa.review", "truth_change"),
    },
)

__all__ = [
    "ITEMS_DIR",
    "K_MAX",
    "DragItemError",
    "ItemFolder",
    "Pick",
    "Point",
    "QaSet",
    "author_item",
    "brush",
    "capture",
    "check_screenshot",
    "correct",
    "drag_blind_copy",
    "drag_execute",
    "drag_report",
    "drag_review",
    "export_diagnostics_only",
    "import_diagnostics",
    "iou",
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

"""The task library and authoring: scan, load and save tasks, their projects and
scripts, lint, review states, the trash, recovery of unsaved work, check records and
side-by-side diffs of two projects.

What the window and the command line use of the services, in one place.
"""

from __future__ import annotations

# --- re-exported services (generated from what the front ends import) ---
from studio.services.authoring import library_ops, review, trash
from studio.services.authoring.check_record import fingerprint, last_checks, load_check, save_check
from studio.services.authoring.lint import Finding, LintFinding, level_of, lint_task
from studio.services.authoring.metadata import apply_metadata
from studio.services.authoring.recovery import RecoveryStore
from studio.services.authoring.task_session import DOCUMENTS, TaskSession
from studio.services.core.project_diff import (
    DiffRow,
    ProjectComparison,
    RowKind,
    TargetDiff,
    compare_projects,
)
from studio.services.core.sb3 import check_sb3, read_project_json
from studio.services.core.store import LibraryScan, TaskFolder, load_task, scan_library

__all__ = [
    "DOCUMENTS",
    "DiffRow",
    "Finding",
    "LibraryScan",
    "LintFinding",
    "ProjectComparison",
    "RecoveryStore",
    "RowKind",
    "TargetDiff",
    "TaskFolder",
    "TaskSession",
    "apply_metadata",
    "check_sb3",
    "compare_projects",
    "fingerprint",
    "last_checks",
    "level_of",
    "library_ops",
    "lint_task",
    "load_check",
    "load_task",
    "read_project_json",
    "review",
    "save_check",
    "scan_library",
    "trash",
]
# --- end of re-exports ---

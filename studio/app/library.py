"""The task library and authoring: scan, load and save tasks, their projects and
scripts, lint, review states, the trash, recovery of unsaved work, check records and
side-by-side diffs of two projects.

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.authoring import library_ops, review, trash
    from studio.services.authoring.check_record import load_check
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

__getattr__ = lazy.exports(
    __name__,
    {
        "DOCUMENTS": ("studio.services.authoring.task_session", "DOCUMENTS"),
        "DiffRow": ("studio.services.core.project_diff", "DiffRow"),
        "Finding": ("studio.services.authoring.lint", "Finding"),
        "LibraryScan": ("studio.services.core.store", "LibraryScan"),
        "LintFinding": ("studio.services.authoring.lint", "LintFinding"),
        "ProjectComparison": ("studio.services.core.project_diff", "ProjectComparison"),
        "RecoveryStore": ("studio.services.authoring.recovery", "RecoveryStore"),
        "RowKind": ("studio.services.core.project_diff", "RowKind"),
        "TargetDiff": ("studio.services.core.project_diff", "TargetDiff"),
        "TaskFolder": ("studio.services.core.store", "TaskFolder"),
        "TaskSession": ("studio.services.authoring.task_session", "TaskSession"),
        "apply_metadata": ("studio.services.authoring.metadata", "apply_metadata"),
        "check_sb3": ("studio.services.core.sb3", "check_sb3"),
        "compare_projects": ("studio.services.core.project_diff", "compare_projects"),
        "level_of": ("studio.services.authoring.lint", "level_of"),
        "library_ops": ("studio.services.authoring", "library_ops"),
        "lint_task": ("studio.services.authoring.lint", "lint_task"),
        "load_check": ("studio.services.authoring.check_record", "load_check"),
        "load_task": ("studio.services.core.store", "load_task"),
        "read_project_json": ("studio.services.core.sb3", "read_project_json"),
        "review": ("studio.services.authoring", "review"),
        "scan_library": ("studio.services.core.store", "scan_library"),
        "trash": ("studio.services.authoring", "trash"),
    },
)

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
    "level_of",
    "library_ops",
    "lint_task",
    "load_check",
    "load_task",
    "read_project_json",
    "review",
    "scan_library",
    "trash",
]
# --- end of re-exports ---

"""Adversarial checks of tasks: golden and initial verdicts, mutants, summaries.

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.checking.checker import CheckOptions, TaskChecker, check_tasks, judge
    from studio.services.checking.mutant_runs import build_mutant

__getattr__ = lazy.exports(
    __name__,
    {
        "CheckOptions": ("studio.services.checking.checker", "CheckOptions"),
        "TaskChecker": ("studio.services.checking.checker", "TaskChecker"),
        "build_mutant": ("studio.services.checking.mutant_runs", "build_mutant"),
        "check_tasks": ("studio.services.checking.checker", "check_tasks"),
        "judge": ("studio.services.checking.checker", "judge"),
    },
)

__all__ = [
    "CheckOptions",
    "TaskChecker",
    "build_mutant",
    "check_tasks",
    "judge",
]
# --- end of re-exports ---

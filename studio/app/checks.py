"""Adversarial checks of tasks: golden and initial verdicts, mutants, summaries.

What the window and the command line use of the services, in one place.
"""

from __future__ import annotations

# --- re-exported services (generated from what the front ends import) ---
from studio.services.checking.checker import CheckOptions, TaskChecker, check_tasks, judge
from studio.services.checking.mutant_runs import build_mutant

__all__ = [
    "CheckOptions",
    "TaskChecker",
    "build_mutant",
    "check_tasks",
    "judge",
]
# --- end of re-exports ---

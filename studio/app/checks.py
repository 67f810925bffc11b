"""Adversarial checks of tasks: golden and initial verdicts, mutants, summaries.

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.checking.checker import judge
    from studio.services.checking.mutant_runs import build_mutant

__getattr__ = lazy.exports(
    __name__,
    {
        "build_mutant": ("studio.services.checking.mutant_runs", "build_mutant"),
        "judge": ("studio.services.checking.checker", "judge"),
    },
)

__all__ = [
    "build_mutant",
    "judge",
]
# --- end of re-exports ---

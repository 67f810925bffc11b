"""The errors the front ends catch and show: each names the file and the problem.

What the window and the command line use of the services, in one place.
"""

from __future__ import annotations

# --- re-exported services (generated from what the front ends import) ---
from studio.services.core.errors import ProjectFileError, TaskFileError, cut
from studio.services.core.paths import SetupError

__all__ = [
    "ProjectFileError",
    "SetupError",
    "TaskFileError",
    "cut",
]
# --- end of re-exports ---

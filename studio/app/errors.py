"""The errors the front ends catch and show: each names the file and the problem.

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.core.errors import ProjectFileError, TaskFileError, cut
    from studio.services.core.paths import SetupError

__getattr__ = lazy.exports(
    __name__,
    {
        "ProjectFileError": ("studio.services.core.errors", "ProjectFileError"),
        "SetupError": ("studio.services.core.paths", "SetupError"),
        "TaskFileError": ("studio.services.core.errors", "TaskFileError"),
        "cut": ("studio.services.core.errors", "cut"),
    },
)

__all__ = [
    "ProjectFileError",
    "SetupError",
    "TaskFileError",
    "cut",
]
# --- end of re-exports ---

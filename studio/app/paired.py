"""Two agents (or modes) compared on the same tasks: the exact McNemar test of a report.

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.runs.compare import compare_rows, format_paired

__getattr__ = lazy.exports(
    __name__,
    {
        "compare_rows": ("studio.services.runs.compare", "compare_rows"),
        "format_paired": ("studio.services.runs.compare", "format_paired"),
    },
)

__all__ = ["compare_rows", "format_paired"]
# --- end of re-exports ---

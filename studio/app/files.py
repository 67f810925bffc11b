"""Files the front ends keep (settings, exports): atomic writes and the studio's paths.

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.core import atomic, paths

__getattr__ = lazy.exports(
    __name__,
    {
        "atomic": ("studio.services.core", "atomic"),
        "paths": ("studio.services.core", "paths"),
    },
)

__all__ = [
    "atomic",
    "paths",
]
# --- end of re-exports ---

"""Files the front ends keep (settings, exports): atomic writes and the studio's paths.

What the window and the command line use of the services, in one place.
"""

from __future__ import annotations

# --- re-exported services (generated from what the front ends import) ---
from studio.services.core import atomic, paths

__all__ = [
    "atomic",
    "paths",
]
# --- end of re-exports ---

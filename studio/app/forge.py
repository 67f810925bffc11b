"""The bug forge: debug tasks made from goldens, their bug records, repair patches.

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.forge.pipeline import ForgeOptions, forge_golden

__getattr__ = lazy.exports(
    __name__,
    {
        "ForgeOptions": ("studio.services.forge.pipeline", "ForgeOptions"),
        "forge_golden": ("studio.services.forge.pipeline", "forge_golden"),
    },
)

__all__ = ["ForgeOptions", "forge_golden"]
# --- end of re-exports ---

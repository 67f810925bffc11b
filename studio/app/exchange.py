"""Exchange with the field: ScratchWorld checkouts (import, export, the compatible
server), the published protocol as a reference, and Inspect AI eval logs.

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.formats.scratchworld.published_protocol import PublishedProtocol
    from studio.services.formats.scratchworld.tasks import ExportReport, ImportReport
    from studio.services.runs.inspect_log import export_inspect

__getattr__ = lazy.exports(
    __name__,
    {
        "ExportReport": ("studio.services.formats.scratchworld.tasks", "ExportReport"),
        "ImportReport": ("studio.services.formats.scratchworld.tasks", "ImportReport"),
        "PublishedProtocol": (
            "studio.services.formats.scratchworld.published_protocol",
            "PublishedProtocol",
        ),
        "export_inspect": ("studio.services.runs.inspect_log", "export_inspect"),
    },
)

__all__ = [
    "ExportReport",
    "ImportReport",
    "PublishedProtocol",
    "export_inspect",
]
# --- end of re-exports ---

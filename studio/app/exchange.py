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
    from studio.services.exchange.published_protocol import PublishedProtocol
    from studio.services.exchange.scratchworld import ExportReport, ImportReport
    from studio.services.exchange.scratchworld_api.checkout import SwCheckout
    from studio.services.exchange.scratchworld_api.seal import CUSTOM_JS_TIMEOUT_S
    from studio.services.exchange.scratchworld_api.sessions import SwSessions
    from studio.services.runs.inspect_log import export_inspect

__getattr__ = lazy.exports(
    __name__,
    {
        "CUSTOM_JS_TIMEOUT_S": (
            "studio.services.exchange.scratchworld_api.seal",
            "CUSTOM_JS_TIMEOUT_S",
        ),
        "ExportReport": ("studio.services.exchange.scratchworld", "ExportReport"),
        "ImportReport": ("studio.services.exchange.scratchworld", "ImportReport"),
        "PublishedProtocol": ("studio.services.exchange.published_protocol", "PublishedProtocol"),
        "SwCheckout": ("studio.services.exchange.scratchworld_api.checkout", "SwCheckout"),
        "SwSessions": ("studio.services.exchange.scratchworld_api.sessions", "SwSessions"),
        "export_inspect": ("studio.services.runs.inspect_log", "export_inspect"),
    },
)

__all__ = [
    "CUSTOM_JS_TIMEOUT_S",
    "ExportReport",
    "ImportReport",
    "PublishedProtocol",
    "SwCheckout",
    "SwSessions",
    "export_inspect",
]
# --- end of re-exports ---

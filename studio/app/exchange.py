"""Exchange with the field: ScratchWorld checkouts (import, export, the compatible
server), the published protocol as a reference, and Inspect AI eval logs.

What the window and the command line use of the services, in one place.
"""

from __future__ import annotations

# --- re-exported services (generated from what the front ends import) ---
from studio.services.exchange.inspect_log import export_inspect
from studio.services.exchange.published_protocol import PublishedProtocol
from studio.services.exchange.scratchworld import (
    ExportReport,
    ImportReport,
    export_checkout,
    import_checkout,
)
from studio.services.exchange.scratchworld_api.checkout import SwCheckout
from studio.services.exchange.scratchworld_api.seal import CUSTOM_JS_TIMEOUT_S
from studio.services.exchange.scratchworld_api.sessions import SwSessions

__all__ = [
    "CUSTOM_JS_TIMEOUT_S",
    "ExportReport",
    "ImportReport",
    "PublishedProtocol",
    "SwCheckout",
    "SwSessions",
    "export_checkout",
    "export_inspect",
    "import_checkout",
]
# --- end of re-exports ---

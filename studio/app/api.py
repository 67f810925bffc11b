"""The agent HTTP API's server for the front ends: serve episodes over loopback JSON, with
its token and host checks (uvicorn: imported only by what serves).

What the window and the command line use of the services, in one place.
"""

from __future__ import annotations

# --- re-exported services (generated from what the front ends import) ---
from studio.services.api.server import ApiServer, check_host, is_loopback, resolve_token

__all__ = [
    "ApiServer",
    "check_host",
    "is_loopback",
    "resolve_token",
]
# --- end of re-exports ---

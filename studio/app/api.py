"""The agent HTTP API's server for the front ends: serve episodes over loopback JSON, with
its token and host checks (uvicorn: imported only by what serves).

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.api.server import ApiServer, check_host, is_loopback, resolve_token

__getattr__ = lazy.exports(
    __name__,
    {
        "ApiServer": ("studio.services.api.server", "ApiServer"),
        "check_host": ("studio.services.api.server", "check_host"),
        "is_loopback": ("studio.services.api.server", "is_loopback"),
        "resolve_token": ("studio.services.api.server", "resolve_token"),
    },
)

__all__ = [
    "ApiServer",
    "check_host",
    "is_loopback",
    "resolve_token",
]
# --- end of re-exports ---

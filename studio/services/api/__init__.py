"""The agent HTTP API: episodes of benchmark tasks driven over JSON, Qt-free, on asyncio.

`ApiServer` ties the routes (`app.ApiApp`) to a small HTTP server (`http.HttpServer`) on the
current event loop, so the CLI runs it with `asyncio.run` and the GUI on its qasync loop.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
from pathlib import Path

from studio.services.api.app import ApiApp, EpisodeManagerLike
from studio.services.api.http import HttpServer
from studio.services.errors import StudioError

__all__ = ["ApiApp", "ApiServer", "check_host", "resolve_token"]


def resolve_token(given: str | None) -> tuple[str, bool]:
    """The token to require: `given`, else STUDIO_TOKEN, else a new one (second item True)."""
    token = given or os.environ.get("STUDIO_TOKEN", "")
    if token:
        return token, False
    return secrets.token_urlsafe(24), True


def is_loopback(host: str) -> bool:
    """True when every address `host` names is a loopback address."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(i[4][0]).is_loopback for i in infos)


def check_host(host: str, allow_remote: bool) -> None:
    """Refuse a host other machines could reach unless the user asked for it."""
    if not allow_remote and not is_loopback(host):
        raise StudioError(
            f"refusing to listen on {host}: it is not a loopback address, so other machines "
            "could drive episodes; use 127.0.0.1, or pass --allow-remote if you mean it"
        )


class ApiServer:
    """The API on host:port, answering with `manager`'s episodes."""

    def __init__(
        self,
        manager: EpisodeManagerLike,
        token: str,
        host: str = "127.0.0.1",
        port: int = 0,
        library: Path | None = None,
    ) -> None:
        if not token:
            raise StudioError("the API needs a non-empty token")
        self.app = ApiApp(manager, token, library=library)
        self.http = HttpServer(self.app, host, port)

    @property
    def url(self) -> str:
        host = self.http.host
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{self.http.port}"

    async def start(self) -> None:
        await self.http.start()

    async def close(self) -> None:
        await self.http.close()

    async def serve_forever(self) -> None:
        await self.http.serve_forever()

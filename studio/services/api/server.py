"""The agent HTTP API: episodes of benchmark tasks driven over JSON, Qt-free, on asyncio.

`ApiServer` serves the routes (`app.ApiApp`, a FastAPI application behind `guard.Guard`) with
uvicorn on the current event loop (`listener.Listener`: the socket bound there, port 0 picks a
free one, head deadlines, no signal handlers, no logging set up), so the CLI runs it with
`asyncio.run` and the GUI on its qasync loop. Kept-alive connections idle for IDLE_TIMEOUT_S
are closed; at close, requests still running get SHUTDOWN_GRACE_S to finish.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
from pathlib import Path

from studio.models.errors import StudioError
from studio.services.api.app import MAX_EPISODES, ApiApp, EpisodeManagerLike
from studio.services.api.heads import HEAD_TIMEOUT_S
from studio.services.api.listener import BACKLOG, Listener
from studio.services.api.open_routes import OpenRoutes

IDLE_TIMEOUT_S = 120  # a kept-alive connection with no request is closed after this
SHUTDOWN_GRACE_S = 3  # requests still running at close get this long to finish

__all__ = [
    "BACKLOG", "IDLE_TIMEOUT_S", "SHUTDOWN_GRACE_S", "ApiApp", "ApiServer", "check_host",
    "find_token", "is_loopback", "read_token_file", "resolve_token",
]  # fmt: skip


def read_token_file(path: Path | str) -> str:
    """The token kept in a file (first line, trimmed); StudioError naming the file otherwise."""
    path = Path(path).expanduser()
    try:
        if path.stat().st_size > 4096:
            raise StudioError(f"{path}: a token file holds one short line")
        token = path.read_text(encoding="utf-8").strip().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise StudioError(f"{path}: cannot read the token ({exc})") from None
    if not token or not token[0].strip():
        raise StudioError(f"{path}: the token file is empty")
    return token[0].strip()


def find_token(given: str | None = None, file: Path | str | None = None) -> str:
    """A token from `file`, else `given`, else STUDIO_TOKEN, else STUDIO_TOKEN_FILE; or ""."""
    if file:
        return read_token_file(file)
    if given:
        return given
    if os.environ.get("STUDIO_TOKEN"):
        return os.environ["STUDIO_TOKEN"]
    if os.environ.get("STUDIO_TOKEN_FILE"):
        return read_token_file(os.environ["STUDIO_TOKEN_FILE"])
    return ""


def resolve_token(given: str | None, file: Path | str | None = None) -> tuple[str, bool]:
    """The token to require (`find_token`), else a new one (second item True)."""
    token = find_token(given, file)
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
        open_routes: OpenRoutes | None = None,
        max_episodes: int = MAX_EPISODES,
        head_timeout_s: float = HEAD_TIMEOUT_S,
    ) -> None:
        if not token:
            raise StudioError("the API needs a non-empty token")
        if open_routes is not None and not is_loopback(host):
            raise StudioError(
                f"refusing to serve {open_routes.name} on {host}: they take no token, so "
                "they are served on a loopback address only"
            )
        self.app = ApiApp(
            manager,
            token,
            library=library,
            listen_host=host,
            open_routes=open_routes,
            max_episodes=max_episodes,
        )
        self.listener = Listener(
            self.app.asgi,
            host,
            port,
            head_timeout_s=head_timeout_s,
            keep_alive_s=IDLE_TIMEOUT_S,
            grace_s=SHUTDOWN_GRACE_S,
            backlog=BACKLOG,
        )
        self.host = host

    @property
    def port(self) -> int:
        """The port asked for; once started, the one bound."""
        return self.listener.port

    @property
    def url(self) -> str:
        return self.listener.url

    async def start(self) -> None:
        """Bind and start answering (OSError when the address is taken or not ours)."""
        await self.listener.start()

    async def close(self) -> None:
        await self.listener.close()

    async def serve_forever(self) -> None:
        if not self.listener.running:
            await self.start()
        await self.listener.wait()

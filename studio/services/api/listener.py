"""One way to serve an ASGI application with uvicorn on the current event loop.

`Listener(app, host, port)` is what the agent API (`server.ApiServer`) and a study's participant
pages (`studio.services.studies.server.StudyServer`) both start:

- `start()` binds the listening socket here (port 0 picks a free one; `port` is then the one
  bound) and starts answering; an address that is taken or not this machine's raises OSError
  and leaves nothing open. The socket names TCP as its protocol, so asyncio sets TCP_NODELAY
  on each connection (without it every response waits ~40 ms for the client's delayed ACK).
- The HTTP/1.1 protocol is `heads.HeadDeadlineProtocol`: a request head must arrive within
  `head_timeout_s`, and a connection that sends half a head and stalls is closed.
- uvicorn installs no signal handlers, configures no logging, writes no access log, sends no
  Server header and trusts no proxy headers: the studio owns all of these.
- A kept-alive connection with no request is closed after `keep_alive_s`; at `close()`,
  requests still running get `grace_s` to finish (None: as long as they take).
- `close()` stops answering and closes the socket; closing twice, or before `start()`, does
  nothing. `wait()` returns when the server has stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

import uvicorn

from studio.services.api.heads import HEAD_TIMEOUT_S, protocol_with_deadline

__all__ = ["BACKLOG", "Listener", "url_of"]

BACKLOG = 512


def url_of(host: str, port: int) -> str:
    """`http://host:port`, an IPv6 host in brackets."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


class Listener:
    """An ASGI application served by uvicorn on host:port (see the module doc)."""

    def __init__(
        self,
        app: Any,
        host: str = "127.0.0.1",
        port: int = 0,
        head_timeout_s: float = HEAD_TIMEOUT_S,
        keep_alive_s: float = 5,
        grace_s: float | None = None,
        backlog: int = BACKLOG,
    ) -> None:
        self.app = app
        self.host, self.port = host, port
        self.head_timeout_s = head_timeout_s
        self.keep_alive_s, self.grace_s, self.backlog = keep_alive_s, grace_s, backlog
        self._server: uvicorn.Server | None = None
        self._socket: socket.socket | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return url_of(self.host, self.port)

    @property
    def running(self) -> bool:
        return self._task is not None

    async def start(self) -> None:
        """Bind and start answering (OSError when the address is taken or not ours)."""
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
            sock.listen(self.backlog)
            sock.setblocking(False)
        except OSError:
            sock.close()
            raise
        config = uvicorn.Config(
            self.app,
            http=protocol_with_deadline(self.head_timeout_s),
            ws="none",
            lifespan="off",
            interface="asgi3",
            log_config=None,
            access_log=False,
            proxy_headers=False,
            server_header=False,
            timeout_keep_alive=int(self.keep_alive_s),
            timeout_graceful_shutdown=None if self.grace_s is None else int(self.grace_s),
            backlog=self.backlog,
        )
        config.load()
        server = uvicorn.Server(config)
        server.lifespan = config.lifespan_class(config)
        await server.startup(sockets=[sock])
        self._server, self._socket = server, sock
        self.port = sock.getsockname()[1]
        self._task = asyncio.ensure_future(self._run(server, sock))

    @staticmethod
    async def _run(server: uvicorn.Server, sock: socket.socket) -> None:
        await server.main_loop()
        await server.shutdown(sockets=[sock])

    async def wait(self) -> None:
        """Return when the server has stopped (at once if it is not running)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def close(self) -> None:
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._socket is not None:
            self._socket.close()
        self._server = self._task = self._socket = None

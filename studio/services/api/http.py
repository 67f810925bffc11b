"""A small HTTP/1.1 server on asyncio streams, enough for a JSON API on the loopback interface.

It runs on whatever asyncio loop is current (plain `asyncio.run` in the CLI, the Qt loop through
qasync in the GUI). Requests need a `Content-Length` body (no chunked uploads); connections are
kept alive as HTTP/1.1 allows. Limits on the header and body sizes keep a bad client from
holding memory.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

log = logging.getLogger(__name__)

MAX_HEADER_BYTES = 16 * 1024
MAX_BODY_BYTES = 8 * 1024 * 1024
IDLE_TIMEOUT_S = 120.0


class HttpError(Exception):
    """A request the server cannot handle; becomes a JSON `{"error": message}` response."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


@dataclass
class Request:
    """One parsed HTTP request."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]  # lower-case names
    body: bytes = b""

    def json(self) -> Any:
        """The body parsed as JSON; a 400 that says where the JSON breaks otherwise."""
        if not self.body.strip():
            raise HttpError(400, "the request body is empty; send a JSON object")
        try:
            return json.loads(self.body.decode("utf-8"))
        except UnicodeDecodeError:
            raise HttpError(400, "the request body is not UTF-8 text") from None
        except json.JSONDecodeError as exc:
            raise HttpError(
                400, f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from None


@dataclass
class Response:
    """A response: a status, a body and its headers."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def json(cls, data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
        body = json.dumps(data, ensure_ascii=False).encode("utf-8")
        return cls(status, body, {"Content-Type": "application/json", **(headers or {})})

    @classmethod
    def error(cls, status: int, message: str, headers: dict[str, str] | None = None) -> Response:
        return cls.json({"error": message}, status, headers)


Handler = Callable[[Request], Awaitable[Response]]


class HttpServer:
    """Serve `handler` on host:port; `port=0` picks a free port (read it from `.port`)."""

    def __init__(self, handler: Handler, host: str = "127.0.0.1", port: int = 0) -> None:
        self.handler = handler
        self.host = host
        self.port = port
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(
            self._on_connection, self.host, self.port, limit=MAX_HEADER_BYTES
        )
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self._server is None:
            return
        self._server.close()
        for task in list(self._connections):
            task.cancel()
        await asyncio.gather(*self._connections, return_exceptions=True)
        await self._server.wait_closed()
        self._server = None

    async def serve_forever(self) -> None:
        if self._server is None:
            await self.start()
        assert self._server is not None
        await self._server.serve_forever()

    async def _on_connection(self, reader: asyncio.StreamReader, writer: Any) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            while await self._one_exchange(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError, TimeoutError):
            pass
        finally:
            self._connections.discard(task)
            writer.close()

    async def _one_exchange(self, reader: asyncio.StreamReader, writer: Any) -> bool:
        """Read one request, answer it; False when the connection should close."""
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), IDLE_TIMEOUT_S)
        except asyncio.IncompleteReadError as exc:
            if exc.partial.strip():
                await _write(writer, Response.error(400, "incomplete request"), False)
            return False
        except asyncio.LimitOverrunError:
            await _write(writer, Response.error(431, "request headers too large"), False)
            return False
        try:
            request, keep_alive = _parse_head(head)
            request.body = await _read_body(reader, request.headers)
        except HttpError as exc:
            await _write(writer, Response.error(exc.status, exc.message), False)
            return False
        response = await self._dispatch(request)
        await _write(writer, response, keep_alive, head_only=request.method == "HEAD")
        return keep_alive

    async def _dispatch(self, request: Request) -> Response:
        try:
            return await self.handler(request)
        except HttpError as exc:
            return Response.error(exc.status, exc.message, exc.headers)
        except Exception:
            log.exception("internal error answering %s %s", request.method, request.path)
            return Response.error(500, "internal error (a bug in the studio; see its log)")


def _parse_head(head: bytes) -> tuple[Request, bool]:
    try:
        text = head.decode("latin-1")
    except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes every byte
        raise HttpError(400, "request head is not text") from None
    lines = text.split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        raise HttpError(400, "malformed request line; expected 'METHOD /path HTTP/1.1'")
    method, target, version = parts
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not name.strip():
            raise HttpError(400, f"malformed header line {line[:60]!r}")
        headers[name.strip().lower()] = value.strip()
    split = urlsplit(target)
    connection = headers.get("connection", "").lower()
    keep_alive = connection != "close" if version == "HTTP/1.1" else connection == "keep-alive"
    request = Request(method.upper(), unquote(split.path), parse_qs(split.query), headers)
    return request, keep_alive


async def _read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if "chunked" in headers.get("transfer-encoding", "").lower():
        raise HttpError(411, "chunked bodies are not supported; send Content-Length")
    raw = headers.get("content-length", "0") or "0"
    if not raw.isdigit():
        raise HttpError(400, f"Content-Length {raw!r} is not a number")
    length = int(raw)
    if length > MAX_BODY_BYTES:
        raise HttpError(413, f"request body over {MAX_BODY_BYTES} bytes")
    return await reader.readexactly(length) if length else b""


async def _write(
    writer: Any, response: Response, keep_alive: bool, head_only: bool = False
) -> None:
    reason = _reason(response.status)
    headers = {
        "Content-Length": str(len(response.body)),
        "Connection": "keep-alive" if keep_alive else "close",
        "Cache-Control": "no-store",
        **response.headers,
    }
    lines = [f"HTTP/1.1 {response.status} {reason}"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
    if not head_only:
        writer.write(response.body)
    await writer.drain()


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Status"

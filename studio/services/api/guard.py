"""What every request to the agent API passes before a route sees it (an ASGI middleware).

In this order, each refusal a JSON `{"error": ...}` that says what to do:

1. **Host** (400): the `Host` header must name this server: a loopback name (127.0.0.1,
   localhost, ::1) or the host it was told to listen on. A page elsewhere on the web whose
   name resolves to 127.0.0.1 (DNS rebinding) sends its own name and is refused. A server
   listening on a wildcard address (0.0.0.0, ::, only with --allow-remote) cannot know its
   names and skips this check.
2. **Origin** (403): browsers send `Origin` on cross-site requests; when present it must be a
   loopback origin or this server's host. Agents (curl, Python clients) send none.
3. **Token** (401): `Authorization: Bearer <token>`, compared in constant time, before a byte
   of the body is read; not asked on the paths `open_path` names (the ScratchWorld-compatible
   routes, whose published clients send none, served on loopback only).
4. **Body** (413, 408): a declared `Content-Length` over `MAX_BODY_BYTES` is refused unread;
   the body is read whole here, counted as it arrives (a chunked body too) and within
   `BODY_TIMEOUT_S`, then handed to the app as JSON (whatever its Content-Type says: the API
   speaks JSON only, and `curl -d` sends it form-encoded).
5. **Numbers** (400): a JSON body holding `NaN`, `Infinity`, `-Infinity` or a number too
   large for a float (`1e999`) is refused, naming it: JSON has no such numbers, though Python's
   reader takes them (as nan and inf), and a route that echoes
   what it was sent (the ScratchWorld routes' `requested_action`) made an answer no JSON
   writer can write (a 500; found by tests/e2e/test_scratchworld_fuzz.py).

Requests are logged at debug level on one bounded line (`short`).
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import math
import re
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "BODY_TIMEOUT_S", "LOG_TEXT_MAX", "LOOPBACK_NAMES", "MAX_BODY_BYTES", "Guard",
    "non_json_number", "short",
]  # fmt: skip

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 8 * 1024 * 1024
BODY_TIMEOUT_S = 30.0
LOG_TEXT_MAX = 200
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


def short(text: str, limit: int = LOG_TEXT_MAX) -> str:
    """`text` cut to `limit` characters for a log line (with how much was left out)."""
    return text if len(text) <= limit else f"{text[:limit]}...({len(text) - limit} more)"


def _hostname(value: str) -> str:
    """The host part of a Host header value or a URL's netloc, lower case, no brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def _is_wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


class Guard:
    """Host, Origin, token and body checks in front of `app` (see the module doc)."""

    def __init__(
        self,
        app: ASGIApp,
        token: str,
        listen_host: str = "127.0.0.1",
        open_path: Callable[[str], bool] | None = None,
    ) -> None:
        """`open_path(path)` True: the path is served without a token (Host, Origin and body
        checks still apply)."""
        self.app = app
        self.open_path = open_path
        self.token = token.encode()
        self.any_host = _is_wildcard(listen_host)
        self.hosts = LOOPBACK_NAMES | {_hostname(listen_host)}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope["headers"])
        method, path = scope["method"], scope.get("path", "")
        log.debug("%s %s", method, short(path))
        problem = self._refusal(headers, self.open_path is not None and self.open_path(path))
        if problem is not None:
            status, message, extra = problem
            await _answer(send, status, message, extra)
            return
        declared = headers.get("content-length", [])
        if declared and declared[0].isdigit() and int(declared[0]) > MAX_BODY_BYTES:
            await _answer(send, 413, f"request body over {MAX_BODY_BYTES} bytes")
            return
        try:
            body = await asyncio.wait_for(_read_body(receive), BODY_TIMEOUT_S)
        except _TooLarge:
            await _answer(send, 413, f"request body over {MAX_BODY_BYTES} bytes")
            return
        except TimeoutError:
            await _answer(
                send, 408, f"the request body did not arrive within {BODY_TIMEOUT_S:.0f} s"
            )
            return
        constant = non_json_number(body)
        if constant is not None:
            message = f"the request body holds {constant}, which is not a finite JSON number"
            await _answer(send, 400, message)
            return
        await self.app(_as_json(scope), _replay(body, receive), send)

    def _refusal(
        self, headers: dict[str, list[str]], open_path: bool = False
    ) -> tuple[int, str, dict[str, str]] | None:
        host = (headers.get("host") or [""])[0]
        if not self.any_host and _hostname(host) not in self.hosts:
            return (
                400,
                f"Host {short(host, 80)!r} is not this server; send the address `studio serve` "
                "printed (a loopback address)",
                {},
            )
        origins = headers.get("origin")
        origin = origins[0] if origins else None
        if origin is not None and origin != "null":
            name = _hostname(urlsplit(origin).netloc)
            if not (self.any_host or name in self.hosts):
                return 403, f"requests from the web page {short(origin, 80)!r} are refused", {}
        elif origin == "null":
            return 403, "requests from an opaque origin are refused", {}
        if open_path:
            return None
        challenge = {"WWW-Authenticate": 'Bearer realm="studio"'}
        scheme, _, given = (headers.get("authorization") or [""])[0].partition(" ")
        if scheme.lower() != "bearer" or not given.strip():
            return (
                401,
                "missing token: send the header 'Authorization: Bearer <token>' with the token "
                "`studio serve` printed (or STUDIO_TOKEN)",
                challenge,
            )
        if not hmac.compare_digest(given.strip().encode(), self.token):
            return 401, "wrong token: use the one `studio serve` printed", challenge
        return None


class _TooLarge(Exception):
    pass


def _headers(raw: Iterable[tuple[bytes, bytes]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, value in raw:
        out.setdefault(name.decode("latin-1").lower(), []).append(value.decode("latin-1"))
    return out


async def _read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)  # the client went away; the app sees an empty body
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise _TooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


# What a number that is not finite needs in its text: a constant Python's reader takes, an
# exponent of three digits or more (a float overflows past 1.8e308), or 309 digits in a row.
_MAYBE_NON_FINITE = re.compile(rb"NaN|Infinity|\d[eE][+-]?\d{3}|\d{309}")


def non_json_number(body: bytes) -> str | None:
    """The first number of the JSON `body` that is not a finite one, as written (`NaN`,
    `Infinity`, `-Infinity`, or a literal like `1e999` too large for a float), or None (also
    for a body that is not JSON at all: the route names that problem)."""
    if not body or not _MAYBE_NON_FINITE.search(body):
        return None  # most bodies: no second parse
    found: list[str] = []

    def constant(name: str) -> float:
        found.append(name)
        return 0.0

    def number(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            found.append(short(text, 40))
        return value

    try:
        json.loads(body, parse_constant=constant, parse_float=number)
    except (ValueError, RecursionError):
        return None
    return found[0] if found else None


def _as_json(scope: Scope) -> Scope:
    """The API speaks JSON only: a body is read as JSON whatever its Content-Type says (curl
    -d and urllib send form-encoded by default)."""
    headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"content-type"]
    return {**scope, "headers": [*headers, (b"content-type", b"application/json")]}


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the app the body read here, then waits as the server's does."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _answer(
    send: Send, status: int, message: str, headers: dict[str, str] | None = None
) -> None:
    body = json.dumps({"error": message}, ensure_ascii=False).encode("utf-8")
    raw = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        *((k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in (headers or {}).items()),
    ]
    raw.append((b"connection", b"close"))  # a body may be left unread: start afresh
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})

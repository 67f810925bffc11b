"""The API's HTTP layer on the real server (uvicorn on loopback): what a request must pass
before a route sees it (Host, Origin, token, body limits), keep-alive, and protocol errors."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import pytest

from studio.models.errors import StudioError
from studio.services.api import guard
from studio.services.api.server import ApiServer, check_host, is_loopback, resolve_token
from tests.helpers.fake_env import FakeEpisodeManager
from tests.helpers.loop_thread import LoopThread

TOKEN = "tok"
AUTH = b"Authorization: Bearer tok\r\n"


@pytest.fixture
def server(loop_thread: LoopThread) -> Iterator[ApiServer]:
    manager = FakeEpisodeManager()
    srv = ApiServer(manager, TOKEN)
    loop_thread.run(srv.start())
    yield srv
    loop_thread.run(srv.close())
    loop_thread.run(manager.close())


def _exchange(port: int, raw: bytes, timeout: float = 10) -> bytes:
    """Send `raw`, read until the server closes the connection (or `timeout`)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(raw)
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except (TimeoutError, ConnectionResetError):
            pass
    return b"".join(chunks)


def _status(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1])


def _error(reply: bytes) -> str:
    return str(json.loads(reply.partition(b"\r\n\r\n")[2])["error"])


def test_keep_alive_serves_two_requests_on_one_connection(server: ApiServer) -> None:
    one = b"GET /episodes HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTH + b"\r\n"
    two = b"GET /episodes HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + AUTH + b"\r\n"
    reply = _exchange(server.port, one + two)
    assert reply.count(b"HTTP/1.1 200 OK") == 2 and reply.count(b'{"episodes":[]}') == 2


@pytest.mark.parametrize(
    ("host", "origin", "code", "fragment"),
    [
        ("evil.example:80", None, 400, "is not this server"),
        ("", None, 400, "is not this server"),
        ("127.0.0.1", "http://evil.example", 403, "evil.example"),
        ("127.0.0.1", "null", 403, "opaque origin"),
        ("[::1]:9", "http://localhost:3000", 200, ""),
    ],
)
def test_host_and_origin_are_checked(
    server: ApiServer, host: str, origin: str | None, code: int, fragment: str
) -> None:
    head = f"GET /episodes HTTP/1.1\r\nHost: {host}\r\n".encode()
    if origin is not None:
        head += f"Origin: {origin}\r\n".encode()
    reply = _exchange(server.port, head + AUTH + b"Connection: close\r\n\r\n")
    assert _status(reply) == code, reply
    if fragment:
        assert fragment in _error(reply)


def test_token_is_checked_before_the_body_is_read(server: ApiServer) -> None:
    raw = b"POST /episodes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{"
    t0 = time.monotonic()
    reply = _exchange(server.port, raw)
    assert _status(reply) == 401 and "missing token" in _error(reply)
    assert time.monotonic() - t0 < guard.BODY_TIMEOUT_S  # answered without the body


@pytest.mark.parametrize(
    ("extra", "body", "code", "fragment"),
    [
        (b"Content-Length: 99999999999\r\n", b"", 413, "over"),
        (b"Transfer-Encoding: chunked\r\n", b"5\r\nhello\r\n" * 4 + b"0\r\n\r\n", 413, "over"),
    ],
)
def test_bodies_are_bounded(
    server: ApiServer,
    monkeypatch: pytest.MonkeyPatch,
    extra: bytes,
    body: bytes,
    code: int,
    fragment: str,
) -> None:
    monkeypatch.setattr(guard, "MAX_BODY_BYTES", 12)
    raw = b"POST /episodes HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTH + extra + b"\r\n" + body
    reply = _exchange(server.port, raw)
    assert _status(reply) == code and fragment in _error(reply)


def test_a_body_that_stalls_gets_408(server: ApiServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard, "BODY_TIMEOUT_S", 0.3)
    raw = b"POST /episodes HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTH + b"Content-Length: 50\r\n\r\n{"
    reply = _exchange(server.port, raw)
    assert _status(reply) == 408 and "did not arrive" in _error(reply)


@pytest.mark.parametrize(
    "raw",
    [
        b"NONSENSE\r\n\r\n",
        b"GET / HTTP/1.1\r\nbadheader\r\n\r\n",
        b"POST /episodes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n",
        b"POST /episodes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n"
        b"Content-Length: 9\r\n\r\n{}",
        b"GET / HTTP/1.1\r\nX: " + b"a" * 70000 + b"\r\n\r\n",
    ],
)
def test_malformed_http_gets_400_and_no_hang(server: ApiServer, raw: bytes) -> None:
    reply = _exchange(server.port, raw, timeout=5)
    assert reply and _status(reply) in (400, 431), reply[:200]


def test_malformed_json_and_wrong_shapes_are_named() -> None:
    from studio.services.api.answers import validation_message

    invalid = [{"type": "json_invalid", "loc": ("body", 1), "ctx": {"error": "Expecting value"}}]
    assert validation_message(invalid) == (400, "malformed JSON: Expecting value")
    assert validation_message([{"type": "missing", "loc": ("body",)}])[0] == 400
    shape = [{"type": "model_attributes_type", "loc": ("body",), "input": [1]}]
    assert validation_message(shape) == (422, "the body must be a JSON object, not list")


def test_log_lines_are_bounded() -> None:
    assert guard.short("a" * 10) == "a" * 10
    cut = guard.short("x" * 5_000_000)
    assert len(cut) < 300 and cut.endswith("(4999800 more)")


def test_loopback_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("10.1.2.3")
    with pytest.raises(StudioError, match="--allow-remote"):
        check_host("0.0.0.0", allow_remote=False)
    check_host("0.0.0.0", allow_remote=True)
    monkeypatch.delenv("STUDIO_TOKEN", raising=False)
    token, generated = resolve_token(None)
    assert generated and len(token) >= 24
    monkeypatch.setenv("STUDIO_TOKEN", "from-env")
    assert resolve_token(None) == ("from-env", False)
    assert resolve_token("given") == ("given", False)


def _closed_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> bool:
    """Whether the server closes `sock` within `seconds` while a byte of `trickle` is sent
    every 0.1 s (a request head that never ends)."""
    deadline = time.monotonic() + seconds
    sock.settimeout(0.1)
    sent = 0
    while time.monotonic() < deadline:
        try:
            if sock.recv(65536) == b"":
                return True
        except TimeoutError:
            pass
        except ConnectionResetError:
            return True
        if sent < len(trickle):
            try:
                sock.sendall(trickle[sent : sent + 1])
            except (BrokenPipeError, ConnectionResetError):
                return True
            sent += 1
    return False


def test_a_request_head_that_is_late_closes_its_connection(loop_thread: LoopThread) -> None:
    """Heads trickled a byte at a time, or half sent and left, are closed at the deadline;
    a kept-alive connection waits for its next request as before."""
    manager = FakeEpisodeManager()
    srv = ApiServer(manager, TOKEN, head_timeout_s=0.5)
    loop_thread.run(srv.start())
    head = b"GET /episodes HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTH + b"\r\n"
    try:
        with socket.create_connection(("127.0.0.1", srv.port)) as trickled:
            assert _closed_within(trickled, 10, trickle=b"GET /episodes HTTP/1.1\r\nX-Slow: " * 9)
        with socket.create_connection(("127.0.0.1", srv.port)) as half:
            half.sendall(head[:20])
            assert _closed_within(half, 10)
        with socket.create_connection(("127.0.0.1", srv.port)) as kept:
            kept.sendall(head)
            kept.settimeout(10)
            assert kept.recv(65536).startswith(b"HTTP/1.1 200")
            assert not _closed_within(kept, 1.5)  # idle between requests: kept alive
            kept.sendall(head[:20])  # the next request's head, never finished
            assert _closed_within(kept, 10)
    finally:
        loop_thread.run(srv.close())
        loop_thread.run(manager.close())


@pytest.mark.parametrize(
    ("body", "code", "fragment"),
    [
        (b'{"task": "create_cat_walk", "step_limit": Infinity}', 400, "holds Infinity, which"),
        (b'{"task": "x", "args": {"v": [1, -Infinity]}}', 400, "holds -Infinity, which"),
        (b'{"task": NaN}', 400, "holds NaN, which is not a finite JSON number"),
        (b'{"task": "x", "args": {"v": -1e999}}', 400, "holds -1e999, which"),
        (b'{"task": "NaN and Infinity in words"}', 404, "NaN and Infinity"),  # a string: a task
    ],
)
def test_a_body_with_numbers_json_has_not_is_refused_naming_them(
    server: ApiServer, body: bytes, code: int, fragment: str
) -> None:
    head = b"POST /episodes HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + AUTH
    reply = _exchange(server.port, head + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    assert _status(reply) == code, reply
    assert fragment in reply.decode(), reply


def test_non_json_numbers_are_found_only_as_values() -> None:
    assert guard.non_json_number(b'{"a": [1, {"b": NaN}]}') == "NaN"
    assert guard.non_json_number(b'{"a": "Infinity"}') is None
    assert guard.non_json_number(b"not json, Infinity") is None
    assert guard.non_json_number(b'{"a": 1e999}') == "1e999"  # JSON's, but read as inf
    assert guard.non_json_number(b'{"a": 1' + b"0" * 400 + b".5}") is not None
    assert guard.non_json_number(b'{"a": 1e300, "b": -2.5, "c": 10}') is None
    assert guard.non_json_number(b'{"a": 2E+400}') == "2E+400"
    assert guard.non_json_number(b'{"a": 1e0308, "b": "1e999 in words"}') is None

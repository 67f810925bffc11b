"""The small HTTP server: request parsing, limits, keep-alive, and errors as JSON."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest

from studio.services.api import check_host, is_loopback, resolve_token
from studio.services.api.http import HttpServer, Request, Response
from studio.services.errors import StudioError
from tests.helpers.loop_thread import LoopThread


async def _echo(request: Request) -> Response:
    if request.path == "/crash":
        raise ValueError("bug")
    return Response.json(
        {
            "method": request.method,
            "path": request.path,
            "query": request.query,
            "body": request.body.decode(),
        }
    )


@pytest.fixture
def port(loop_thread: LoopThread) -> Iterator[int]:
    server = HttpServer(_echo)
    loop_thread.run(server.start())
    yield server.port
    loop_thread.run(server.close())


def _exchange(port: int, raw: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(raw)
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def _status_and_json(reply: bytes) -> tuple[int, dict[str, object]]:
    head, _, body = reply.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_keep_alive_serves_two_requests_on_one_connection(port: int) -> None:
    one = b"POST /a%20b?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi"
    two = b"GET /second HTTP/1.1\r\nConnection: close\r\n\r\n"
    reply = _exchange(port, one + two)
    assert reply.count(b"HTTP/1.1 200 OK") == 2
    assert b'"path": "/a b"' in reply and b'"x": ["1"]' in reply and b'"body": "hi"' in reply
    assert b'"path": "/second"' in reply


@pytest.mark.parametrize(
    ("raw", "code", "fragment"),
    [
        (b"NONSENSE\r\n\r\n", 400, "malformed request line"),
        (b"GET / HTTP/1.1\r\nbadheader\r\n\r\n", 400, "malformed header"),
        (b"POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n", 400, "not a number"),
        (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411, "Content-Length"),
        (b"POST / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n", 413, "over"),
        (b"GET / HTTP/1.1\r\nX: " + b"a" * 20000 + b"\r\n\r\n", 431, "too large"),
        (b"GET /crash HTTP/1.1\r\n\r\n", 500, "internal error"),
    ],
)
def test_bad_requests(port: int, raw: bytes, code: int, fragment: str) -> None:
    status, body = _status_and_json(_exchange(port, raw))
    assert status == code and fragment in str(body["error"])


def test_request_json_errors() -> None:
    from studio.services.api.http import HttpError

    with pytest.raises(HttpError, match="line 1 column 2"):
        Request("POST", "/", {}, {}, b"{x").json()
    with pytest.raises(HttpError, match="UTF-8"):
        Request("POST", "/", {}, {}, b"\xff\xfe").json()
    assert Request("POST", "/", {}, {}, b'{"a": 1}').json() == {"a": 1}


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

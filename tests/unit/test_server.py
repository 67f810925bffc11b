"""The loopback server: files, safety, and a clean stop."""

from __future__ import annotations

import http.client
import socket
import threading
import time
from pathlib import Path

import pytest

from studio.services.runtime import server as server_module
from studio.services.runtime.server import EditorServer


@pytest.fixture
def server(tmp_path: Path):  # type: ignore[no-untyped-def]
    web = tmp_path / "web"
    web.mkdir()
    (web / "editor.html").write_text("<p>hi</p>")
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / "scratch-gui-standalone.js").write_text("var GUI;")
    srv = EditorServer(web_dir=web, bundle_dir=bundle, preferred_port=None).start()
    yield srv
    srv.stop()


def _get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", path)
    resp = conn.getresponse()
    return resp.status, resp.read()


def test_serves_page_bundle_and_registered_bytes(server: EditorServer) -> None:
    assert _get(server.port, "/")[1] == b"<p>hi</p>"
    assert _get(server.port, "/scratch-gui-standalone.js")[1] == b"var GUI;"
    url = server.register_bytes(b"PK..", "p.sb3")
    assert _get(server.port, url.split(str(server.port), 1)[1]) == (200, b"PK..")


def test_refuses_paths_outside_its_folders(server: EditorServer) -> None:
    assert _get(server.port, "/../../etc/passwd")[0] == 404
    assert _get(server.port, "/files/unknown/x.sb3")[0] == 404


def test_stop_ends_kept_alive_connections(server: EditorServer) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", "/")
    assert conn.getresponse().read() == b"<p>hi</p>"
    server.stop()
    with pytest.raises((ConnectionError, http.client.HTTPException, OSError)):
        conn.request("GET", "/")
        conn.getresponse().read()


def _started(tmp_path: Path) -> EditorServer:
    web = tmp_path / "web2"
    web.mkdir()
    (web / "editor.html").write_text("<p>hi</p>")
    return EditorServer(web_dir=web, bundle_dir=tmp_path, preferred_port=None).start()


def _closed_by_server(sock: socket.socket, within: float) -> bool:
    """True when the server closes `sock` (EOF or reset) within `within` seconds."""
    sock.settimeout(within)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False
    except OSError:
        return True  # reset by the server


def test_a_silent_connection_is_closed_and_others_are_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_module, "REQUEST_TIMEOUT", 0.5, raising=False)
    srv = _started(tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=5) as idle:
            assert _get(srv.port, "/") == (200, b"<p>hi</p>")  # served meanwhile
            assert _closed_by_server(idle, within=5)
    finally:
        srv.stop()


def test_a_request_trickled_in_is_cut_off_at_the_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The timeout bounds the whole request, not each read: one byte at a time won't do."""
    monkeypatch.setattr(server_module, "REQUEST_TIMEOUT", 0.5, raising=False)
    srv = _started(tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=5) as slow:
            started = time.monotonic()
            closed = False
            for byte in b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 100:
                try:
                    slow.sendall(bytes([byte]))
                except OSError:
                    closed = True
                    break
                if _closed_by_server(slow, within=0.1):
                    closed = True
                    break
            assert closed and time.monotonic() - started < 5
    finally:
        srv.stop()


def test_kept_alive_connection_serves_requests_within_the_timeout(server: EditorServer) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    for _ in range(3):
        conn.request("GET", "/")
        assert conn.getresponse().read() == b"<p>hi</p>"
    conn.close()


def test_a_burst_of_connections_is_queued_then_answered(tmp_path: Path) -> None:
    """64 connections arriving while the accept loop is busy all get in, then all get answers."""
    web = tmp_path / "web"
    web.mkdir()
    (web / "editor.html").write_text("<p>hi</p>")
    owner = EditorServer(web_dir=web, bundle_dir=tmp_path, preferred_port=None)
    httpd = server_module._bind(server_module._make_handler(owner), None)
    socks: list[socket.socket] = []
    serving = threading.Thread(target=httpd.serve_forever, daemon=True)
    try:
        # Not accepting yet: each connection must wait in the listen queue. A full queue drops
        # the SYN and the client retries only after a second, so the connect times out.
        for _ in range(64):
            socks.append(socket.create_connection(httpd.server_address[:2], timeout=0.8))
        serving.start()
        for sock in socks:
            sock.settimeout(5)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        for sock in socks:
            data = b""
            while chunk := sock.recv(4096):
                data += chunk
            assert data.startswith(b"HTTP/1.1 200") and data.endswith(b"<p>hi</p>")
    finally:
        for sock in socks:
            sock.close()
        if serving.is_alive():
            httpd.shutdown()
        httpd.server_close()

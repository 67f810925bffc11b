"""The loopback server: files, safety, and a clean stop."""

from __future__ import annotations

import http.client
from pathlib import Path

import pytest

from studio.services.server import EditorServer


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

"""Loopback HTTP server for the editor page, the Scratch GUI bundle and project files.

The server runs in a daemon thread so that it serves both the headless browser pool and the
QtWebEngine view while the asyncio loop is busy. It binds to 127.0.0.1 on a free port.

Any local process can connect, so no connection may hold the server: each is handled in a
daemon thread of its own; a request (request line and headers, or the wait for the next request
on a kept-alive connection) must arrive in full within `REQUEST_TIMEOUT` seconds, however it is
trickled in, or the connection is closed; sending a response to a client that does not read it
gives up after the same time. The listen backlog (`LISTEN_BACKLOG`) holds a burst of
connections, such as a browser opening many at once, while the accept loop catches up.
"""

from __future__ import annotations

import contextlib
import io
import mimetypes
import os
import secrets
import socket
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from studio.models.errors import StudioError
from studio.services.core import paths
from studio.services.runtime import editions
from studio.services.runtime.editions import Edition
from studio.services.runtime.lean_bundle import LEAN_PREFIX, lean_path

__all__ = [
    "EVAL_PAGE_CSP", "LISTEN_BACKLOG", "PAGE_HEADERS", "PREFERRED_PORT", "REQUEST_TIMEOUT",
    "EditorServer",
]  # fmt: skip

# A fixed port keeps the page origin stable between runs, so the browser's HTTP and V8 code
# caches (keyed by URL) stay warm; when it is taken another free port is used.
PREFERRED_PORT = int(os.environ.get("STUDIO_PORT", "47613"))

# Seconds a connection has to send a whole request (and a client to take a response); a
# connection that sends nothing, or too little, is closed after that.
REQUEST_TIMEOUT = 30.0
# Connections the kernel queues before the server accepts them (capped by net.core.somaxconn).
LISTEN_BACKLOG = 128

# The evaluation page runs untrusted scripts: it may reach its own origin only (fetch, XHR,
# WebSocket, workers, images, media), load no frame or plugin, and open no popup (sandbox
# without allow-popups; forms and modal dialogs are off too). Navigating away is refused by the
# browser pool. 'unsafe-inline' is how scripts are installed; 'unsafe-eval' serves string timers.
EVAL_PAGE_CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "media-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self' data: blob:",
        "worker-src 'self' blob:",
        "frame-src 'none'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
        "sandbox allow-scripts allow-same-origin",
    ]
)
PAGE_HEADERS = {"eval.html": {"Content-Security-Policy": EVAL_PAGE_CSP}}

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("application/x.scratch.sb3", ".sb3")


class EditorServer:
    """Serves `/` from our web folder, then the bundle, plus registered files under `/files/`.

    Paths under an edition's prefix (`classic/`) are served from our web folder, then from that
    edition's bundle (looked up when first asked for: a missing one is a 404 there, and only
    there). `<prefix>studio-lean/<entry>` is the edition's entry script without its entry call,
    what evaluation pages load (`lean_bundle`; made in the cache folder when first asked for).

    Usage: `server = EditorServer(); server.start(); url = server.url("editor.html")`.
    """

    def __init__(
        self,
        web_dir: Path | None = None,
        bundle_dir: Path | None = None,
        preferred_port: int | None = PREFERRED_PORT,
    ) -> None:
        self.preferred_port = preferred_port
        self.web_dir = web_dir or paths.WEB_DIR
        self.bundle_dir = bundle_dir or paths.bundle_dir()
        self.js_dir = paths.JS_DIR
        self._edition_dirs: dict[Edition, Path | None] = {Edition.CURRENT: self.bundle_dir}
        self._files: dict[str, Path] = {}
        self._lean_dir: Path | None = None  # where lean scripts are made (`lean_script`)
        self._blobs: dict[str, bytes] = {}
        self._lock = threading.Lock()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("server not started")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def url(self, path: str) -> str:
        return self.base_url + path.lstrip("/")

    def start(self) -> EditorServer:
        if self._httpd is not None:
            return self
        handler = _make_handler(self)
        self._httpd = _bind(handler, self.preferred_port)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name="editor-server", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.close_connections()
        self._httpd.server_close()
        self._httpd = None
        self._thread = None

    def __enter__(self) -> EditorServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def register_file(self, path: Path) -> str:
        """Serve one file from disk under an unguessable URL; return that URL."""
        key = f"{secrets.token_hex(8)}/{path.name}"
        with self._lock:
            self._files[key] = path.resolve()
        return self.url(f"files/{key}")

    def register_bytes(self, data: bytes, name: str = "project.sb3") -> str:
        """Serve bytes held in memory under an unguessable URL; return that URL."""
        key = f"{secrets.token_hex(8)}/{name}"
        with self._lock:
            self._blobs[key] = data
        return self.url(f"blobs/{key}")

    def forget(self, url: str) -> None:
        key = url.split("/files/", 1)[-1].split("/blobs/", 1)[-1]
        with self._lock:
            self._files.pop(key, None)
            self._blobs.pop(key, None)

    def edition_bundle_dir(self, edition: Edition) -> Path | None:
        """The edition's bundle folder, or None when it is not installed."""
        if edition not in self._edition_dirs:
            try:
                found: Path | None = editions.bundle_dir(edition)
            except paths.SetupError:
                found = None
            with self._lock:
                self._edition_dirs[edition] = found
        return self._edition_dirs[edition]

    def lean_script(self, edition: Edition) -> Path:
        """The edition's lean entry script (`lean_bundle.lean_path`), made when first asked
        for; `paths.SetupError` when the edition's bundle is not installed, `LeanBundleError`
        when its entry script is another build."""
        bundle = self.edition_bundle_dir(edition) or editions.bundle_dir(edition)
        with self._lock:
            if self._lean_dir is None:
                self._lean_dir = paths.cache_dir() / "lean-bundles"
            folder = self._lean_dir
        return lean_path(edition, bundle / editions.info(edition).entry, folder)

    def is_bundle_file(self, target: Path) -> bool:
        """Whether `target` belongs to an edition's bundle, or is a lean script made of one
        (cached by browsers for a day)."""
        dirs = [d for d in [*self._edition_dirs.values(), self._lean_dir] if d is not None]
        return any(d in target.parents for d in dirs)

    def resolve(self, raw_path: str) -> Path | bytes | None:
        """Map a request path to a file on disk or bytes in memory, or None."""
        path = unquote(urlsplit(raw_path).path).lstrip("/") or "editor.html"
        with self._lock:
            if path.startswith("files/"):
                return self._files.get(path[len("files/") :])
            if path.startswith("blobs/"):
                return self._blobs.get(path[len("blobs/") :])
        if path.startswith("studio-js/"):
            return _safe_join(self.js_dir, path[len("studio-js/") :])
        edition, rest = editions.edition_of_page(path)
        if rest == LEAN_PREFIX + editions.info(edition).entry:
            try:  # a browser pool makes it at its start, where what is wrong is reported
                return self.lean_script(edition)
            except StudioError:
                return None
        if edition is Edition.CURRENT:
            return _safe_join(self.web_dir, path) or _safe_join(self.bundle_dir, path)
        bundle = self.edition_bundle_dir(edition)
        return _safe_join(self.web_dir, path) or (bundle and _safe_join(bundle, rest))


class _Server(ThreadingHTTPServer):
    """Tracks open connections so that stopping the server also ends kept-alive ones; a
    browser that outlives this server must not keep talking to it."""

    daemon_threads = True
    request_queue_size = LISTEN_BACKLOG

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._open_lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        with self._open_lock:
            conns, self._open = list(self._open), set()
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the browser went away mid-response: nothing to report
        super().handle_error(request, client_address)


def _bind(handler: type[BaseHTTPRequestHandler], preferred: int | None) -> _Server:
    """Bind to the preferred port when it is free (the browser caches by origin), else any."""
    if preferred:
        try:
            return _Server(("127.0.0.1", preferred), handler)
        except OSError:
            pass
    return _Server(("127.0.0.1", 0), handler)


def _safe_join(root: Path, rel: str) -> Path | None:
    candidate = (root / rel).resolve()
    try:
        candidate.relative_to(root.resolve())
    except ValueError:
        return None
    return candidate if candidate.is_file() else None


class _DeadlineReader(io.RawIOBase):
    """Reads a socket; while `deadline` (a `time.monotonic()` value) is set, no read may end
    after it. A socket timeout alone bounds each read, so one byte at a time would never time
    out."""

    def __init__(self, sock: socket.socket, timeout: float) -> None:
        self._sock = sock
        self._timeout = timeout
        self.deadline: float | None = None

    def readable(self) -> bool:
        return True

    def arm(self) -> None:
        self.deadline = time.monotonic() + self._timeout

    def disarm(self) -> None:
        self.deadline = None
        self._sock.settimeout(self._timeout)

    def readinto(self, buffer: Any) -> int:
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("request not received in time")
            self._sock.settimeout(left)
        return self._sock.recv_into(buffer)


def _make_handler(server: EditorServer) -> type[BaseHTTPRequestHandler]:
    request_timeout = REQUEST_TIMEOUT

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = request_timeout  # the socket timeout, for writes too (set in `setup`)

        def setup(self) -> None:
            super().setup()
            self.rfile.close()  # replaced by one that reads against the request deadline
            self._reader = _DeadlineReader(self.connection, request_timeout)
            self.rfile = io.BufferedReader(self._reader)

        def handle_one_request(self) -> None:
            # The base class closes the connection on TimeoutError while reading a request.
            self._reader.arm()
            super().handle_one_request()

        def parse_request(self) -> bool:
            try:
                return super().parse_request()  # reads the headers
            finally:
                self._reader.disarm()

        def log_message(self, format: str, *args: object) -> None:
            return

        def do_HEAD(self) -> None:
            self._serve(head=True)

        def do_GET(self) -> None:
            self._serve(head=False)

        def _serve(self, head: bool) -> None:
            target = server.resolve(self.path)
            if target is None:
                self.send_error(HTTPStatus.NOT_FOUND)
                return
            if isinstance(target, bytes):
                data, ctype, cache = target, "application/octet-stream", "no-store"
            else:
                data = target.read_bytes()
                ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
                in_bundle = server.is_bundle_file(target)
                cache = "public, max-age=86400" if in_bundle else "no-cache"
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", cache)
            if isinstance(target, Path):
                for name, value in PAGE_HEADERS.get(target.name, {}).items():
                    self.send_header(name, value)
            self.end_headers()
            if not head:
                self.wfile.write(data)

    return Handler

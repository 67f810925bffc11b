"""A real HTTP server on 127.0.0.1 that answers every request alike and keeps each one.

For tests of outgoing HTTP (redirects, proxies): `with Recorder(302, {"Location": url},
body=b"...") as server:`; `server.url` is its base URL, `server.requests` holds
`(method, path, headers)` of every request it got, in order.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Recorder:
    def __init__(
        self, status: int = 200, headers: dict[str, str] | None = None, body: bytes = b"{}"
    ) -> None:
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        recorder, answer = self, (status, headers or {})

        class Handler(BaseHTTPRequestHandler):
            def _any(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                recorder.requests.append((self.command, self.path, dict(self.headers.items())))
                self.send_response(answer[0])
                for name, value in {**answer[1], "Content-Length": str(len(body))}.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_DELETE = _any

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> Recorder:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

"""A stand-in OpenAI-compatible chat endpoint on 127.0.0.1 for tests of the LLM agent.

It answers `POST /v1/chat/completions` with canned replies, in order (the last one repeats),
and keeps every request it got. A canned reply is the assistant's text, or `(status, body)` for
an HTTP error.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeLlmServer:
    """Start with `with FakeLlmServer(["reply", ...]) as llm:`; `llm.url` is the base URL."""

    def __init__(self, replies: Sequence[str | tuple[int, str]] | None = None) -> None:
        self.replies: list[str | tuple[int, str]] = list(
            replies or ['```json\n{"api": "done"}\n```']
        )
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> FakeLlmServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def next_reply(self, request: dict[str, Any], headers: dict[str, str]) -> str | tuple[int, str]:
        with self._lock:
            self.requests.append(request)
            self.headers.append(headers)
            return self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                request = json.loads(self.rfile.read(length) or b"{}")
                if self.path != "/v1/chat/completions":
                    self._send(404, json.dumps({"error": {"message": "not found"}}))
                    return
                reply = fake.next_reply(request, dict(self.headers.items()))
                if isinstance(reply, tuple):
                    self._send(*reply)
                    return
                body = {
                    "id": f"fake-{len(fake.requests)}",
                    "object": "chat.completion",
                    "model": request.get("model", ""),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": reply},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
                }
                self._send(200, json.dumps(body))

            def _send(self, status: int, body: str) -> None:
                data = body.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler

"""A deadline on request heads: uvicorn's HTTP/1.1 protocol (h11) with half-sent requests closed.

uvicorn closes a kept-alive connection after `timeout_keep_alive` without a byte, but any
byte resets that clock and a request head may take forever: a client trickling one byte at a
time, or opening connections and sending half a head, holds them open for good. Here a
connection must deliver a whole request head within `head_timeout_s` of its opening, and of
the first byte of each following request; a connection that does not is closed. Bodies have
their own deadline (`guard.BODY_TIMEOUT_S`); idle kept-alive connections keep uvicorn's.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEAD_TIMEOUT_S", "HeadDeadlineProtocol", "protocol_with_deadline"]

HEAD_TIMEOUT_S = 15.0


class HeadDeadlineProtocol(H11Protocol):
    """H11Protocol that closes a connection whose request head is late (see the module)."""

    head_timeout_s = HEAD_TIMEOUT_S

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._head_timer is None and self._awaiting_head():
            self._arm()  # the first byte of a following request
        super().data_received(data)
        if not self._awaiting_head():
            self._disarm()

    def _awaiting_head(self) -> bool:
        return self.conn.their_state is h11.IDLE

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.head_timeout_s, self._head_late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self._awaiting_head() and not self.transport.is_closing():
            self.transport.close()


def protocol_with_deadline(head_timeout_s: float) -> type[HeadDeadlineProtocol]:
    """The protocol class uvicorn's `http=` takes, with its own head deadline."""
    return type("HeadDeadline", (HeadDeadlineProtocol,), {"head_timeout_s": head_timeout_s})

"""Serve until the user stops the process: what `studio serve` and `studio study serve` share.

`serve_until_stopped(close)` returns once SIGINT (Ctrl-C) or SIGTERM arrives, after awaiting
`close()`, which also runs when the wait itself is cancelled or fails. Where the event loop
cannot take signal handlers (not the main thread, or a platform without them), only a
cancellation ends the wait. Afterwards each signal has the handler it had before (the event
loop's own removal would leave the default one, ending a host that had its own handler).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["STOP_SIGNALS", "serve_until_stopped"]

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


async def serve_until_stopped(close: Callable[[], Awaitable[None]]) -> None:
    """Wait for a stop signal (see the module doc), then `close()`."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    installed: dict[signal.Signals, Any] = {}  # each signal's handler before ours
    for sig in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            before = signal.getsignal(sig)
            loop.add_signal_handler(sig, stop.set)
            installed[sig] = before
    try:
        await stop.wait()
    finally:
        for sig, before in installed.items():
            loop.remove_signal_handler(sig)  # leaves the default handler: put the old one back
            if before is not None:
                signal.signal(sig, before)
        await close()

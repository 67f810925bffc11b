"""Pause, step, resume and stop for a live episode, and the delay between its actions.

An episode calls `RunControls.gate(action)` before each action (Episode.gate). While the
controls are paused the gate holds the action (it is shown as `pending`) until `resume()`, or
`step()` which lets exactly one action through and stays paused. `stop()` makes every waiting
and later gate raise `StoppedError`. `delay_s` spaces actions out so people can follow.

`activity` says what the studio is doing now, in words for the Run tab: "acting: <api>" from
the gate's passage until the step is recorded (`finished()`), then "waiting for the agent"
until its next action arrives; a built-in run says more (observing, waiting for the oracle,
evaluating the final project) through `set_activity`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from studio.models.agent import ActionError

__all__ = ["WAITING_FOR_AGENT", "RunControls", "RunState", "StoppedError"]

WAITING_FOR_AGENT = "waiting for the agent"


class RunState(StrEnum):
    RUNNING = "running"
    PAUSED = "paused"
    STOPPED = "stopped"


class StoppedError(ActionError):
    """The viewer stopped the run; the action was not performed."""


class RunControls:
    """The gate in front of each action of one live episode."""

    def __init__(self, paused: bool = False, delay_s: float = 0.0) -> None:
        self.state = RunState.PAUSED if paused else RunState.RUNNING
        self.delay_s = max(0.0, delay_s)
        self.pending: dict[str, Any] | None = None  # the action held at the gate
        self.passed = 0  # actions let through
        self.activity = WAITING_FOR_AGENT
        self.on_change: list[Callable[[RunControls], None]] = []
        self._wake = asyncio.Event()
        self._step_tokens = 0
        self._last_pass = 0.0

    # ---- commands (from the viewer) ------------------------------------------------------
    def pause(self) -> None:
        if self.state is RunState.RUNNING:
            self._set(RunState.PAUSED)

    def resume(self) -> None:
        if self.state is RunState.PAUSED:
            self._step_tokens = 0
            self._set(RunState.RUNNING)

    def step(self) -> None:
        """Let one action through, then stay paused (pauses a running run first)."""
        if self.state is RunState.STOPPED:
            return
        self._step_tokens += 1
        self._set(RunState.PAUSED)

    def stop(self) -> None:
        self._set(RunState.STOPPED)

    def set_delay(self, seconds: float) -> None:
        self.delay_s = max(0.0, seconds)
        self._wake.set()

    def finished(self) -> None:
        """The action let through has finished: the delay counts from now."""
        self._last_pass = time.monotonic()
        self.set_activity(WAITING_FOR_AGENT)

    def set_activity(self, text: str) -> None:
        """Say what the studio is doing now (shown while no action is held)."""
        if text != self.activity:
            self.activity = text
            self._notify()

    # ---- the gate (from the episode) -----------------------------------------------------
    async def gate(self, action: dict[str, Any]) -> None:
        """Wait until this action may run; raise StoppedError when the run was stopped."""
        self.pending = action
        self._notify()
        try:
            while True:
                if self.state is RunState.STOPPED:
                    raise StoppedError("the run was stopped in the viewer")
                if self.state is RunState.RUNNING:
                    wait = self._last_pass + self.delay_s - time.monotonic()
                    if wait <= 0:
                        break
                    await self._sleep(wait)
                    continue
                if self._step_tokens > 0:
                    self._step_tokens -= 1
                    break
                await self._sleep(None)
        finally:
            self.pending = None
        self.passed += 1
        self._last_pass = time.monotonic()
        self.activity = f"acting: {action.get('api', 'an action')}"
        self._notify()

    async def _sleep(self, seconds: float | None) -> None:
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)

    def _set(self, state: RunState) -> None:
        self.state = state
        self._wake.set()
        self._notify()

    def _notify(self) -> None:
        for callback in list(self.on_change):
            callback(self)

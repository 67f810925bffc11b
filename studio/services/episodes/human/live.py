"""A human baseline session running in a live editor page: capture, coalesce, record.

`HumanSessionDriver` works on a Playwright page showing the task (the studio lends its
embedded editor, see services.live). It installs resources/js/input-capture.js, and each
`poll()` drains the raw input events, turns them into agent-schema actions
(`coalesce.EventCoalescer`) and records every finished action with the screenshot taken
before it and the program change seen since the previous one. Frames are taken when the
participant is quiet (no button held, no new input since the last poll), so a screenshot
never shows a drag half done. `finish` records the closing step, the final project and
screenshot, and the verdict.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Awaitable, Callable
from typing import Any

from studio.models.agent import EpisodeStatus, StepRecord
from studio.models.evaluation import EvalResult
from studio.services.episodes.human.coalesce import EventCoalescer, HumanAction
from studio.services.episodes.human.session import HumanSessionRecorder
from studio.services.episodes.recorder import program_change
from studio.services.runtime import page_scripts
from studio.services.runtime.page_scripts import INPUT
from studio.services.runtime.page_seam import EditorPage

__all__ = ["Evaluate", "HumanSessionDriver"]

Evaluate = Callable[[bytes], Awaitable[EvalResult | None]]


class HumanSessionDriver:
    """Records one participant on one task in `page`."""

    def __init__(self, page: EditorPage, recorder: HumanSessionRecorder) -> None:
        self.page = page
        self.recorder = recorder
        self.coalescer = EventCoalescer()
        self.steps: list[StepRecord] = []
        self._frame: bytes | None = None
        self._frame_stale = True
        self._program: dict[str, Any] | None = None

    async def start(self) -> None:
        await page_scripts.install(self.page, INPUT)
        await page_scripts.call(self.page, INPUT, "drain")  # nothing before the start
        await self._take_frame()

    async def poll(self) -> list[StepRecord]:
        """Drain input, record the actions that are complete; return the new steps."""
        events: list[dict[str, Any]] = await page_scripts.call(self.page, INPUT, "drain")
        pressed = bool(await page_scripts.call(self.page, INPUT, "pressed"))
        self.coalescer.feed_all(events)
        new = [await self._record(a) for a in self.coalescer.pop_ready(time.time() * 1000)]
        if not events and not pressed and self._frame_stale:
            await self._take_frame()
        return new

    async def finish(self, status: EpisodeStatus, evaluate: Evaluate) -> EvalResult | None:
        """Record what is left, the closing step, the final project and its verdict."""
        for action in self.coalescer.flush():
            await self._record(action)
        await page_scripts.call(self.page, INPUT, "stop")
        b64 = await page_scripts.bridge(self.page, "saveProjectBase64")
        sb3 = base64.b64decode(b64)
        png: bytes = await self.page.screenshot(type="png")
        result = await evaluate(sb3)
        self.recorder.finish(status, sb3=sb3, png=png, result=result)
        return result

    async def _record(self, action: HumanAction) -> StepRecord:
        before = self._program
        after = await self._read_program()
        record = self.recorder.record(action, self._frame, program_change(before, after))
        self._program = after
        self._frame_stale = True
        self.steps.append(record)
        return record

    async def _take_frame(self) -> None:
        self._frame = await self.page.screenshot(type="png")
        self._frame_stale = False
        if self._program is None:
            self._program = await self._read_program()

    async def _read_program(self) -> dict[str, Any] | None:
        try:
            program: dict[str, Any] = await page_scripts.call(
                self.page, page_scripts.EDITOR, "program"
            )
            return program
        except Exception:
            return None

"""Episodes: one agent acting on one task in the real Scratch editor, one action per step.

An `EpisodeManager` (studio.services.episodes.manager) owns one
headless Chromium (through a `BrowserPool`, whose fresh pages also serve evaluations) and the
`EditorServer`. Each episode gets a page of its own showing the full editor at 1280x720 with
the task's initial project loaded and the editor in a known layout (first sprite selected,
Motion category shown, workspace scrolled to its top-left).

Steps: `Episode.step(raw_action)` validates the action for the episode's mode, hands it to the
mode's handler, records the step (with the program change computed from `vm.toJSON()` before
and after) and returns the `StepRecord`. `done` and `failed` end the episode; reaching the step
limit ends it with status `step_limit`. A bad action raises `ActionError`: it is recorded as a
failed step (it counts towards the step limit, so an agent that keeps erring still stops) and
the episode stays usable. An action after the end raises `ActionError` and is not recorded.
Every page call has a deadline; a page lost all the same ends the episode as an environment
failure (`PageLost`, `lost`, the program of the last observation kept: episodes.page_loss).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.action_parse import parse_action
from studio.models.agent import ActionError, EpisodeStatus, Mode, Observation, StepRecord
from studio.models.evaluation import Clock, EvalResult
from studio.services.core.store import TaskFolder
from studio.services.episodes.editor_pages import EnvError
from studio.services.episodes.editor_work import EditorWork
from studio.services.episodes.feedback import FEEDBACK_API, FeedbackTurns
from studio.services.episodes.handlers import make_handler, observation_summary
from studio.services.episodes.modes import (
    ActionOutcome,
    ModeHandler,
    ParsesActions,
    ReadsProgram,
)
from studio.services.episodes.page_loss import PageLost, bounded, close_page, lose
from studio.services.episodes.program_cache import ExportCache
from studio.services.episodes.recorder import TrajectoryRecorder, program_change
from studio.services.episodes.seams import EpisodeHost, PageSource, StepGate, StepListener
from studio.services.runtime import page_scripts
from studio.services.runtime.evaluator import Evaluator
from studio.services.runtime.page_seam import EditorPage
from studio.services.runtime.screenshots import shot_png

DEFAULT_STEP_LIMIT = 100


def _now() -> datetime:
    return datetime.now(UTC)


class Episode:
    """One task, one mode, one editor page; steps one action at a time.

    Attributes: `id`, `task`, `mode`, `status`, `step_count`, `step_limit`, `trajectory_dir`
    (None when not recorded), `page` (the Playwright page), `last_observation`, `result`
    (the last evaluation), `agent_name`.
    """

    def __init__(
        self,
        episode_id: str,
        manager: EpisodeHost,
        task: TaskFolder,
        mode: Mode,
        page: EditorPage,
        handler: ModeHandler,
        step_limit: int,
        recorder: TrajectoryRecorder | None,
        agent_name: str = "unknown",
        owns_page: bool = True,
    ) -> None:
        self.id = episode_id
        self.owns_page = owns_page
        self.gate: StepGate | None = None
        self.listeners: list[StepListener] = []
        self.agent_name = agent_name
        self.manager = manager
        self.task = task
        self.mode = mode
        self.page: EditorPage | None = page
        self.handler = handler
        self.step_limit = step_limit
        self.recorder = recorder
        self.status = EpisodeStatus.RUNNING
        self.step_count = 0
        self.started_at = _now()
        self.last_observation: Observation | None = None
        self.result: EvalResult | None = None
        self._program: dict[str, Any] | None = None
        self._lock = asyncio.Lock()
        self.lost: str | None = None  # why the page was lost (an environment failure)
        self.kept_sb3: bytes | None = None  # the program at the last observation (recorded runs)
        self.kept_step = 0
        self.feedback_turns = FeedbackTurns()  # mid-episode evaluations granted (feedback.py)
        self.work: EditorWork | None = None  # the browser's queue of editor work (its manager's)
        self.exports = ExportCache()  # the last program export, reused while nothing changed
        self._shown: tuple[int, bytes] | None = None  # (step, PNG) of the last observation

    @property
    def trajectory_dir(self) -> Path | None:
        return self.recorder.folder if self.recorder else None

    @property
    def running(self) -> bool:
        return self.status is EpisodeStatus.RUNNING

    def relabel(self, mode: Mode | None = None, task: TaskFolder | None = None) -> None:
        """Record the episode under another mode or task (a ScratchWorld session shows its
        mode with its first calls and its task when it loads the task's project)."""
        if mode is not None:
            self.mode = mode
        if task is not None:
            self.task = task
        if self.recorder is not None:
            self.recorder.run.mode = self.mode
            self.recorder.run.task_id = self.task.task.id
            self.recorder.run.task_folder = str(self.task.folder)
            self.recorder.write_run()

    def forget_program(self) -> None:
        """The program was replaced outside a step (a project loaded): read it afresh."""
        self._program = None
        self._shown = None
        self.exports.forget()

    # ---- observing and acting ----------------------------------------------------------
    async def observe(self) -> Observation:
        """The observation for the next step (also allowed after the end)."""
        self._check_open()
        async with self._lock, self._turn():
            await self._focus()
            page = self._page()
            try:
                obs = await bounded(page, "observe", self.handler.observe(page, self.step_count))
                if self.recorder is not None:  # what the run keeps should the page be lost
                    self.kept_sb3 = await bounded(page, "keep the program", self._export())
                    self.kept_step = self.step_count
            except PageLost as exc:
                lose(self, str(exc))
                raise
            self.last_observation = obs
            shown = obs.screenshot_png_b64
            self._shown = (self.step_count, base64.b64decode(shown)) if shown else None
            return obs

    async def step(
        self, raw_action: dict[str, Any], reasoning: str = "", usage: dict[str, Any] | None = None
    ) -> StepRecord:
        """Perform one action; raise ActionError when it is invalid or the episode has ended.
        `usage` (tokens and cost the agent spent on it) is recorded with the step."""
        self._check_open()
        if self.gate is not None and self.running:
            await self.gate(raw_action)
            self._check_open()
        async with self._lock:
            if not self.running:
                raise ActionError(f"the episode has ended (status {self.status.value})")
            async with self._turn():
                await self._focus()
                return await self._step(raw_action, reasoning, usage)

    def _turn(self) -> contextlib.AbstractAsyncContextManager[None]:
        """A place in the browser's queue of editor work (none without a queue)."""
        if self.work is None:
            return contextlib.nullcontext()
        return self.work.turn(self.id)

    async def _step(
        self, raw: dict[str, Any], reasoning: str, usage: dict[str, Any] | None = None
    ) -> StepRecord:
        t0 = time.perf_counter()
        index = self.step_count + 1
        record = StepRecord(
            index=index,
            at=_now(),
            action=raw if isinstance(raw, dict) else {"raw": raw},
            reasoning=reasoning,
            observation_summary=observation_summary(self.last_observation),
            usage=usage,
        )
        png: bytes | None = None
        shown, self._shown = self._shown, None
        self.exports.forget()  # any action may change the program, whatever the page counts
        if self.recorder is not None:
            try:  # the screenshot the agent was sent for this step, the very bytes, if any
                png = shown[1] if shown is not None and shown[0] == self.step_count else None
                png = png if png is not None else await self._screenshot()
            except PageLost as exc:
                lose(self, str(exc))
                raise
            record.screenshot = self.recorder.write_screenshot(index, png)
            if self.last_observation is not None:
                self.recorder.write_observation(index, self.last_observation)
        error: ActionError | None = None
        lost: PageLost | None = None
        try:
            if isinstance(raw, dict) and raw.get("api") == FEEDBACK_API:
                raise self.feedback_turns.as_step()  # requests reach a step only when refused
            if isinstance(self.handler, ParsesActions):  # a handler of both modes parses
                action = self.handler.parse(raw)
            else:
                action = parse_action(raw, self.mode)
            if action.api == "done":
                self.status = EpisodeStatus.DONE
            elif action.api == "failed":
                self.status = EpisodeStatus.FAILED
            else:
                before = await self._program_json()
                page = self._page()
                work = self.handler.execute(page, action)
                outcome: ActionOutcome = await bounded(page, f"{action.api} action", work)
                record.target = outcome.target
                self._program = await self._read_program()
                record.change = program_change(before, self._program)
        except ActionError as exc:
            error = exc
            record.ok, record.error = False, str(exc)
            self._program = None  # a refused action may still have moved something
        except PageLost as exc:
            lost, record.ok, record.error = exc, False, str(exc)
        self.step_count = index
        if self.running and self.step_count >= self.step_limit:
            self.status = EpisodeStatus.STEP_LIMIT
        record.status_after = self.status
        record.duration_ms = (time.perf_counter() - t0) * 1000
        if self.recorder is not None:
            self.recorder.append(record)
            self._update_run()
        for listener in list(self.listeners):
            listener(record, png, self.last_observation)
        if lost is not None:
            lose(self, str(lost))
            raise lost
        if not self.running:
            await self._finish()
        if error is not None:
            raise error
        return record

    # ---- end of the episode ------------------------------------------------------------
    async def evaluate(
        self, clock: Clock = Clock.REAL, seed: int = 0, task: TaskFolder | None = None
    ) -> EvalResult:
        """Export the program and run the tests of the episode's task (or of `task`, for a
        session that names its task only when it evaluates) on it in a fresh evaluation page."""
        self._check_open()
        async with self._lock:
            self._check_open()  # closed while waiting for the lock
            sb3 = await bounded(self._page(), "export the program", self._export())
            if self.recorder is not None:
                self.recorder.write_final(sb3=sb3)
            evaluator = Evaluator(self.manager.pool)
            result = await evaluator.evaluate(
                task or self.task, sb3, project_name="final.sb3", clock=clock, seed=seed
            )
            self.result = result
            if self.recorder is not None:
                self.recorder.run.eval = result
                # every evaluation is counted, with when it came: more than one is feedback
                # the agent may have used (studio report flags it)
                self.recorder.run.meta.setdefault("evaluations", []).append(
                    {
                        "at": _now().isoformat(),
                        "after_step": self.step_count,
                        "passed": result.passed_tests,
                        "total": result.total_tests,
                    }
                )
                self._update_run()
            return result

    async def request_feedback(
        self, clock: Clock = Clock.REAL, seed: int = 0
    ) -> tuple[EvalResult, dict[str, Any]]:
        """One feedback turn (episodes.feedback): the current program evaluated while the
        episode runs, recorded in run.json `meta.feedback`, never as the episode's result.
        FeedbackRefused when the episode has ended or its budget is used."""
        self._check_open()
        if not self.running:
            raise self.feedback_turns.refusal()
        async with self._lock:
            self._check_open()

            async def evaluate() -> EvalResult:
                sb3 = await bounded(self._page(), "export the program", self._export())
                return await Evaluator(self.manager.pool).evaluate(
                    self.task, sb3, project_name="feedback.sb3", clock=clock, seed=seed
                )

            result, record = await self.feedback_turns.take(evaluate, self.step_count)
            if self.recorder is not None:
                meta = self.recorder.run.meta
                meta["feedback_turns"] = self.feedback_turns.budget
                meta.setdefault("feedback", []).append(record)
                self._update_run()
            return result, record

    async def program_sb3(self) -> bytes:
        """The current program as .sb3 bytes, read within the page's deadline under the
        episode's lock (what an API client keeps as the episode's final program: GET
        /episodes/{id}/program). ActionError once closed; a lost page is PageLost."""
        self._check_open()
        async with self._lock:
            self._check_open()
            try:
                return await bounded(self._page(), "export the program", self._export())
            except PageLost as exc:
                lose(self, str(exc))
                raise

    async def export_sb3(self) -> bytes:
        """The current program as .sb3 bytes (vm.saveProjectSb3); read by the handler's own
        reader when it has one (a sealed ScratchWorld session's, captured before agent code)."""
        if isinstance(self.handler, ReadsProgram):
            return await self.handler.read_sb3(self._page())
        b64 = await page_scripts.bridge(self._page(), "saveProjectBase64")
        return base64.b64decode(b64)

    async def close(self) -> None:
        """End the episode (status closed if it was running) and close its page."""
        if self.page is None:
            return
        async with self._lock:
            if self.running:
                self.status = EpisodeStatus.CLOSED
                await self._finish()
            page, self.page = self.page, None
            if not self.owns_page:
                self.manager.release_page(page)
                return
            await close_page(page)

    async def _finish(self) -> None:
        """Store the final program and screenshot beside the steps."""
        if self.recorder is None or self.page is None or self.lost is not None:
            return  # a lost page's final program is the one kept (page_loss.lose)
        with contextlib.suppress(Exception):
            sb3 = await bounded(self._page(), "export the program", self._export())
            self.recorder.write_final(sb3=sb3, png=await self._screenshot())
        self._update_run()

    # ---- helpers -----------------------------------------------------------------------
    async def _focus(self) -> None:
        """Make the page the browser's front tab: Blockly fires its change events (which the
        VM listens to) from an animation frame, and a tab behind another gets those late. Done
        at every observation and action even though the headless browser shows every page and
        gives each the focus: leaving a page that says it is shown and focused where it was
        (tried in issue 39) made the primitive oracle's palette drags connect on their way
        (tests/e2e/test_oracle_primitive.py)."""
        with contextlib.suppress(Exception):
            await self._page().bring_to_front()
        if not self.owns_page and self.manager.page_source is not None:
            await self.manager.page_source.refresh(self._page())

    def _page(self) -> EditorPage:
        """The episode's page; ActionError once the episode is closed."""
        if self.page is None:
            raise ActionError(f"episode {self.id} is closed")
        return self.page

    def _check_open(self) -> None:
        if self.lost is not None:
            raise PageLost(f"episode {self.id} lost its editor page: {self.lost}")
        if self.page is None:
            raise ActionError(f"episode {self.id} is closed")

    def _update_run(self) -> None:
        assert self.recorder is not None
        run = self.recorder.run
        run.status, run.steps = self.status, self.step_count
        if not self.running and run.ended_at is None:
            run.ended_at = _now()
        self.recorder.write_run()

    async def _export(self) -> bytes:
        """`export_sb3`, or the last export while the page shows no change since it
        (episodes.program_cache: forgotten at every action). A handler that reads the
        program itself (a sealed ScratchWorld session, whose page runs the agent's own code,
        which could fake the page's change key) always exports."""
        if isinstance(self.handler, ReadsProgram):
            return await self.export_sb3()
        return await self.exports.sb3(self._page(), self.export_sb3)

    async def _screenshot(self) -> bytes:
        page = self._page()
        png: bytes = await bounded(page, "screenshot", shot_png(page))
        return png

    async def _program_json(self) -> dict[str, Any] | None:
        if self._program is None:
            self._program = await self._read_program()
        return self._program

    async def _read_program(self) -> dict[str, Any] | None:
        try:
            read = page_scripts.call(self._page(), page_scripts.EDITOR, "program")
            program: dict[str, Any] = await bounded(self._page(), "read the program", read)
            return program
        except PageLost:
            raise
        except Exception:
            return None


__all__ = [
    "DEFAULT_STEP_LIMIT", "ActionError", "EnvError", "Episode", "PageLost",
    "PageSource", "StepGate", "StepListener", "make_handler",
]  # fmt: skip

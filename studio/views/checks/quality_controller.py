"""Checks, lint and review of the task being authored.

Runs the adversarial check of the open task (saved first) with a progress bar, records it
beside the task (`last_check.json`) and in the library; shows a survivor's change as a diff
and loads it into the editor; marks survivors equivalent; lints the task; moves it through
the review states. Everything acts on the saved task folder, never on unsaved edits.
"""

from __future__ import annotations

import asyncio
import getpass
from collections.abc import Awaitable, Callable, Coroutine
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from studio.app import equivalence
from studio.app.clocks import clock_policy
from studio.app.task_checks import (
    RecordedCheck,
    check_task_and_record,
    record_check,
)
from studio.models.check import TaskCheck
from studio.models.evaluation import EvalResult
from studio.models.task import Task
from studio.services.authoring import review
from studio.services.authoring.check_record import load_check
from studio.services.authoring.lint import Finding, lint_task
from studio.services.checking.checker import judge
from studio.services.checking.mutant_trials import build_mutant
from studio.services.core.errors import ProjectFileError
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import TaskFolder
from studio.services.runtime.evaluator import Evaluator
from studio.views.authoring.controller import AuthoringController
from studio.views.authoring.diff_view import DiffView
from studio.views.checks.panel import ChecksPanel
from studio.views.checks.review_panel import ReviewPanel
from studio.views.widgets.settings import open_settings


def reviewer_name() -> str:
    """Who signs review events: the `user/name` setting, else the login name."""
    name = open_settings().value("user/name")
    if isinstance(name, str) and name.strip():
        return name.strip()
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


class QualityController(QObject):
    """Wires the checks and review panels to the checker, lint and review services."""

    check_finished = Signal(object)  # TaskCheck
    lint_finished = Signal(list)  # [Finding]
    message = Signal(str)
    diff_shown = Signal()

    def __init__(
        self,
        parent: QWidget,
        authoring: AuthoringController,
        checks: ChecksPanel,
        review_panel: ReviewPanel,
        diff: DiffView,
        evaluator: Callable[[], Awaitable[Evaluator]],
        spawn: Callable[[Coroutine[Any, Any, Any]], object] = asyncio.ensure_future,
    ) -> None:
        super().__init__(parent)
        self.spawn = spawn
        self.authoring = authoring
        self.current = authoring.current  # the open task (read, never written, here)
        self.checks, self.review_panel, self.diff = checks, review_panel, diff
        self._evaluator = evaluator
        self.policy = clock_policy()  # the window forces no clock and compares none
        self.options = self.policy.options()
        self.check: TaskCheck | None = None
        self.findings: list[Finding] = []
        self._running: asyncio.Task[TaskCheck | None] | None = None
        self.on_check_recorded: Callable[[TaskFolder, TaskCheck, datetime], None] | None = None
        checks.run_requested.connect(self.start_check)
        checks.cancel_requested.connect(self.cancel_check)
        checks.mutant_selected.connect(lambda m: self.spawn(self.show_mutant(m)))
        checks.load_mutant_requested.connect(lambda m: self.spawn(self.load_mutant(m)))
        checks.mark_equivalent_requested.connect(
            lambda m, r: self.spawn(self.mark_equivalent(m, r))
        )
        review_panel.submit_requested.connect(lambda: self.spawn(self.submit()))
        review_panel.approve_requested.connect(
            lambda c: self.spawn(self.transition(review.approve, c))
        )
        review_panel.reject_requested.connect(
            lambda c: self.spawn(self.transition(review.reject, c))
        )
        review_panel.reopen_requested.connect(
            lambda c: self.spawn(self.transition(review.reopen, c))
        )
        authoring.task_opened.connect(self.follow_open_task)
        authoring.task_saved.connect(self.show_task)

    # -- the open task -----------------------------------------------------------------------

    def follow_open_task(self, entry: TaskFolder) -> None:
        """Another task is open: no check or diff of the previous one stays on show."""
        if self.check is not None and Path(self.check.folder) != entry.folder:
            self.check = None
            self.checks.clear()
        self.diff.clear()  # the Diff tab computes the new task's when it comes forward
        self.show_task(entry)

    def show_task(self, entry: TaskFolder) -> None:
        """Show the task's review state and lint it."""
        self.review_panel.show_review(entry.task.review)
        self.spawn(self.lint())

    async def lint(self) -> list[Finding]:
        entry = self.current.entry
        if entry is None:
            return []
        record = await asyncio.to_thread(load_check, entry)
        self.findings = await asyncio.to_thread(lint_task, entry, record)
        self.review_panel.show_lint(self.findings)
        self.lint_finished.emit(self.findings)
        return self.findings

    # -- checks --------------------------------------------------------------------------------

    def start_check(self) -> None:
        if self._running is None or self._running.done():
            self._running = asyncio.ensure_future(self.run_check())

    def cancel_check(self) -> None:
        if self._running is not None and not self._running.done():
            self._running.cancel()

    async def run_check(self) -> TaskCheck | None:
        """Save the task, check it, record the verdict; None if there is no task or it stopped."""
        if self.current.entry is None:
            self.message.emit("Open a task to check it.")
            return None
        unsaved = self.current.has_unsaved() and not self.current.read_only
        if unsaved and await self.authoring.save() is None:
            return None
        entry = self.current.entry
        assert entry is not None
        self.checks.set_running(True)
        try:
            recorded = await check_task_and_record(
                await self._evaluator(),
                entry,
                self.options,
                self.policy,
                lambda done, total: self.checks.set_progress(
                    done, total, f"{done} of {total} evaluations"
                ),
            )
        except asyncio.CancelledError:
            self.message.emit(f"Check of {entry.task.id} stopped.")
            return None
        finally:
            self.checks.set_running(False)
        await self._show_recorded(entry, recorded)
        return recorded.check

    async def _show_recorded(self, entry: TaskFolder, recorded: RecordedCheck) -> None:
        check, when = recorded.check, recorded.when
        if self.on_check_recorded is not None:
            self.on_check_recorded(entry, check, when)
        open_now = self.current.entry
        if open_now is None or open_now.folder != entry.folder:
            self.message.emit(f"{entry.task.id}: {check.verdict.value} (recorded in the library)")
            return  # another task was opened meanwhile: its panels stay its own
        self.check = check
        self.checks.show_check(check)
        await self.lint()
        self.message.emit(f"{entry.task.id}: {check.verdict.value} in {check.seconds:.0f} s")
        self.check_finished.emit(check)

    def _mutant(self, mutant_id: str) -> bytes:
        entry = self.current.entry
        assert entry is not None
        return build_mutant(entry, self.options.mutants, self.options.seed, mutant_id)

    async def show_mutant(self, mutant_id: str) -> None:
        """Golden vs the mutant, in the diff view."""
        entry = self.current.entry
        if entry is None or entry.golden_path is None:
            return
        try:
            data = await asyncio.to_thread(self._mutant, mutant_id)
            golden = read_project_json(entry.golden_path.read_bytes(), entry.golden_path)
        except (KeyError, OSError, ValueError) as exc:
            self.diff.show_error(str(exc))
            return
        self.diff.show_diff(golden, read_project_json(data, mutant_id), "golden", mutant_id)
        self.diff_shown.emit()

    async def load_mutant(self, mutant_id: str) -> None:
        try:
            data = await asyncio.to_thread(self._mutant, mutant_id)
        except (KeyError, OSError, ValueError) as exc:
            self.message.emit(str(exc))
            return
        await self.authoring.show_foreign(data, f"{mutant_id}.sb3")

    async def mark_equivalent(self, mutant_id: str, reason: str) -> None:
        """Record the author's judgement in task.json; the shown verdict follows."""
        check = self.check
        survivor = next((s for s in check.survivors if s.id == mutant_id), None) if check else None
        if check is None or survivor is None or not reason.strip():
            return
        note = equivalence.mark(survivor, reason, reviewer_name())
        entry = await self.authoring.update_task(lambda task: equivalence.with_mark(task, note))
        if entry is None:
            return
        survivor.equivalent_reason = note.reason
        await self._show_recorded(entry, await asyncio.to_thread(record_check, entry, judge(check)))

    async def show_session_diff(self) -> None:
        """Initial vs golden as the open task holds them now (unsaved edits included)."""
        session = self.current.session
        if session is None:
            self.diff.show_error("Open a task to compare its projects.")
            return
        await self.authoring.stash_shown()
        initial, golden = (session.docs[n].content() for n in ("initial", "golden"))
        if initial is None or golden is None:
            self.diff.show_error("The task has no golden project yet.")
            return
        try:
            left = read_project_json(initial, session.docs["initial"].path)
            right = read_project_json(golden, session.docs["golden"].path)
        except ProjectFileError as exc:
            self.diff.show_error(str(exc))
            return
        self.diff.show_diff(left, right, "initial", "golden")

    def show_script_error(self, result: EvalResult) -> None:
        """Mark the script line an evaluation error points at (or clear the mark)."""
        error, entry = result.error, self.current.entry
        script = entry.script_path.name if entry else ""
        if error is not None and error.line and (not error.file or error.file.endswith(script)):
            self.authoring.mark_script_error(error.line, error.message)
        else:
            self.authoring.mark_script_error(None)

    # -- review --------------------------------------------------------------------------------

    async def submit(self) -> bool:
        """Send the task to review with its lint, which may refuse it (the message says why)."""
        findings = await self.lint()
        return await self.transition(partial(review.submit, lint=findings), "")

    async def transition(self, change: Callable[..., Task], comment: str) -> bool:
        by = reviewer_name()

        def apply(task: Task) -> Task:
            return change(task, by, comment)

        entry = await self.authoring.update_task(apply)
        if entry is None:
            return False
        self.review_panel.show_review(entry.task.review)
        state = entry.task.review.state.value.replace("_", " ")
        self.message.emit(f"{entry.task.id} is now {state}")
        return True

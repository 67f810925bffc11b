"""Propose tests for the open task from the Script tab, and merge the accepted ones.

The proposal runs in the background on the saved task (unsaved work is saved first, as for a
check) with the window's evaluator; the dialog shows its progress and then the tests. Merging
puts the checked tests into the script text as one edit of the editor's document (see
codegen.merge_section): one Ctrl+Z takes it back, and the script is saved like any edit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from studio.models.errors import StudioError
from studio.services.propose import codegen
from studio.services.propose.model import Proposal
from studio.services.propose.pipeline import ProposalReport, ProposeOptions, propose
from studio.services.runtime.evaluator import Evaluator
from studio.views.authoring.controller import AuthoringController
from studio.views.authoring.propose_dialog import ProposeDialog
from studio.views.authoring.script_editor import ScriptEditor


class ProposeController(QObject):
    """Runs `propose` for the open task and merges what the author accepts."""

    message = Signal(str)
    proposal_finished = Signal(object)  # ProposalReport | None

    def __init__(
        self,
        parent: QWidget,
        authoring: AuthoringController,
        script: ScriptEditor,
        evaluator: Callable[[], Awaitable[Evaluator]],
        spawn: Callable[[Coroutine[Any, Any, Any]], object] = asyncio.ensure_future,
    ) -> None:
        super().__init__(parent)
        self.window = parent
        self.authoring, self.script = authoring, script
        self.current = authoring.current  # the open task (read, never written, here)
        self._evaluator, self.spawn = evaluator, spawn
        self.options = ProposeOptions()
        self.dialog: ProposeDialog | None = None
        self.report: ProposalReport | None = None
        self._running: asyncio.Task[ProposalReport | None] | None = None
        script.propose_requested.connect(self.start)

    def start(self) -> None:
        if self._running is not None and not self._running.done():
            return
        if self.current.entry is None:
            self.message.emit("Open a task to propose tests for it.")
            return
        self.dialog = ProposeDialog(self.window)
        self.dialog.merge_requested.connect(self.merge)
        self.dialog.cancel_requested.connect(self.cancel)
        self.dialog.show()
        self._running = asyncio.ensure_future(self.run())

    def cancel(self) -> None:
        if self._running is not None and not self._running.done():
            self._running.cancel()

    async def run(self) -> ProposalReport | None:
        dialog = self.dialog
        assert dialog is not None
        unsaved = self.current.has_unsaved() and not self.current.read_only
        if unsaved and await self.authoring.save() is None:
            dialog.show_error("the task could not be saved")
            return None
        entry = self.current.entry
        assert entry is not None
        try:
            evaluator = await self._evaluator()
            report = await propose(evaluator, entry, self.options, dialog.set_progress)
        except asyncio.CancelledError:
            self.message.emit(f"Proposal for {entry.task.id} stopped.")
            return None
        except StudioError as exc:
            dialog.show_error(str(exc))
            self.proposal_finished.emit(None)
            return None
        self.report = report
        dialog.show_report(report)
        self.proposal_finished.emit(report)
        return report

    def merge(self, proposals: list[Proposal]) -> None:
        """Put `proposals` into the script: one undoable edit of the editor's document."""
        if self.report is None or not proposals or self.script.is_read_only():
            return
        new_text = codegen.merge_section(
            self.script.text(), self.report.section(proposals), self.report.script_for(proposals)
        )
        self.script.replace_all(new_text)
        self.message.emit(f"{len(proposals)} proposed tests merged into the script (Ctrl+Z undoes)")

"""*Forge debug tasks…* on a task or on the library: the forge in the background, reviewed.

`start(paths)` opens the dialog on the forge's options; its *Forge* (`begin`) forges from the
goldens under `paths` (the selected task's folder, or the library) through
`studio.app.forging.forge_all` with the window's evaluator and the options chosen, into a
staging folder of the library (`forging.open_staging`), so nothing enters the library before
the author says so: the dialog lists every judged candidate as the forge validates it, and
Keep moves a forged task into the library (`forging.keep`, with the edited instruction) and
reloads the library, Drop removes it. Cancel cancels the forge; closing the dialog cancels it
too, and the staging folder and whatever was neither kept nor dropped are removed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from studio.app import forging
from studio.models.errors import StudioError
from studio.models.forge import ForgeOutcome
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import TaskFolder, load_task
from studio.services.forge.pipeline import ForgeOptions, Verdict
from studio.services.runtime.evaluator import Evaluates
from studio.views.forge.dialog import DROPPED, KEPT, PENDING, ForgeDialog, Row

__all__ = ["ForgeController"]


class ForgeController(QObject):
    """Runs the forge for the window and carries out the author's Keep and Drop."""

    message = Signal(str)
    library_changed = Signal()  # a forged task entered the library

    def __init__(
        self,
        parent: QWidget,
        library_root: Callable[[], Path],
        evaluator: Callable[[], Awaitable[Evaluates]],
    ) -> None:
        super().__init__(parent)
        self.window = parent
        self.library_root, self._evaluator = library_root, evaluator
        self.options = ForgeOptions()
        self.dialog: ForgeDialog | None = None
        self.staging: Path | None = None
        self.outcomes: list[ForgeOutcome] = []
        self._goldens: dict[str, dict[str, Any]] = {}
        self._closing = False
        self._running: asyncio.Task[list[ForgeOutcome] | None] | None = None

    def clean_stale_staging(self, *_: object) -> None:
        """Remove the staging folders a killed forge left in the library (a live forge's stays);
        a slot for the window's `library_loaded`."""
        forging.clean_stale_staging(self.library_root())

    def start(self, paths: list[Path]) -> ForgeDialog | None:
        """Open the dialog and forge from the goldens under `paths` in the background."""
        if self._running is not None and not self._running.done():
            self.message.emit("A forge is already running.")
            return None
        try:
            goldens, _errors = forging.goldens_in(paths)
        except StudioError as exc:
            self.message.emit(str(exc))
            return None
        self.dialog = self.open_dialog()
        self.dialog.start_requested.connect(lambda options: self.begin(goldens, options))
        self.dialog.show()
        return self.dialog

    def begin(self, goldens: list[TaskFolder], options: ForgeOptions) -> None:
        """The author pressed Forge with `options`: forge in the background."""
        if self._running is not None and not self._running.done():
            return
        self.options = options
        if self.dialog is not None:
            self.dialog.begin()  # at once: a second click finds the forge started
        self._running = asyncio.ensure_future(self.run(goldens))

    def open_dialog(self) -> ForgeDialog:
        self._closing = False
        dialog = ForgeDialog(self.window, self.options)
        dialog.keep_requested.connect(self.keep)
        dialog.drop_requested.connect(self.drop)
        dialog.cancel_requested.connect(self.cancel)
        dialog.closed.connect(self.close)
        self.dialog = dialog
        return dialog

    def cancel(self) -> None:
        if self._running is not None and not self._running.done():
            self._running.cancel()

    async def run(self, goldens: list[TaskFolder]) -> list[ForgeOutcome] | None:
        """Forge from `goldens` into a new staging folder; the outcomes, None if stopped."""
        dialog = self.dialog
        assert dialog is not None
        dialog.begin()
        self.staging = forging.open_staging(self.library_root())
        self._goldens = {}
        for entry in goldens:
            if entry.golden_path is not None and entry.golden_path.is_file():
                data = entry.golden_path.read_bytes()
                self._goldens[entry.task.id] = read_project_json(data, entry.golden_path)
        total = len(goldens)
        dialog.set_progress(0, total, f"Forging from {total} golden(s)…")
        events = forging.ForgeEvents(
            progress=lambda i, n, g, what: dialog.set_progress(i, n, f"{g}: {what}"),
            verdict=self._on_verdict,
            finished=lambda i, n, o: dialog.set_progress(i + 1, n, _said(o)),
        )
        try:
            evaluator = await self._evaluator()
            outcomes = await forging.forge_all(
                evaluator, goldens, self.staging, self.options, events, [self.library_root()]
            )
        except asyncio.CancelledError:
            dialog.finish("Stopped. The forged tasks listed can still be kept.")
            if self._closing:
                self._clean()
            return None
        except StudioError as exc:
            dialog.finish(f"The forge failed: {exc}")
            return None
        self.outcomes = outcomes
        forged = sum(o.kept for o in outcomes)
        before = sum(o.kept_before for o in outcomes)
        errors = [f"{o.golden}: {o.error}" for o in outcomes if o.error]
        dialog.finish(
            f"Done: {forged} debug task(s) forged from {total} golden(s); keep or drop each."
            + (f" ({before} already in the library, not forged again)" if before else "")
            + ("\n" + "\n".join(errors) if errors else "")
        )
        return outcomes

    def _on_verdict(self, v: Verdict) -> None:
        if self.dialog is None:
            return
        bugged = read_project_json(v.sb3, f"{v.task_id}.sb3")
        instruction = ""
        if v.kept and self.staging is not None:
            instruction = load_task(self.staging / v.task_id).task.instruction
        state = PENDING if v.kept else f"rejected: {v.reason}"
        self.dialog.add_candidate(
            Row(v, self._goldens.get(v.golden, {}), bugged, instruction, state)
        )

    def keep(self, task_id: str, instruction: str) -> None:
        if self.staging is None or self.dialog is None:
            return
        try:
            folder = forging.keep(self.staging / task_id, self.library_root(), instruction)
        except (StudioError, OSError) as exc:
            self.message.emit(f"{task_id} was not kept: {exc}")
            return
        self.dialog.mark(task_id, KEPT)
        self.message.emit(f"{task_id} is in the library ({folder}), review state draft")
        self.library_changed.emit()

    def drop(self, task_id: str) -> None:
        if self.staging is None or self.dialog is None:
            return
        forging.drop(self.staging / task_id)
        self.dialog.mark(task_id, DROPPED)

    def close(self) -> None:
        """The dialog closed: stop the forge and remove what was not kept (once it stopped)."""
        self._closing = True
        if self._running is not None and not self._running.done():
            self._running.cancel()  # run() cleans up when it stops
        else:
            self._clean()

    def _clean(self) -> None:
        if self.staging is not None:
            forging.close_staging(self.staging)
            self.staging = None


def _said(outcome: ForgeOutcome) -> str:
    if outcome.error:
        return f"{outcome.golden}: {outcome.error}"
    return f"{outcome.golden}: kept {outcome.kept} of {outcome.tried} candidates tried"

"""The studio window: composes the panes and wires their signals to the core services."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QTabWidget,
)

from studio.app.clocks import clock_policy
from studio.app.task_checks import library_verdicts
from studio.models.check import TaskCheck
from studio.models.evaluation import EvalResult
from studio.services.core.errors import TaskFileError
from studio.services.core.store import LibraryScan, TaskFolder, scan_library
from studio.services.episodes.live.window_pages import WindowPageSource
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.server import EditorServer
from studio.views.authoring import recovery_work, task_memory
from studio.views.authoring.controller import AuthoringController
from studio.views.authoring.diff_tab import DiffTab
from studio.views.authoring.diff_view import DiffView
from studio.views.authoring.document_bar import DocumentBar
from studio.views.authoring.propose_controller import ProposeController
from studio.views.authoring.script_editor import ScriptEditor
from studio.views.authoring.task_form import TaskForm
from studio.views.authoring.text_pane import TextPane
from studio.views.checks.panel import ChecksPanel
from studio.views.checks.quality_controller import QualityController
from studio.views.checks.review_panel import ReviewPanel
from studio.views.editor.page import EditorError
from studio.views.editor.view import EditorView
from studio.views.library.controller import LibraryController
from studio.views.library.panel import LibraryPanel
from studio.views.library.task_details import TaskDetails
from studio.views.live.page import window_lender
from studio.views.sessions import study_board
from studio.views.shell import layout as window_layout
from studio.views.shell.actions import StudioActions
from studio.views.shell.results_panel import ResultsPanel
from studio.views.shell.studio_shell import LibraryLookup, StudioShell
from studio.views.viewer.run_panel import RunPanel
from studio.views.widgets.background import BackgroundTasks
from studio.views.widgets.dialogs import ask_buttons
from studio.views.window import forge_menu, text_tab
from studio.views.window.edition import EditionFollower, EvaluationBrowser
from studio.views.window.library_commands import LibraryWiring
from studio.views.window.run_menu import RunWiring
from studio.views.window.shortcuts_dialog import ShortcutsDialog

if TYPE_CHECKING:
    from studio.views.diagnostics.window import LabelingWindow


class MainWindow(QMainWindow):
    """Library and task details on the left; the Scratch editor with the results below it."""

    closed = Signal()
    library_loaded = Signal(int, int)  # tasks, errors
    evaluation_finished = Signal(object)  # EvalResult

    def __init__(
        self, server: EditorServer, pool: BrowserPool, library: Path, prewarm: bool = True
    ) -> None:
        """`prewarm` starts the evaluation browser as soon as the editor is ready."""
        super().__init__()
        self._prewarm = prewarm
        self.setWindowTitle("Scratch Bench Studio")
        self.library_root = Path(library)
        self.server = server
        self.browser = EvaluationBrowser(server, pool)  # on the library's editor edition
        self.browser.on_failed = lambda exc: self.statusBar().showMessage(
            f"Evaluation unavailable: {exc}"
        )
        self._entry: TaskFolder | None = None
        self._busy = 0
        self._evaluating = False
        self._library_task: asyncio.Task[LibraryScan | None] | None = None
        self.background = BackgroundTasks(self._on_background_error)
        self.commands = StudioActions(self)
        self.toolbar = self.commands.install(self)
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.library = LibraryPanel(self)
        self.details = TaskDetails(self)
        self.editor = EditorView(server, self)
        self.bar = DocumentBar(self)
        self.results = ResultsPanel(self)
        self.form = TaskForm(self)
        self.script = ScriptEditor(self)
        self.diff = DiffView(self)
        self.checks = ChecksPanel(self)
        self.review = ReviewPanel(self)
        self.run_panel = RunPanel(self)
        self.text_pane = TextPane(self)
        self.tabs = QTabWidget(self)
        self.authoring = AuthoringController(self, self.editor, self.bar, self.form, self.script)
        self.authoring.spawn = self.background.spawn
        self.current = self.authoring.current  # the open task, as the panels read it
        self.library_ops = LibraryController(self, lambda: self.library_root)
        evaluator, spawn = self.browser.ready_evaluator, self.background.spawn
        self.quality = QualityController(
            self, self.authoring, self.checks, self.review, self.diff, evaluator, spawn
        )
        self.quality.on_check_recorded = self._on_check_recorded
        self.proposing = ProposeController(self, self.authoring, self.script, evaluator, spawn)
        self._close_confirmed = False
        self._splitters = window_layout.build(
            self,
            [self.library, self.details],
            self.bar,
            self.editor,
            self.tabs,
            [
                (self.form, "Task"),
                (self.script, "Script"),
                (self.results, "Results"),
                (self.checks, "Checks"),
                (self.diff, "Diff"),
                (self.text_pane, "Text"),
                (self.review, "Review"),
                (self.run_panel, "Run"),
            ],
        )
        self._build_status_bar()
        self.shell = self._build_shell()
        self.edition = EditionFollower(self.editor, self.browser, self._editor_busy, self._make_way)
        self.edition.begin(self.library_root)
        self._connect()
        window_layout.restore(self, self._splitters)
        self._update_actions()

    def start(self) -> None:
        """Load the editor page and read the task library (both in the background)."""
        self.editor.start()
        self.reload_library(self.library_root)
        self.background.spawn(self.offer_recovery())

    async def offer_recovery(self) -> int:
        """After a session that ended without closing, offer back its unsaved work."""
        return await recovery_work.offer_recovery(self.shell, self.authoring, self.ask_restore)

    async def ask_restore(self, text: str) -> bool:
        b = QMessageBox.StandardButton
        choice = await ask_buttons(self, "Restore unsaved work", text, [b.Yes, b.Discard], b.Yes)
        return choice is b.Yes

    def reload_library(self, root: Path) -> None:
        self._library_task = self.background.spawn(self.load_library(root))

    async def wait_library(self) -> LibraryScan | None:
        """The scan of the library being (or last) read; None if it could not be read."""
        if self._library_task is None:
            return None
        return await asyncio.shield(self._library_task)

    # -- building -----------------------------------------------------------------------------

    def _build_shell(self) -> StudioShell:
        """What the helpers below may use of this window (studio.views.shell.studio_shell)."""
        library = LibraryLookup(
            root=lambda: self.library_root,
            scan=self.wait_library,
            selected=self.library.current_entry,
            find=lambda task_id: self.library.entries.get(task_id),
        )
        return StudioShell(
            parent=self,
            commands=self.commands,
            server=self.server,
            editor=self.editor,
            pages=WindowPageSource(window_lender(self.editor)),
            pool=self.browser.ready_pool,
            evaluator=self.browser.ready_evaluator,
            spawn=self.background.spawn,
            status_bar=self.statusBar(),
            results=self.results,
            library=library,
        )

    def _build_status_bar(self) -> None:
        self.busy_bar = QProgressBar(self)
        self.busy_bar.setRange(0, 0)
        self.busy_bar.setMaximumWidth(140)
        self.busy_bar.setMaximumHeight(14)
        self.busy_bar.hide()
        self.editor_state = QLabel("Editor: starting", self)
        self.statusBar().addPermanentWidget(self.busy_bar)
        self.statusBar().addPermanentWidget(self.editor_state)

    def _connect(self) -> None:
        c = self.commands
        c.open_initial.triggered.connect(lambda: self._spawn_open("initial"))
        c.open_golden.triggered.connect(lambda: self._spawn_open("golden"))
        c.evaluate.triggered.connect(lambda: self.background.spawn(self.evaluate_editor_project()))
        c.open_library.triggered.connect(self._on_open_library_requested)
        c.open_project_file.triggered.connect(self._on_open_project_file_requested)
        c.reload_library.triggered.connect(lambda: self.reload_library(self.library_root))
        c.reload_editor.triggered.connect(self.editor.start)
        c.quit.triggered.connect(self.close)
        c.save.triggered.connect(lambda: self.background.spawn(self.authoring.save()))
        c.revert.triggered.connect(lambda: self.background.spawn(self.authoring.revert()))
        c.show_diff.triggered.connect(lambda: self.background.spawn(self.show_diff()))
        c.shortcuts.triggered.connect(self._on_shortcuts_requested)
        task_memory.follow(c, self.authoring, lambda: self.library_root)
        shell, library, authoring = self.shell, self.library, self.authoring
        self.library_wiring = LibraryWiring(
            shell, library, self.library_ops, authoring, self.details, self.load_library
        )
        right = self._splitters["right"]
        hides = [self.toolbar, self.menuBar(), self.bar, self._splitters["left"]]
        collapse = [self.toolbar, self.bar, self.statusBar()]  # room for a live episode's screen
        self.runs = RunWiring(
            shell, self.run_panel, self.tabs, right, authoring.lend_editor, hides, collapse
        )
        self.labeling: LabelingWindow | None = None
        self.commands.labeling.triggered.connect(lambda: self.open_labeling())
        self.commands.study_board.triggered.connect(lambda: study_board.dock_board(self))
        self.library_ops.message.connect(lambda m: self.statusBar().showMessage(m, 10000))
        self.authoring.message.connect(lambda m: self.statusBar().showMessage(m, 10000))
        self.authoring.task_saved.connect(self._on_task_saved)
        self.script.run_requested.connect(c.evaluate.trigger)
        c.check.triggered.connect(self._on_check_requested)
        c.submit.triggered.connect(lambda: self.background.spawn(self.quality.submit()))
        self.quality.message.connect(lambda m: self.statusBar().showMessage(m, 10000))
        self.proposing.message.connect(lambda m: self.statusBar().showMessage(m, 10000))
        self.forging = forge_menu.install(self, library, self.browser.ready_evaluator)
        self.text = text_tab.install(shell, self.current, self.text_pane, self.tabs)
        self.diff_tab = DiffTab(self.tabs, self.diff, self.quality.show_session_diff, shell.spawn)
        self.quality.diff_shown.connect(self.diff_tab.show_asked)
        self.library.task_selected.connect(self._on_task_selected)
        self.library.task_activated.connect(self._on_task_activated)
        self.library.load_error_selected.connect(self._on_load_error_selected)
        self.editor.editor_started.connect(self._on_editor_started)
        self.editor.editor_failed.connect(self._on_editor_failed)
        self.editor.project_loaded.connect(self._on_project_loaded)
        self.editor.project_load_failed.connect(self._on_project_load_failed)

    # -- operations (async; each also reachable from an action) ------------------------------

    async def load_library(self, root: Path) -> LibraryScan | None:
        root = Path(root)
        self.statusBar().showMessage(f"Reading the task library {root}…")
        try:
            scan = await asyncio.to_thread(scan_library, root)
        except TaskFileError as exc:
            self.library.show_error(root, exc.problem)
            self.statusBar().showMessage(str(exc))
            return None
        refused = await self.edition.follow(root)
        if refused:  # the other library needs another editor edition and cannot have it now
            self.statusBar().showMessage(refused)
            if root != self.library_root:
                return None
            self.library.show_error(root, refused)
            return None
        self.library_root = root
        self.library.set_library(root, scan)
        self.library.set_checks(await asyncio.to_thread(library_verdicts, scan.tasks))
        self.statusBar().showMessage(
            f"{len(scan.tasks)} tasks in {root}"
            + (f"; {len(scan.errors)} failed to load" if scan.errors else ""),
            8000,
        )
        self.library_loaded.emit(len(scan.tasks), len(scan.errors))
        return scan

    async def open_task_project(self, which: str) -> bool:
        """Open the selected task's "initial" or "golden" project in the editor."""
        entry = self._entry
        if entry is None:
            self.statusBar().showMessage("Select a task first.", 5000)
            return False
        return await self.authoring.open_task(entry, which)

    async def open_project_file(self, path: Path, title: str = "") -> bool:
        with self._busy_state(f"Opening {path.name}…"):
            try:
                data = await asyncio.to_thread(path.read_bytes)
                await self.editor.load_project(data, str(path), title)
            except OSError as exc:
                message = f"{path}: cannot be read ({exc.strerror or exc})"
                self.editor.banner.show_error(f"Could not open the project. {message}")
                self.statusBar().showMessage(message, 10000)
                return False
            except EditorError:
                return False  # the editor shows the error and keeps its project
        return True

    async def evaluate_editor_project(self) -> EvalResult | None:
        """Run the open task's script as the script editor holds it on the editor's project."""
        entry = self.current.entry or self._entry
        if entry is None:
            self.results.show_error("Select a task in the library to evaluate against.")
            return None
        if self._evaluating:  # the script runs as the editor holds it, unsaved (nothing written)
            return None
        self._evaluating = True
        self._update_actions()
        name = Path(self.editor.project_name).name or "default project"
        self.results.show_running(f"{entry.task.id} on the editor's project ({name})")
        try:
            with self._busy_state(f"Evaluating {entry.task.id}…"):
                result = await self._evaluate(entry, f"editor: {name}")
        finally:
            self._evaluating = False
            self._update_actions()
        if result is not None:
            self.quality.show_script_error(result)
            self.tabs.setCurrentWidget(self.results)
            self.results.show_result(result)
            self.statusBar().showMessage(result.summary_line(), 15000)
            self.evaluation_finished.emit(result)
        return result

    async def _evaluate(self, entry: TaskFolder, project_name: str) -> EvalResult | None:
        try:
            data = await self.editor.export_project()
        except EditorError as exc:
            self.results.show_error(f"Could not read the editor's project: {exc}")
            return None
        try:
            evaluator = await self.browser.ready_evaluator()
            # Accelerated unless the task asks for real time or was seen to disagree with it.
            script = self.current.script_for(entry)
            return await clock_policy().evaluate(
                evaluator, entry, data, project_name=project_name, script=script
            )
        except Exception as exc:  # the browser is missing or died: say so, keep the window
            self.results.show_error(f"The evaluation could not run: {exc}")
            return None

    async def shutdown(self) -> None:
        """Stop background work and the headless browser (after the window has closed)."""
        await self.background.cancel_all()
        await self.runs.close()
        await self.browser.close()

    def _editor_busy(self) -> str | None:
        if self.shell.pages.busy:
            return "the editor is busy with a live run or a session: stop it first"
        return None

    async def _make_way(self, what: str) -> bool:
        if not await self.authoring.confirm_discard(what):
            return False
        if self.current.entry is not None:
            self.authoring.close_task()
        await self.runs.live.forget_browser()
        return True

    # -- handlers ----------------------------------------------------------------------------

    async def show_diff(self) -> None:
        await self.diff_tab.show_session_diff()

    def _on_check_requested(self) -> None:
        self.tabs.setCurrentWidget(self.checks)
        self.quality.start_check()

    def _on_check_recorded(self, entry: TaskFolder, check: TaskCheck, when: datetime) -> None:
        self.library.set_check(entry.task.id, check.verdict.value, when)

    def _on_task_saved(self, entry: TaskFolder) -> None:
        self._entry = entry
        self.details.show_task(entry)
        self.library.entries[entry.task.id] = entry

    def _on_shortcuts_requested(self) -> None:
        dialog = ShortcutsDialog(self.commands.all(), self)
        dialog.open()

    def _spawn_open(self, which: str) -> None:
        self.background.spawn(self.open_task_project(which))

    def _on_task_selected(self, entry: TaskFolder) -> None:
        self._entry = entry
        self.details.show_task(entry)
        self._update_actions()
        self.statusBar().showMessage(
            f"{entry.task.id}: Ctrl+1 opens the initial project, Ctrl+2 the golden one.", 5000
        )

    def _on_task_activated(self, entry: TaskFolder) -> None:
        self._on_task_selected(entry)
        self._spawn_open("initial")

    def _on_load_error_selected(self, message: str) -> None:
        self._entry = None
        self.details.show_load_error(message)
        self._update_actions()

    def _on_editor_started(self, seconds: float) -> None:
        self.editor_state.setText("Editor: ready")
        self.statusBar().showMessage(f"Scratch editor ready in {seconds:.1f} s", 5000)
        self._update_actions()
        if self._prewarm:  # warm it up while the user reads
            self.browser.warm_up()

    def _on_editor_failed(self, message: str) -> None:
        self.editor_state.setText("Editor: failed")
        self.statusBar().showMessage(message)
        self._update_actions()

    def _on_project_loaded(self, name: str) -> None:
        self.statusBar().showMessage(f"Opened {name}", 8000)

    def _on_project_load_failed(self, message: str) -> None:
        self.statusBar().showMessage(f"Could not open the project: {message}", 15000)

    def _on_open_library_requested(self) -> None:
        dialog = QFileDialog(self, "Open a task library folder", str(self.library_root))
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dialog.fileSelected.connect(lambda path: self.reload_library(Path(path)))
        dialog.open()  # not exec(): a nested event loop would stall the asyncio tasks

    def _on_open_project_file_requested(self) -> None:
        start = str(self._entry.folder if self._entry else self.library_root)
        dialog = QFileDialog(self, "Open a Scratch project", start, "Scratch 3 projects (*.sb3)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(
            lambda path: self.background.spawn(self.open_project_file(Path(path)))
        )
        dialog.open()

    def _on_background_error(self, message: str) -> None:
        self.results.show_error(message)
        self.statusBar().showMessage(message)

    # -- state ---------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _busy_state(self, message: str) -> Iterator[None]:
        self._busy += 1
        self.busy_bar.show()
        self.statusBar().showMessage(message)
        try:
            yield
        finally:
            self._busy -= 1
            self.busy_bar.setVisible(self._busy > 0)

    def _update_actions(self) -> None:
        usable = self._entry is not None and self.editor.is_ready
        self.commands.open_initial.setEnabled(usable)
        self.commands.open_golden.setEnabled(
            usable and self._entry is not None and self._entry.golden_path is not None
        )
        self.commands.evaluate.setEnabled(usable and not self._evaluating)

    def open_labeling(
        self, drag_root: Path | None = None, qa_root: Path | None = None
    ) -> LabelingWindow:
        """The labeling window of the diagnostic benchmarks (one per studio window), on the
        open library's diagnostics/ folders unless others are given."""
        from studio.views.diagnostics.window import labeling_window

        self.labeling = labeling_window(
            self.labeling, self.shell, self.library_root, drag_root, qa_root
        )
        self.labeling.show()
        self.labeling.raise_()
        self.labeling.activateWindow()
        return self.labeling

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._close_confirmed and self.current.has_unsaved():
            event.ignore()  # ask first (without a nested event loop), then close again
            self.background.spawn(self._confirm_close())
            return
        self.authoring.stop()
        if self.labeling is not None:
            self.labeling.close()
        window_layout.save(self, self._splitters)
        event.accept()
        self.closed.emit()

    async def _confirm_close(self) -> None:
        if await self.authoring.confirm_discard("quit"):
            self._close_confirmed = True
            self.close()

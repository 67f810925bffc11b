"""Start the studio window: Qt application, qasync loop, editor server, evaluation browser.

`run_gui(options)` shows the window until it is closed and returns the exit code. `GuiOptions`
say what it shows first: the task library, a task and its project, a bottom tab, a recorded run
and its step, the labeling window (`studio gui`, `studio view` and `studio label` fill them in,
see studio.cli.window). A window may also be driven by a script, `run_gui(options, script)`: a
coroutine given the window once it has started, after whose end the window closes, the script's
return value being the exit code (tests/helpers/window_harness.py takes screenshots that way).

The steps a first view is made of (`open_task`, `show_trajectory`, `show_tab`, `open_labeling`)
are public so that a script composes them in the order it needs. Each names what it could not
show on stderr ("error: ...") and, where it matters, returns an exit code.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.services.core import paths

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication, QWidget

    from studio.services.runtime.server import EditorServer
    from studio.views.window.main_window import MainWindow

DEFAULT_CHROMIUM_FLAGS = (
    "--no-sandbox --ignore-gpu-blocklist --disable-gpu-compositing "
    "--disable-background-networking --disable-component-update --disable-sync "
    "--autoplay-policy=no-user-gesture-required "
    "--disable-features=OverscrollHistoryNavigation"  # a sideways wheel never goes "back"
)
# The editor logs Blockly deprecation warnings by the hundred; keep only its errors on stderr
# (STUDIO_JS_LOG=1 shows everything).
JS_LOG_RULES = "js.debug=false\njs.info=false\njs.warning=false"
REMOTE_DEBUGGING_ENV = "QTWEBENGINE_REMOTE_DEBUGGING"
REMOTE_DEBUGGING_FLAG = "--remote-debugging"  # -port, -pipe, -address
PROJECTS = ("initial", "golden")
LABELING_TABS = ("drag", "qa")
log = logging.getLogger(__name__)

WindowScript = Callable[["MainWindow"], Awaitable[int]]


@dataclass(frozen=True)
class GuiOptions:
    """What the window shows when it opens; the defaults show the bundled library alone."""

    library: Path = paths.BUNDLED_TASKS
    size: tuple[int, int] | None = None  # width, height (default: remembered, else 1500x940)
    open_task: str | None = None  # task id to select once the library is read
    project: str = "golden"  # which project of that task the editor opens (PROJECTS)
    tab: str | None = None  # bottom tab to show (Task, Script, Results, Checks, Diff, Review...)
    trajectory: Path | None = None  # recorded run (folder or .zip) to open in the Run tab
    step: int = 1  # step of that run to select
    labeling: str | None = None  # open the labeling window on this tab (LABELING_TABS)
    drag_root: Path | None = None  # drag items folder of the labeling window
    qa_root: Path | None = None  # QA set folder of the labeling window
    item: str | None = None  # item to select in the labeling window's tab

    def shows_more_than_the_library(self) -> bool:
        return any((self.open_task, self.tab, self.trajectory, self.labeling))


def parse_size(text: str) -> tuple[int, int]:
    """'WIDTHxHEIGHT' as two positive integers; ValueError naming the text otherwise."""
    try:
        width, height = (int(v) for v in text.lower().split("x", 1))
    except ValueError:
        raise ValueError(f"a window size is WIDTHxHEIGHT (like 1280x800), not {text!r}") from None
    if width < 1 or height < 1:
        raise ValueError(f"a window size is two positive numbers, not {text!r}")
    return width, height


def run_gui(options: GuiOptions, script: WindowScript | None = None) -> int:
    """Show the studio window as `options` say until it is closed; return the exit code.

    With a `script`, the window closes when the script ends, and its value is the exit code."""
    os.environ.setdefault("QTWEBENGINE_CHROMIUM_FLAGS", DEFAULT_CHROMIUM_FLAGS)
    from studio.services.core.paths import SetupError
    from studio.services.runtime.server import EditorServer

    try:
        server = EditorServer().start()
    except SetupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        return _run(server, options, script)
    finally:
        server.stop()


def _run(server: EditorServer, options: GuiOptions, script: WindowScript | None) -> int:
    import qasync
    from PySide6.QtCore import QTimer

    from studio.services.runtime.browser import BrowserPool
    from studio.views.window.main_window import MainWindow

    app = make_application()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    window = MainWindow(server, BrowserPool(server, spares=1), Path(options.library))
    if options.size:
        window.resize(*options.size)
    signal.signal(signal.SIGINT, lambda *_: window.close())
    ticker = QTimer(window)  # lets Python see Ctrl+C while Qt's loop runs
    ticker.timeout.connect(lambda: None)
    ticker.start(300)
    window.show()
    try:
        return loop.run_until_complete(_main(window, options, script))
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        loop.close()
        asyncio.set_event_loop(None)


async def _main(window: MainWindow, options: GuiOptions, script: WindowScript | None) -> int:
    """Start the window's work, wait until it is closed, then stop the background work."""
    closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    window.closed.connect(lambda: _resolve(closed))
    window.start()
    outcome = {"code": 0}
    if options.shows_more_than_the_library() or script is not None:
        window.background.spawn(_show_first(window, options, script, outcome))
    else:  # the task opened last in this library, as it was left
        from studio.views.authoring.task_memory import reopen_last

        window.background.spawn(reopen_last(window))
    await closed
    # Ctrl+C in a terminal also kills the Playwright driver; its half-finished futures are
    # expected now and not worth a screenful of asyncio complaints.
    asyncio.get_running_loop().set_exception_handler(_log_quietly)
    await window.shutdown()
    return outcome["code"]


async def _show_first(
    window: MainWindow, options: GuiOptions, script: WindowScript | None, outcome: dict[str, int]
) -> None:
    """What the options ask to see, in that order: task, run, tab, labeling window; then the
    script, if any, after which the window closes. The first failure's code is kept."""

    def keep(code: int) -> None:
        outcome["code"] = outcome["code"] or code

    try:
        if options.open_task:
            await window.editor.wait_ready()
            keep(await open_task(window, options.open_task, options.project))
        if options.trajectory:
            keep(await show_trajectory(window, options.trajectory, options.step))
        if options.tab:
            await show_tab(window, options.tab)
        if options.labeling:
            open_labeling(window, options)
        if script is not None:
            keep(await script(window))
    except Exception as exc:
        if script is None:
            raise  # the window stays open; the background shows the error
        print(f"error: {exc}", file=sys.stderr)
        keep(1)
    finally:
        if script is not None:
            window.close()


def _log_quietly(_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    log.debug("after close: %s", context.get("message"), exc_info=context.get("exception"))


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def close_remote_debugging() -> None:
    """Keep QtWebEngine's remote debugging off, even when the environment asks for it: its
    endpoint lets any local process run scripts in the editor and read local files. Live runs
    drive the editor through Qt (studio.views.live.page) and need no endpoint."""
    if os.environ.pop(REMOTE_DEBUGGING_ENV, None) is not None:
        log.warning("%s is ignored: the studio opens no debugging endpoint", REMOTE_DEBUGGING_ENV)
    flags = os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS")
    if flags:
        kept = [f for f in flags.split() if not f.startswith(REMOTE_DEBUGGING_FLAG)]
        if len(kept) != len(flags.split()):
            log.warning("remote debugging flags in QTWEBENGINE_CHROMIUM_FLAGS are ignored")
            os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = " ".join(kept)


def make_application() -> QApplication:
    """The QApplication, created with what QtWebEngine needs (call before any widget)."""
    from PySide6.QtCore import QCoreApplication, QLoggingCategory, Qt
    from PySide6.QtWebEngineWidgets import QWebEngineView  # noqa: F401  (must precede the app)
    from PySide6.QtWidgets import QApplication

    close_remote_debugging()
    if not os.environ.get("STUDIO_JS_LOG"):
        QLoggingCategory.setFilterRules(JS_LOG_RULES)
    app = QApplication.instance()
    if app is None:
        QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
        app = QApplication([sys.argv[0] if sys.argv else "studio"])
    assert isinstance(app, QApplication)
    app.setApplicationName("Scratch Bench Studio")
    app.setOrganizationName("scratch-bench-studio")
    app.setQuitOnLastWindowClosed(False)
    return app


async def open_task(window: MainWindow, task_id: str, project: str = "golden") -> int:
    """Select `task_id` once the library is read and open its `project` in the editor."""
    scan = await window.wait_library()
    if scan is None or not window.library.select_task(task_id):
        print(f"error: no task {task_id} in {window.library_root}", file=sys.stderr)
        return 2
    if not await window.open_task_project(project):
        print(f"error: {window.editor.banner.text()}", file=sys.stderr)
        return 2
    return 0


async def show_trajectory(window: MainWindow, path: Path, step: int = 1) -> int:
    """Open a recorded run (folder or .zip) in the Run tab and select its `step`."""
    opened = await window.runs.open(path)
    if opened is None:
        print(f"error: {window.results.summary_text()}", file=sys.stderr)
        return 2
    window.run_panel.select_row(max(0, step - 1))
    return 0


async def show_tab(window: MainWindow, name: str) -> None:
    """Show the bottom tab called `name` (any case); the Diff tab computes its diff."""
    tabs = window.tabs
    for i in range(tabs.count()):
        if tabs.tabText(i).lower() == name.lower():
            tabs.setCurrentIndex(i)
            if tabs.widget(i) is window.diff:
                await window.show_diff()
            return
    print(f"error: no tab {name}", file=sys.stderr)


def open_labeling(window: MainWindow, options: GuiOptions) -> QWidget:
    """The labeling window on the options' tab, roots and item; returned to be grabbed."""
    labeling = window.open_labeling(options.drag_root, options.qa_root)
    panel = labeling.qa if options.labeling == "qa" else labeling.drag
    labeling.tabs.setCurrentWidget(panel)
    if options.item and not panel.select(options.item):
        print(f"error: no {options.labeling} item {options.item} in {panel.root}", file=sys.stderr)
    return labeling

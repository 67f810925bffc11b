"""Start the studio window: Qt application, qasync loop, editor server, evaluation browser.

`studio` (studio.cli) calls `run_gui(library, argv)`. Run as `python -m studio.views.app`
the module also takes options meant for scripts rather than people:

  --library DIR              task library to show (default: the bundled tasks)
  --open TASK_ID             select that task once the library is read
  --project initial|golden   open that project of the task in the editor (default: golden)
  --evaluate                 evaluate the editor's project after opening it
  --screenshot PATH          grab the window to PATH (PNG) when done, then quit
  --check                    run the task's adversarial check (after opening it)
  --tab NAME                 show that bottom tab first (Task, Script, Checks, Diff, Review...)
  --size WxH                 window size (default: remembered, else 1500x940)
  --trajectory PATH          open a recorded run (folder or .zip) in the Run tab
  --step N                   select step N of that run
  --live-agent NAME          after --open: run that built-in agent live, paused, let N
                             actions through (--step), then take the --screenshot
  --exit-when-ready          print "editor-ready <seconds since process start>" and quit

Example (the README screenshot, under Xvfb):
  python -m studio.views.app --library tasks --open TASK_ID --evaluate --screenshot shot.png
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.services import paths

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication, QWidget

    from studio.services.server import EditorServer
    from studio.views.main_window import MainWindow

DEFAULT_CHROMIUM_FLAGS = (
    "--no-sandbox --ignore-gpu-blocklist --disable-gpu-compositing "
    "--disable-background-networking --disable-component-update --disable-sync "
    "--autoplay-policy=no-user-gesture-required"
)
# The editor logs Blockly deprecation warnings by the hundred; keep only its errors on stderr
# (STUDIO_JS_LOG=1 shows everything).
JS_LOG_RULES = "js.debug=false\njs.info=false\njs.warning=false"
SETTLE_BEFORE_GRAB_S = 1.0
REMOTE_DEBUGGING_ENV = "QTWEBENGINE_REMOTE_DEBUGGING"
REMOTE_DEBUGGING_FLAG = "--remote-debugging"  # -port, -pipe, -address
log = logging.getLogger(__name__)
_T0 = time.perf_counter()


def process_age_s() -> float:
    """Seconds since this process started (from /proc; since import of this module elsewhere)."""
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")
        return float(Path("/proc/uptime").read_text().split()[0]) - started
    except (OSError, ValueError, IndexError):
        return time.perf_counter() - _T0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m studio.views.app", add_help=True)
    parser.add_argument("--library", type=Path, default=paths.BUNDLED_TASKS)
    parser.add_argument("--open", dest="open_task", metavar="TASK_ID")
    parser.add_argument("--project", choices=("initial", "golden"), default="golden")
    parser.add_argument("--evaluate", action="store_true")
    parser.add_argument("--screenshot", type=Path)
    parser.add_argument("--check", action="store_true", help="run the task's check first")
    parser.add_argument(
        "--tab", help="bottom tab to show (Task, Script, Results, Checks, Diff, Review)"
    )
    parser.add_argument("--size", metavar="WxH")
    parser.add_argument("--trajectory", type=Path, help="recorded run to open in the Run tab")
    parser.add_argument("--step", type=int, default=1, help="step of that run to show")
    parser.add_argument("--live-agent", choices=("oracle", "random", "idle"))
    parser.add_argument("--mode", choices=("composite", "primitive"), default="primitive")
    parser.add_argument("--labeling", choices=("drag", "qa"), help="open the labeling window")
    parser.add_argument("--drag-root", type=Path, help="drag items folder of the labeling window")
    parser.add_argument("--qa-root", type=Path, help="QA set folder of the labeling window")
    parser.add_argument("--item", help="item to select in the labeling window's tab")
    parser.add_argument("--exit-when-ready", action="store_true")
    return parser


def run_gui(library: Path, argv: list[str]) -> int:
    """Show the studio window on `library` until it is closed; return the exit code.

    `argv` are the command line arguments (without the program name); options this module
    does not know are ignored, so the CLI can pass its own.
    """
    opts, _unknown = build_parser().parse_known_args(argv)
    os.environ.setdefault("QTWEBENGINE_CHROMIUM_FLAGS", DEFAULT_CHROMIUM_FLAGS)
    from studio.services.paths import SetupError
    from studio.services.server import EditorServer

    try:
        server = EditorServer().start()
    except SetupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        return _run(server, Path(library), opts)
    finally:
        server.stop()


def _run(server: EditorServer, library: Path, opts: argparse.Namespace) -> int:
    import qasync
    from PySide6.QtCore import QTimer

    from studio.services.browser import BrowserPool
    from studio.views.main_window import MainWindow

    app = make_application()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    window = MainWindow(server, BrowserPool(server, spares=1), library)
    if opts.size:
        width, height = (int(v) for v in opts.size.lower().split("x", 1))
        window.resize(width, height)
    signal.signal(signal.SIGINT, lambda *_: window.close())
    ticker = QTimer(window)  # lets Python see Ctrl+C while Qt's loop runs
    ticker.timeout.connect(lambda: None)
    ticker.start(300)
    window.show()
    try:
        return loop.run_until_complete(_main(window, opts))
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        loop.close()
        asyncio.set_event_loop(None)


async def _main(window: MainWindow, opts: argparse.Namespace) -> int:
    """Start the window's work, wait until it is closed, then stop the background work."""
    closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    window.closed.connect(lambda: _resolve(closed))
    window.start()
    outcome = {"code": 0}
    if opts.exit_when_ready or opts.open_task or opts.screenshot:
        window.background.spawn(_scripted(window, opts, outcome))
    elif opts.trajectory:
        window.background.spawn(_show_trajectory(window, opts, outcome))
    elif opts.labeling:
        _open_labeling(window, opts)
    await closed
    # Ctrl+C in a terminal also kills the Playwright driver; its half-finished futures are
    # expected now and not worth a screenful of asyncio complaints.
    asyncio.get_running_loop().set_exception_handler(_log_quietly)
    await window.shutdown()
    return outcome["code"]


def _log_quietly(_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    log.debug("after close: %s", context.get("message"), exc_info=context.get("exception"))


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def close_remote_debugging() -> None:
    """Keep QtWebEngine's remote debugging off, even when the environment asks for it: its
    endpoint lets any local process run scripts in the editor and read local files. Live runs
    drive the editor through Qt (studio.views.live_page) and need no endpoint."""
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


async def _scripted(window: MainWindow, opts: argparse.Namespace, outcome: dict[str, int]) -> None:
    """Drive the window from the hidden options (bench, screenshot); then close it."""
    try:
        await window.editor.wait_ready()
        if opts.exit_when_ready:
            print(f"editor-ready {process_age_s():.2f}", flush=True)
            return
        if opts.open_task:
            outcome["code"] = await _open_and_evaluate(window, opts)
        if opts.trajectory:
            await _show_trajectory(window, opts, outcome)
        if opts.live_agent and opts.open_task:
            await _live_steps(window, opts)
        if opts.check:
            await window.quality.run_check()
        if opts.tab:
            await _show_tab(window, opts.tab)
        shown: QWidget = window
        if opts.labeling:
            shown = _open_labeling(window, opts)
        if opts.screenshot:
            await asyncio.sleep(SETTLE_BEFORE_GRAB_S)
            opts.screenshot.parent.mkdir(parents=True, exist_ok=True)
            if not shown.grab().save(str(opts.screenshot), "PNG"):
                print(f"error: could not write {opts.screenshot}", file=sys.stderr)
                outcome["code"] = 1
    except Exception as exc:
        print(f"error: {exc}", file=sys.stderr)
        outcome["code"] = 1
    finally:
        window.close()


def _open_labeling(window: MainWindow, opts: argparse.Namespace) -> QWidget:
    labeling = window.open_labeling(opts.drag_root, opts.qa_root)
    labeling.tabs.setCurrentWidget(labeling.qa if opts.labeling == "qa" else labeling.drag)
    panel = labeling.qa if opts.labeling == "qa" else labeling.drag
    if opts.item and not panel.select(opts.item):
        print(f"error: no {opts.labeling} item {opts.item} in {panel.root}", file=sys.stderr)
    return labeling


async def _live_steps(window: MainWindow, opts: argparse.Namespace) -> None:
    """Start the agent live and paused, let `--step` actions through, stay paused."""
    from studio.models.agent import Mode
    from studio.views.viewer.start_run_dialog import RunChoice

    entry = window.library.current_entry()
    assert entry is not None
    choice = RunChoice(agent=opts.live_agent, mode=Mode(opts.mode), paused=True, seed=0)
    window.background.spawn(window.runs.run(entry, choice))
    live, panel = window.runs.live, window.run_panel
    for number in range(1, opts.step + 1):
        while live.controls is None or live.controls.pending is None:
            await asyncio.sleep(0.05)
        panel.step()
        while panel.model.rowCount() < number:
            await asyncio.sleep(0.05)
    while live.controls is None or live.controls.pending is None:
        await asyncio.sleep(0.05)


async def _show_trajectory(
    window: MainWindow, opts: argparse.Namespace, outcome: dict[str, int]
) -> None:
    opened = await window.runs.open(opts.trajectory)
    if opened is None:
        print(f"error: {window.results.summary_text()}", file=sys.stderr)
        outcome["code"] = 2
    else:
        window.run_panel.select_row(max(0, opts.step - 1))


async def _show_tab(window: MainWindow, name: str) -> None:
    tabs = window.tabs
    for i in range(tabs.count()):
        if tabs.tabText(i).lower() == name.lower():
            tabs.setCurrentIndex(i)
            if tabs.widget(i) is window.diff:
                await window.show_diff()
            return
    print(f"error: no tab {name}", file=sys.stderr)


async def _open_and_evaluate(window: MainWindow, opts: argparse.Namespace) -> int:
    scan = await window.wait_library()
    if scan is None or not window.library.select_task(opts.open_task):
        print(f"error: no task {opts.open_task} in {window.library_root}", file=sys.stderr)
        return 2
    if not await window.open_task_project(opts.project):
        print(f"error: {window.editor.banner.text()}", file=sys.stderr)
        return 2
    if not opts.evaluate:
        return 0
    result = await window.evaluate_editor_project()
    if result is None:
        print(f"error: {window.results.summary_text()}", file=sys.stderr)
        return 1
    print(result.summary_line(), flush=True)
    return 0 if result.ok else 1


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    opts, _ = build_parser().parse_known_args(argv)
    return run_gui(opts.library, argv)


if __name__ == "__main__":
    raise SystemExit(main())

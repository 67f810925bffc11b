"""Booting the real studio window in tests: one QApplication, a qasync loop per test.

pytest-qt drives Qt's event loop itself (`qtbot.waitUntil`), so the qasync loop is created
"already running": asyncio callbacks run as Qt timers whenever Qt processes events, and
`asyncio.get_running_loop()` works inside them. The loop is unset after each test so that
tests using `asyncio.run()` still work in the same session.

Also the episode manager a module's episode tests share (`manager`: one per module, on the
session's browser; a module that needs another kind defines its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

T = TypeVar("T")
BOOT_TIMEOUT_MS = 120_000


@pytest.fixture(scope="session")
def qapp() -> Any:
    """The session's QApplication, created the way the studio creates it (QtWebEngine ready)."""
    from studio.views.app import make_application

    return make_application()


@pytest.fixture
def qasync_loop(qapp: Any) -> Iterator[asyncio.AbstractEventLoop]:
    import qasync

    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    yield loop
    # Not loop.stop(): it calls QCoreApplication.exit(), which emits aboutToQuit and sets
    # Qt's quitNow flag, after which every nested QEventLoop.exec() (qtbot.wait) returns at
    # once and later tests never see a timer fire. Mark the loop stopped by hand instead.
    loop._QEventLoop__is_running = False  # type: ignore[attr-defined]
    asyncio.events._set_running_loop(None)
    with contextlib.suppress(RuntimeError, TypeError):
        qapp.aboutToQuit.disconnect(loop._after_run_forever)
    loop.close()
    asyncio.set_event_loop(None)


@pytest.fixture
def run_async(qtbot: Any, qasync_loop: asyncio.AbstractEventLoop) -> Callable[..., Any]:
    """run_async(coro, timeout_ms=...) -> result: run a coroutine on the Qt loop and wait."""

    def run(coro: Coroutine[Any, Any, T], timeout_ms: int = BOOT_TIMEOUT_MS) -> T:
        task = asyncio.ensure_future(coro)
        qtbot.waitUntil(task.done, timeout=timeout_ms)
        return task.result()

    return run


@pytest.fixture(scope="session")
def gui_server() -> Iterator[Any]:
    """One editor server for every window of the session.

    A server per test would be stopped and the next one bound to the same port (Linux hands
    it straight back), while QtWebEngine keeps pooled keep-alive connections that the old
    server's handler threads still answer: requests would reach the old server and get 404.
    """
    from studio.services.runtime.server import EditorServer

    server = EditorServer().start()
    yield server
    server.stop()


@pytest.fixture
def boot_window(
    qtbot: Any,
    qasync_loop: asyncio.AbstractEventLoop,
    run_async: Callable[..., Any],
    gui_server: Any,
) -> Iterator[Callable[..., Any]]:
    """boot_window(library, wait_ready=True, prewarm=False) -> the real MainWindow, shown."""
    from studio.services.runtime.browser import BrowserPool
    from studio.views.window.main_window import MainWindow

    booted: list[MainWindow] = []

    def boot(library: Path, wait_ready: bool = True, prewarm: bool = False) -> MainWindow:
        pool = BrowserPool(gui_server, spares=1)
        window = MainWindow(gui_server, pool, library, prewarm=prewarm)
        booted.append(window)
        window.resize(1400, 900)
        window.show()
        window.start()
        if wait_ready:
            run_async(window.editor.wait_ready())
        return window

    yield boot
    for window in booted:
        window.close()
        run_async(window.shutdown())
        with qtbot.waitSignal(window.destroyed, timeout=10_000):
            window.deleteLater()
    # Collect the test's Qt wrappers now, on the GUI thread between tests, rather than whenever
    # a later allocation (possibly on a worker thread, mid event loop) triggers a collection.
    gc.collect()


@pytest.fixture
def js(run_async: Callable[..., Any]) -> Callable[[Any, str], Any]:
    """js(window, expression) -> value of a synchronous JS expression in the editor page."""

    def evaluate(window: Any, expression: str) -> Any:
        return run_async(window.editor.page.evaluate(expression), timeout_ms=20_000)

    return evaluate


@pytest.fixture(scope="session")
def classic_pool(loop_thread: Any, browser_pool: Any) -> Iterator[Any]:
    """A pool of classic evaluation pages beside the session's browser (its server shared),
    for every test that runs on the classic edition."""
    from studio.services.runtime.browser import BrowserPool
    from studio.services.runtime.editions import Edition

    pool = BrowserPool(browser_pool.server, spares=1, edition=Edition.CLASSIC)
    loop_thread.run(pool.start())
    yield pool
    loop_thread.run(pool.close())


@pytest.fixture(scope="module")
def manager(loop_thread: Any, browser_pool: Any) -> Iterator[Any]:
    """An EpisodeManager on the session's browser, started for the module and closed after."""
    from studio.services.episodes.manager import EpisodeManager

    m = EpisodeManager(server=browser_pool.server, pool=browser_pool)
    loop_thread.run(m.start())
    yield m
    loop_thread.run(m.close())


@pytest.fixture
def episodes(manager: Any, loop_thread: Any) -> Iterator[Any]:
    """`episodes(task=None, mode=COMPOSITE, **kw)`: an episode of `manager` (the module's), on
    `task` (the bundled create_cat_walk when None); the test's episodes are deleted after it."""
    from studio.models.agent import Mode
    from studio.services.core import paths
    from studio.services.core.store import load_task

    opened: list[Any] = []

    def make(task: Any = None, mode: Any = Mode.COMPOSITE, **kw: Any) -> Any:
        task = task or load_task(paths.BUNDLED_TASKS / "create_cat_walk")
        episode = loop_thread.run(manager.create(task, mode, **kw))
        opened.append(episode)
        return episode

    yield make
    for episode in opened:
        if episode.id in {e.id for e in manager.list()}:
            loop_thread.run(manager.delete(episode.id))

"""Test isolation (temporary home and settings) and one shared headless browser per session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault(
    "QTWEBENGINE_CHROMIUM_FLAGS",
    "--no-sandbox --ignore-gpu-blocklist --disable-gpu-compositing "
    "--disable-background-networking --disable-component-update --disable-sync",
)

from tests.helpers.loop_thread import LoopThread

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache folder per session, so the browser's code cache warms once."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, session_cache: Path) -> Path:
    """Each test gets its own HOME, config and data folders (the browser cache is shared)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(session_cache))
    return home


@pytest.fixture(scope="session")
def loop_thread() -> Iterator[LoopThread]:
    lt = LoopThread()
    yield lt
    lt.close()


@pytest.fixture(scope="session")
def browser_pool(loop_thread: LoopThread, session_cache: Path) -> Iterator[object]:
    """The session's one headless browser (a BrowserPool running on `loop_thread`)."""
    from studio.services.runtime.browser import BrowserPool

    os.environ["XDG_CACHE_HOME"] = str(session_cache)
    pool = BrowserPool(spares=1)
    loop_thread.run(pool.start())
    yield pool
    loop_thread.run(pool.close())


@pytest.fixture(scope="session")
def evaluate(loop_thread: LoopThread, browser_pool: object):  # type: ignore[no-untyped-def]
    """Call as evaluate(task_folder_entry, project=None, **kw) -> EvalResult, synchronously."""
    from studio.services.runtime.evaluator import Evaluator

    evaluator = Evaluator(browser_pool)  # type: ignore[arg-type]

    def run(entry, project=None, **kw):  # type: ignore[no-untyped-def]
        return loop_thread.run(evaluator.evaluate(entry, project, **kw))

    return run


@pytest.fixture(scope="session")
def evaluate_all(loop_thread: LoopThread, browser_pool: object):  # type: ignore[no-untyped-def]
    """Call as evaluate_all([(entry, project, kw), ...]) -> [EvalResult, ...]: the evaluations
    run at the same time in the shared browser's page slots (a real-time run mostly waits)."""
    import asyncio

    from studio.services.runtime.evaluator import Evaluator

    evaluator = Evaluator(browser_pool)  # type: ignore[arg-type]

    async def gather(jobs):  # type: ignore[no-untyped-def]
        return await asyncio.gather(*(evaluator.evaluate(e, p, **kw) for e, p, kw in jobs))

    def run(jobs):  # type: ignore[no-untyped-def]
        return loop_thread.run(gather(list(jobs)))

    return run

"""The evaluation watchdog and the page pool's bookkeeping, without a browser.

Every step the studio waits on has a deadline: a page that never gets ready, a run whose page
stops answering, a page that will not close. A page the run broke is marked and discarded, and
a page that would not close takes its slot (origin and storage) out of use.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from studio.models.evaluation import ErrorKind, EvalResult
from studio.models.task import ScriptLimit
from studio.services.runtime import browser, browser_prefs, evaluator
from studio.services.runtime.browser import BrowserPool, ReadyPage
from studio.services.runtime.eval_console import ConsoleLog
from studio.services.runtime.evaluator import Prepared, evaluate_prepared

BOUND_S = 20  # a test that has not ended by then hangs (the behaviour under test)


def _prepared() -> Prepared:
    result = EvalResult(task_id="t", project="p.sb3")
    args = {"scriptName": "evaluate.js", "projectName": "p.sb3"}
    return Prepared(result, args, ScriptLimit(0.1, "the test"), 0.0)


class FakePool:
    """What evaluate_prepared needs of a pool; records what happens to its page."""

    def __init__(self, page: Any = None, hang: bool = False) -> None:
        self.page, self.hang = page, hang
        self.reuse = False  # a page per evaluation, as BrowserPool(reuse=False)
        self.marked: dict[Any, str] = {}
        self.discarded: list[Any] = []

    async def acquire_eval_page(self) -> ReadyPage:
        if self.hang:
            await asyncio.Event().wait()
        return ReadyPage(self.page, 0.0, 1)

    def mark_broken(self, page: Any, why: str) -> None:
        self.marked[page] = why

    async def discard(self, page: Any) -> None:
        self.discarded.append(page)

    async def release(self, page: Any, reusable: bool = True, found: str | None = None) -> bool:
        """As BrowserPool(reuse=False): every page is closed after its evaluation."""
        await self.discard(page)
        return False


class SilentPage:
    """A page that never answers: its evaluate never returns, it says nothing."""

    def on(self, *_: Any) -> None: ...

    def remove_listener(self, *_: Any) -> None: ...

    async def evaluate(self, *_: Any) -> Any:
        await asyncio.Event().wait()


def _run(coro: Any) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, BOUND_S)

    return asyncio.run(bounded())


def test_a_page_that_never_gets_ready_ends_the_run_as_stalled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(evaluator, "ACQUIRE_LIMIT_S", 0.2)
    result = _run(evaluate_prepared(FakePool(hang=True), _prepared()))  # type: ignore[arg-type]
    assert result.error is not None and result.error.kind is ErrorKind.STALLED
    assert "no evaluation page got ready" in result.error.message


def test_a_page_that_stops_answering_is_ended_by_the_watchdog_and_discarded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def never(*_: Any) -> None:  # the page and the driver both stopped answering
        await asyncio.Event().wait()

    monkeypatch.setattr(evaluator, "run_in_page", never)
    monkeypatch.setattr(evaluator, "LOAD_LIMIT_S", 0.1)
    monkeypatch.setattr(evaluator, "GRACE_S", 0.1)
    monkeypatch.setattr(evaluator, "WATCHDOG_SLACK_S", 0.1)
    page = SilentPage()
    pool = FakePool(page)
    result = _run(evaluate_prepared(pool, _prepared()))  # type: ignore[arg-type]
    assert result.error is not None and result.error.kind is ErrorKind.STALLED
    assert "stopped answering" in result.error.message and "discarded" in result.error.message
    assert page in pool.marked and pool.discarded == [page]


def test_a_silent_page_gets_the_load_limit_then_is_marked_broken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(evaluator, "LOAD_LIMIT_S", 0.1)
    page = SilentPage()
    pool = FakePool(page)
    result = _run(evaluate_prepared(pool, _prepared()))  # type: ignore[arg-type]
    assert result.error is not None and result.error.kind is ErrorKind.TIMEOUT
    assert pool.marked[page] == result.error.message and pool.discarded == [page]


class HungPage:
    """A page whose close never finishes (its renderer is stuck)."""

    async def close(self, **_: Any) -> None:
        await asyncio.Event().wait()

    def is_closed(self) -> bool:
        return False


class ClosingPage:
    closed = False

    async def close(self, **_: Any) -> None:
        self.closed = True

    def is_closed(self) -> bool:
        return self.closed


def test_a_page_that_will_not_close_takes_its_slot_out_of_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(browser, "CLOSE_LIMIT_S", 0.1)

    async def scenario() -> list[int]:
        pool = BrowserPool(server=None, spares=0, slots=2)
        pool._free_slots = asyncio.LifoQueue()
        hung, fine = HungPage(), ClosingPage()
        pool._slot_of = {hung: 1, fine: 2}
        pool.mark_broken(hung, "stalled")
        assert pool.broken(hung) == "stalled"
        await pool.discard(hung)
        await pool.discard(fine)
        assert pool.broken(hung) is None  # forgotten with the page
        return [pool._free_slots.get_nowait() for _ in range(pool._free_slots.qsize())]

    free = _run(scenario())
    assert 1 not in free and sorted(free) == [2, 3]


def test_opening_a_page_has_a_deadline_and_gives_its_slot_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(browser, "PAGE_READY_TIMEOUT_S", 0.2)
    monkeypatch.setattr(browser, "CLOSE_LIMIT_S", 0.1)

    class StuckContext:  # the browser hands out a page, then stops answering
        pages: tuple[Any, ...] = ()  # none open yet: runtime.windows asks Playwright for the first

        async def new_page(self) -> ClosingPage:
            return ClosingPage()

        async def new_cdp_session(self, _page: Any) -> None:
            await asyncio.Event().wait()

    class Server:
        port = 1

    async def scenario() -> list[int]:
        pool = BrowserPool(server=Server(), spares=0, slots=2)  # type: ignore[arg-type]
        pool._context = StuckContext()
        pool._free_slots = asyncio.LifoQueue()
        pool._free_slots.put_nowait(1)
        with pytest.raises(TimeoutError):
            await pool._open_eval_page()
        return [pool._free_slots.get_nowait() for _ in range(pool._free_slots.qsize())]

    assert _run(scenario()) == [1]


def test_a_full_console_log_stops_listening_and_counts_what_the_page_held_back() -> None:
    lines: list[str] = []
    log = ConsoleLog(lines)
    stopped: list[bool] = []
    log.on_full = lambda: stopped.append(True)
    for i in range(600):
        log.add("log", f"line {i}")
    assert stopped == [True] and len(lines) == 500
    log.close({"calls": 5000, "forwarded": 2000})
    assert lines[-1] == "[studio] at least 3100 more console lines were not kept"


def test_a_console_log_stops_reading_after_a_few_huge_lines() -> None:
    lines: list[str] = []
    log = ConsoleLog(lines)
    stopped: list[bool] = []
    log.on_full = lambda: stopped.append(True)
    huge = "x" * 1_000_000
    for _ in range(10):  # a worker's console is outside the page's budget
        log.add("log", huge)
    assert stopped == [True] and len(lines) == 2 and log.received == 3_000_000
    assert all(len(line) < 2_100 for line in lines)


def test_the_profile_keeps_webrtc_and_prediction_closed(tmp_path: Any) -> None:
    prefs = tmp_path / "Default" / "Preferences"
    prefs.parent.mkdir()
    prefs.write_text('{"webrtc": {"ip_handling_policy": "default", "x": 1}, "y": 2}')
    browser_prefs.close_network_preferences(tmp_path)
    data = json.loads(prefs.read_text())
    assert (
        data["webrtc"] == {**browser_prefs.NETWORK_PREFERENCES["webrtc"], "x": 1} and data["y"] == 2
    )
    assert data["net"]["network_prediction_options"] == 2  # never
    prefs.write_text("[not json")  # a file the browser left torn is replaced
    browser_prefs.close_network_preferences(tmp_path)
    assert json.loads(prefs.read_text()) == browser_prefs.NETWORK_PREFERENCES

"""Every page the studio opens is a window of its own (studio/services/runtime/windows.py).

Tabs of one window take turns being shown, and bringing a tab to the front repaints it whole;
windows do not take turns. The speed of it is measured by bench/bench_agents.py, not here.
"""

from __future__ import annotations

from typing import Any

import pytest

from studio.services.runtime.windows import open_page
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser


async def _window_of(context: Any, page: Any) -> int:
    session = await context.new_cdp_session(page)
    try:
        found = await session.send("Browser.getWindowForTarget")
    finally:
        await session.detach()
    return int(found["windowId"])


def test_each_page_opened_is_in_a_window_of_its_own(
    browser_pool: Any, loop_thread: LoopThread
) -> None:
    context = browser_pool.context

    async def scenario() -> tuple[list[int], list[int], bool]:
        before = {await _window_of(context, p) for p in context.pages if not p.is_closed()}
        opened = [await open_page(context) for _ in range(3)]
        try:
            # a plain Playwright page joins a window that already holds another page
            tab = await context.new_page()
            try:
                tab_window = await _window_of(context, tab)
                shared = tab_window in before | {await _window_of(context, p) for p in opened}
            finally:
                await tab.close()
            windows = [await _window_of(context, p) for p in opened]
            urls = [p.url for p in opened]
            assert urls == ["about:blank"] * 3
            return sorted(before), windows, shared
        finally:
            for page in opened:
                await page.close()

    before, windows, tab_shares = loop_thread.run(scenario())
    assert len(set(windows)) == 3, windows
    assert not set(windows) & set(before), (windows, before)
    assert tab_shares  # what open_page is for: new_page() gives a tab of a window in use


def test_an_evaluation_page_and_an_episode_page_are_windows_of_their_own(
    browser_pool: Any, loop_thread: LoopThread
) -> None:
    """The pool's evaluation pages and the episodes' editor pages open through open_page."""
    from studio.services.episodes.editor_pages import EditorPages

    context = browser_pool.context

    async def scenario() -> tuple[int, int, int]:
        ready = await browser_pool.acquire_eval_page()
        pages = EditorPages(browser_pool.server, context, spares=0)
        editor = await pages.acquire()
        try:
            first = await _window_of(context, context.pages[0])
            return first, await _window_of(context, ready.page), await _window_of(context, editor)
        finally:
            await editor.close()
            await browser_pool.release(ready.page)

    first, evaluation, episode = loop_thread.run(scenario())
    assert len({first, evaluation, episode}) == 3

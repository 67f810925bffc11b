"""No action takes an episode's editor page away, and a page lost all the same is the
environment's failure (studio.services.runtime.page_guard, studio.services.episodes.page_loss).

The reproduction of the issue: in primitive mode, a `scroll` left at a point of the page that
does not scroll (the stage, the sprite pane), then any `click`, took the page "back" to the
blank document it was opened from (Chromium's overscroll history navigation). Each measure is
proved on its own: the browser flag on a page with history and none of our style, the editor's
own style, the editor opened with no history before it, and the guard refusing a navigation.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import EpisodeStatus, Mode
from studio.services.core import paths
from studio.services.core.store import load_task
from studio.services.episodes.page_loss import PageLost
from studio.services.runtime import page_guard
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser

TASK = paths.BUNDLED_TASKS / "create_cat_walk"
STAGE = (1100, 200)  # a point of the stage: nothing there scrolls sideways
SPRITE_PANE = (1100, 550)


@pytest.fixture(scope="module")
def manager(loop_thread: LoopThread, browser_pool: Any, tmp_path_factory: Any) -> Iterator[Any]:
    import os

    from studio.services.episodes.manager import EpisodeManager

    before = os.environ.get("STUDIO_OCR")
    os.environ["STUDIO_OCR"] = "off"  # the element list is enough here
    out = tmp_path_factory.mktemp("runs")
    mgr = EpisodeManager(browser_pool.server, out_dir=out, pool=browser_pool, spare_pages=0)
    loop_thread.run(mgr.start())
    yield mgr
    loop_thread.run(mgr.close())
    if before is None:
        os.environ.pop("STUDIO_OCR", None)
    else:
        os.environ["STUDIO_OCR"] = before


def _scroll_left(x: int, y: int) -> dict[str, Any]:
    return {"api": "scroll", "args": {"x": x, "y": y, "direction": "left", "amount": 5}}


CLICK = {"api": "click", "args": {"x": 640, "y": 360}}


def test_scroll_left_then_click_keeps_the_episode(loop_thread: LoopThread, manager: Any) -> None:
    async def run() -> tuple[list[bool], str, str, int]:
        episode = await manager.create(load_task(TASK), Mode.PRIMITIVE, agent_name="test")
        home = episode.page.url
        oks = []
        try:
            for point in (STAGE, SPRITE_PANE):
                await episode.observe()
                oks.append((await episode.step(_scroll_left(*point))).ok)
                oks.append((await episode.step(CLICK)).ok)
            await episode.observe()  # the page still answers, still the editor
            result = await episode.evaluate()
            return oks, home, episode.page.url, result.total_tests
        finally:
            await episode.close()

    oks, home, url, tests = loop_thread.run(run())
    assert oks == [True, True, True, True]
    assert url == home and url.endswith("/editor.html")
    assert tests > 0


def test_the_browser_flag_stops_overscroll_navigation(
    loop_thread: LoopThread, browser_pool: Any
) -> None:
    """A page with a history entry behind it and no overscroll style of ours: the sideways
    wheel then a click stay on it only because the browser runs with OVERSCROLL_FLAG."""

    async def run() -> tuple[str, list[str]]:
        page = await browser_pool.context.new_page()
        try:
            await page.set_viewport_size({"width": 1280, "height": 720})
            plain = "data:text/html,<body style='margin:0;height:100vh'>plain</body>"
            await page.goto(plain)  # about:blank is behind it
            navigated: list[str] = []
            page.on("framenavigated", lambda frame: navigated.append(frame.url))
            await page.mouse.move(*STAGE)
            await page.mouse.wheel(-500, 0)
            await page.mouse.click(640, 360)
            await page.evaluate("() => new Promise((r) => setTimeout(r, 1000))")
            return page.url, navigated
        finally:
            await page.close()

    url, navigated = loop_thread.run(run())
    assert navigated == [] and url.startswith("data:text/html")


def test_editor_pages_have_no_overscroll_and_no_history(
    loop_thread: LoopThread, manager: Any
) -> None:
    async def run() -> tuple[str, int]:
        episode = await manager.create(load_task(TASK), Mode.COMPOSITE, agent_name="test")
        try:
            style = await episode.page.evaluate(
                "() => [getComputedStyle(document.documentElement).overscrollBehaviorX,"
                " getComputedStyle(document.body).overscrollBehaviorX].join(' ')"
            )
            return style, await episode.page.evaluate("history.length")
        finally:
            await episode.close()

    style, history = loop_thread.run(run())
    assert style == "none none"
    assert history == 1  # nothing to go back to


def test_the_guard_refuses_a_navigation_and_the_editor_stays(
    loop_thread: LoopThread, manager: Any
) -> None:
    async def run() -> tuple[str, str, list[str], Any]:
        episode = await manager.create(load_task(TASK), Mode.COMPOSITE, agent_name="test")
        page = episode.page
        home = page.url
        try:
            await page.evaluate("window.__mark = 7")
            await page.evaluate("location.href = '/elsewhere.html'")
            await page.wait_for_function("() => true")  # a round trip after the refusal
            await episode.observe()
            mark = await page.evaluate("window.__mark")
            return home, page.url, page_guard.refused(page), mark
        finally:
            await episode.close()

    home, url, refused, mark = loop_thread.run(run())
    assert url == home and mark == 7
    assert refused and refused[0].endswith("/elsewhere.html")


def test_a_lost_page_is_an_environment_failure_with_the_program_kept(
    loop_thread: LoopThread, manager: Any, tmp_path: Path
) -> None:
    """The page closed from outside (as a crash would take it): the next step is recorded
    with the reason, raises PageLost, and run.json says environment, with the program of the
    last observation as final.sb3."""
    folder = tmp_path / "lost"

    async def run() -> tuple[str, Any]:
        episode = await manager.create(
            load_task(TASK), Mode.COMPOSITE, record_to=folder, agent_name="test"
        )
        try:
            await episode.observe()
            await episode.page.close()
            with pytest.raises(PageLost) as lost:
                await episode.step({"api": "done", "args": {}})
            with pytest.raises(PageLost):
                await episode.observe()  # later calls name the loss too
            return str(lost.value), episode.status
        finally:
            await episode.close()

    message, status = loop_thread.run(run())
    assert "closed" in message
    assert status is EpisodeStatus.CLOSED
    run_json = json.loads((folder / "run.json").read_text())
    assert run_json["meta"]["failure"] == "environment"
    assert "closed" in run_json["meta"]["error"]
    assert (folder / "final.sb3").read_bytes()[:2] == b"PK"

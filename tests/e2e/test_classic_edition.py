"""The classic editor edition (scratch-gui 5.1.89, the published benchmark's editor) in headless
Chromium: its screen at 1280x720 in small stage mode is the published one (SCRATCHWORLD_API.md
section 11), a published item's workspace is restored with the published runner's forced
canvas transform, and its evaluation page (GUI-less VM, virtual clock) gives the verdicts the
current edition gives."""

from __future__ import annotations

import json
from typing import Any

import pytest

from studio.models.evaluation import Clock
from studio.services.core import paths
from studio.services.core.store import load_task
from studio.services.runtime import page_scripts
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.editions import Edition, info
from studio.services.runtime.evaluator import Evaluator
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser

# Published figures (section 11) and how far ours may be from them, in CSS pixels.
MOTION_TITLE_MIDDLE_Y = 116  # its text sits at y = 112-120
FIRST_BLOCK_TOP_Y = 140
BACKPACK_TOP_Y = 695
ZOOM_CENTRES = [(982, 559), (982, 603), (982, 647)]  # in, out, reset
TOLERANCE = 3

GEOMETRY_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const title = [...document.querySelectorAll('.blocklyFlyout text')]
    .find((t) => t.textContent.trim() === 'Motion');
  const move = window.studioEdition.flyoutBlocks('motion_movesteps')[0];
  const backpack = document.querySelector('[class*="backpack_backpack-header"]');
  const menu = document.querySelector('[class*="menu-bar_menu-bar"]');
  return {
    title: title ? box(title) : null,
    move: move ? box(move) : null,
    backpack: backpack ? box(backpack) : null,
    zoom: [...document.querySelectorAll('.blocklyZoom > image')].map(box),
    menu: menu ? menu.innerText.split('\\n').map((s) => s.trim()).filter(Boolean) : [],
    globals: [typeof window.vm, typeof window.workspace, typeof window.flyoutWorkspace,
      typeof window.ScratchBlocks, typeof window.toolboxXML],
  };
}"""


RESTORED_JS = """() => [workspace.getCanvas().getAttribute('transform'),
  workspace.getBubbleCanvas().getAttribute('transform'), workspace.scrollX, workspace.scrollY,
  workspace.scale]"""


async def _screen(pool: BrowserPool) -> dict[str, Any]:
    assert pool.server is not None
    page = await pool.context.new_page()
    try:
        await page.set_viewport_size({"width": 1280, "height": 720})
        url = pool.server.url(info(Edition.CLASSIC).editor_page)
        await page.goto(url, wait_until="domcontentloaded", timeout=120_000)
        await page.wait_for_function("window.studioEditorReady === true", timeout=120_000)
        assert await page_scripts.call(page, page_scripts.HELPERS, "clickSmallStage")
        assert await page_scripts.call(page, page_scripts.HELPERS, "smallStageShown", 2)
        result: dict[str, Any] = await page.evaluate(GEOMETRY_JS)
        # a published item's workspace_state, restored as the published drag runner does
        state = {"scale": 0.675, "scrollX": 100, "scrollY": 50, "tx": -67.5, "ty": -33.75}
        await page_scripts.call(page, page_scripts.DRAG, "view", state)
        result["restored"] = await page.evaluate(RESTORED_JS)
        return result
    finally:
        await page.close()


def test_the_classic_screen_is_the_published_one(
    loop_thread: LoopThread, classic_pool: BrowserPool
) -> None:
    screen = loop_thread.run(_screen(classic_pool))
    report = json.dumps(screen)
    assert {"Share", "See Project Page", "scratch-cat"} <= set(screen["menu"]), report
    title, move, backpack = screen["title"], screen["move"], screen["backpack"]
    assert title and abs((title["top"] + title["bottom"]) / 2 - MOTION_TITLE_MIDDLE_Y) <= TOLERANCE
    assert move and abs(move["top"] - FIRST_BLOCK_TOP_Y) <= TOLERANCE, report
    assert backpack and abs(backpack["top"] - BACKPACK_TOP_Y) <= TOLERANCE, report
    assert backpack["bottom"] == 720, report
    centres = sorted(
        ((z["left"] + z["right"]) / 2, (z["top"] + z["bottom"]) / 2) for z in screen["zoom"]
    )
    centres.sort(key=lambda c: c[1])
    assert len(centres) == 3, report
    for (x, y), (px, py) in zip(centres, ZOOM_CENTRES, strict=True):
        assert abs(x - px) <= TOLERANCE and abs(y - py) <= TOLERANCE, report
    assert screen["globals"] == ["object", "object", "object", "object", "string"], report
    forced = "translate(-67.5,-33.75) scale(0.675)"
    assert screen["restored"] == [forced, forced, 100, 50, 0.675], report


@pytest.mark.parametrize("task", ["create_arrow_keys"])  # keys, waits: the clock matters
def test_classic_evaluation_gives_the_current_verdicts(
    task: str, loop_thread: LoopThread, classic_pool: BrowserPool, browser_pool: BrowserPool
) -> None:
    entry = load_task(paths.BUNDLED_TASKS / task)

    async def both() -> list[Any]:
        out = []
        for pool in (classic_pool, browser_pool):
            for project in (entry.golden_path, entry.initial_path):
                out.append(await Evaluator(pool).evaluate(entry, project, clock=Clock.VIRTUAL))
        return out

    classic_golden, classic_initial, golden, initial = loop_thread.run(both())
    for classic, current in ((classic_golden, golden), (classic_initial, initial)):
        assert classic.error is None and classic.clock is Clock.VIRTUAL, classic.summary_line()
        assert [d.passed for d in classic.details] == [d.passed for d in current.details]
    assert classic_golden.success and not classic_initial.success

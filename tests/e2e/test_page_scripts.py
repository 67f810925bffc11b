"""page_scripts in a real page of the shared browser: every script parses, the guard holds.

No editor is loaded (the scripts are parsed, not run, except the input capture, which needs
none): the editor-backed behaviour of each script is covered by the env, drag, QA and
ScratchWorld tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from studio.services.runtime import page_scripts
from studio.services.runtime.page_lists import PAGE_LISTS
from studio.services.runtime.page_scripts import HELPERS, INPUT
from tests.helpers.loop_thread import LoopThread

PARSES = "(src) => { new Function(src); return true; }"


@pytest.fixture
def page(loop_thread: LoopThread, browser_pool: Any) -> Iterator[Any]:
    page = loop_thread.run(browser_pool.context.new_page())
    yield page
    loop_thread.run(page.close())


def test_every_script_parses(loop_thread: LoopThread, page: Any) -> None:
    for script in page_scripts.SCRIPTS:
        assert loop_thread.run(page.evaluate(PARSES, page_scripts.source(script))), script.file


def test_install_once_per_version_and_again_after_a_reload(
    loop_thread: LoopThread, page: Any
) -> None:
    async def go() -> None:
        await page_scripts.install(page, INPUT, HELPERS)
        assert await page.evaluate("() => window.studioPageHelpers.lists") == PAGE_LISTS
        await page.evaluate("() => { window.studioInput.mark = 1; }")
        await page_scripts.install(page, INPUT)
        assert await page.evaluate("() => window.studioInput.mark") == 1  # not evaluated again
        await page.evaluate("() => { window.__studioPageScripts.studioInput = 'older'; }")
        await page_scripts.install(page, INPUT)
        assert await page.evaluate("() => window.studioInput.mark") is None  # replaced
        await page.reload()
        assert await page_scripts.call(page, INPUT, "drain") == []
        assert await page_scripts.call(page, INPUT, "pressed") is False

    loop_thread.run(go())

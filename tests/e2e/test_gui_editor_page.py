"""The editor page (resources/web/editor.html) in headless Chromium, without Qt."""

from __future__ import annotations

import base64
from typing import Any
from urllib.parse import urlsplit

import pytest

from studio.services.sb3 import read_project_json
from tests.helpers.sample_task import (
    GOLDEN_BLOCKS,
    not_a_zip_sb3,
    project_json,
    sb3_bytes,
    vm_refused_sb3,
)

pytestmark = pytest.mark.browser

SPRITES = "vm.runtime.targets.filter(t => !t.isStage).map(t => t.getName())"
LOAD = "([b64, name]) => studioBridge.loadProjectBase64(b64, name)"


async def _exercise_page(pool: Any) -> dict[str, Any]:
    """Load the page, open the sprite library, load and save projects; report what happened."""
    out: dict[str, Any] = {"requests": [], "failures": []}
    page = await pool.context.new_page()
    page.on("request", lambda r: out["requests"].append(r.url))
    try:
        await page.goto(pool.server.url("editor.html"))
        await page.wait_for_function("window.studioEditorReady === true", timeout=60_000)
        out["title"] = await page.title()
        out["default"] = await page.evaluate("studioBridge.describeProject()")
        out["workspace"] = await page.evaluate("typeof workspace.getTopBlocks")
        await page.click("[aria-label='Choose a Sprite']")
        await page.wait_for_selector("text=Abby", timeout=20_000)
        await page.keyboard.press("Escape")
        golden = base64.b64encode(sb3_bytes(project_json(GOLDEN_BLOCKS))).decode()
        out["golden"] = await page.evaluate(LOAD, [golden, "golden.sb3"])
        for name, data in (("junk.sb3", not_a_zip_sb3()), ("refused.sb3", vm_refused_sb3())):
            try:
                await page.evaluate(LOAD, [base64.b64encode(data).decode(), name])
            except Exception as exc:
                out["failures"].append(str(exc))
        out["after_failures"] = await page.evaluate(SPRITES)
        out["saved"] = base64.b64decode(await page.evaluate("studioBridge.saveProjectBase64()"))
    finally:
        await page.close()
    return out


def test_editor_page_stays_offline_loads_rolls_back_and_saves(
    loop_thread: Any, browser_pool: Any
) -> None:
    out = loop_thread.run(_exercise_page(browser_pool))

    assert out["title"].endswith("[ready]")
    assert out["default"]["sprites"] == ["Sprite1"]
    assert out["workspace"] == "function"
    hosts = {urlsplit(url).hostname for url in out["requests"] if url.startswith("http")}
    assert hosts == {"127.0.0.1"}, hosts
    assert not [u for u in out["requests"] if not u.startswith(("http://127.0.0.1", "data:"))]

    assert out["golden"]["sprites"] == ["Cat"]
    assert out["golden"]["title"] == "golden"
    junk, refused = out["failures"]
    assert "junk.sb3: the Scratch VM refused the project" in junk
    assert "refused.sb3: the Scratch VM refused the project" in refused
    assert out["after_failures"] == ["Cat"]
    saved = read_project_json(out["saved"], "saved.sb3")
    cat = next(t for t in saved["targets"] if t["name"] == "Cat")
    assert {b["opcode"] for b in cat["blocks"].values()} >= {"event_whenflagclicked", "looks_say"}

"""The editor page (resources/web/editor.html) in headless Chromium, without Qt."""

from __future__ import annotations

import base64
from typing import Any
from urllib.parse import urlsplit

import pytest

from studio.services.core.sb3 import read_project_json
from studio.services.runtime import editions
from studio.services.runtime.editions import Edition
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


FOREVER_BLOCKS = {
    "flag": {
        "opcode": "event_whenflagclicked",
        "next": "loop",
        "parent": None,
        "inputs": {},
        "fields": {},
        "shadow": False,
        "topLevel": True,
        "x": 0,
        "y": 0,
    },
    "loop": {
        "opcode": "control_forever",
        "next": None,
        "parent": "flag",
        "inputs": {},
        "fields": {},
        "shadow": False,
        "topLevel": False,
    },
}
# Steps the VM by hand (its own 30 Hz interval stopped) and counts the stage draws they make.
REST_STEPS = """() => {
  vm.runtime.quit();
  const draws = () => studioRest.stats().draws;
  const steps = (n) => { const d0 = draws(); for (let i = 0; i < n; i++) vm.runtime._step();
    return draws() - d0; };
  const out = {};
  steps(2);  // whatever the load left to draw
  out.idle = steps(10);
  vm.runtime.targets.find((t) => !t.isStage).setXY(40, 30);
  out.after_move = steps(10);
  vm.runtime.renderer.requestSnapshot(() => undefined);
  out.snapshot = steps(1);
  vm.greenFlag();  // a forever loop that changes nothing: a running project
  out.running = steps(5);
  vm.runtime.targets.find((t) => !t.isStage).setXY(0, 0);  // a change while it runs
  out.running_move = steps(5);
  vm.stopAll();
  steps(2);
  studioRest.allow(false);
  out.not_allowed = steps(5);
  studioRest.allow(true);
  steps(1);
  out.allowed_again = steps(5);
  const d0 = draws();
  vm.renderer.draw();  // a draw asked for outside a step (the editor's thumbnail)
  out.direct = draws() - d0;
  return out;
}"""


async def _count_draws(pool: Any, edition: Edition) -> dict[str, int]:
    page = await pool.context.new_page()
    try:
        await page.goto(pool.server.url(editions.info(edition).editor_page))
        await page.wait_for_function("window.studioEditorReady === true", timeout=60_000)
        looping = base64.b64encode(sb3_bytes(project_json(FOREVER_BLOCKS))).decode()
        await page.evaluate(LOAD, [looping, "looping.sb3"])
        await page.wait_for_function("window.studioRest !== undefined", timeout=20_000)
        return dict(await page.evaluate(REST_STEPS))
    finally:
        await page.close()


@pytest.mark.parametrize("edition", [Edition.CURRENT, Edition.CLASSIC])
def test_the_idle_stage_rests_and_draws_what_changes(
    edition: Edition, loop_thread: Any, browser_pool: Any
) -> None:
    """Issue 31, point 11: an idle editor's VM steps no longer redraw the stage each frame;
    issue 39: nor do a running project's steps that change nothing on it. On both editions
    (the classic one is the published runner's: its renderer is an older scratch-render)."""
    out = loop_thread.run(_count_draws(browser_pool, edition))

    assert out["idle"] == 0
    assert out["after_move"] == 1  # the move is drawn once, then it rests again
    assert out["snapshot"] == 1
    # a running project is drawn as it changes the stage: its start, then a move
    assert out["running"] == 1
    assert out["running_move"] == 1
    assert out["not_allowed"] == 5  # a live episode sees every frame
    assert out["allowed_again"] == 0
    assert out["direct"] == 1

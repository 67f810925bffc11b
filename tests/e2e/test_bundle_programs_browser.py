"""The bundle's final programs in a real browser from disk: each script's SVG loads as an image
at the size the renderer gave, and its text opens under a click."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from studio.services.runs.bundle import write_bundle
from tests.helpers.loop_thread import LoopThread
from tests.unit.trajectories.build import result, run_info, step, write_trajectory

pytestmark = pytest.mark.browser
GOLDEN = Path(__file__).resolve().parents[2] / "tasks" / "debug_game_over" / "golden.sb3"


def test_final_program_pictures_load_and_their_text_opens(
    tmp_path: Path, loop_thread: LoopThread, browser_pool: Any
) -> None:
    run = run_info("debug_game_over", agent="oracle", eval=result("t", {"t1": True}))
    folder = tmp_path / "runs" / "oracle-primitive-1" / "debug_game_over"
    write_trajectory(folder, [step(1, "done")], run=run, final_sb3=GOLDEN.read_bytes())
    summary = write_bundle(tmp_path / "runs", tmp_path / "site")

    async def look() -> dict[str, Any]:
        page = await browser_pool.context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            await page.goto(summary.index.as_uri())
            await page.wait_for_selector("body[data-ready='1']")
            await page.locator("tr.episode").first.click()
            images = page.locator(".program .script img")
            await images.first.evaluate("i => i.decode()")
            sizes = await images.evaluate_all(
                "all => all.map(i => [i.naturalWidth, i.getAttribute('width')])"
            )
            text = page.locator(".program .script pre").first
            hidden = await text.is_visible()
            await page.locator(".program .script summary").first.click()
            return {"sizes": sizes, "hidden": hidden, "shown": await text.is_visible(),
                    "text": await text.text_content(), "errors": errors}  # fmt: skip
        finally:
            await page.close()

    seen = loop_thread.run(look())
    assert seen["errors"] == []
    assert len(seen["sizes"]) == 5  # Bug's 3 scripts, Banner's 2
    assert all(natural > 0 and abs(natural - int(width)) <= 1 for natural, width in seen["sizes"])
    assert not seen["hidden"] and seen["shown"]
    assert seen["text"].startswith("when @greenFlag clicked")

"""`studio report --html` carries a card per task its runs played: the golden's changed
scripts (initial -> golden) as block pictures drawn in a real browser, each script's text a
click away; a task whose folder is gone is named. Bundled tasks, as a library holds them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from studio.cli import main
from tests.helpers.loop_thread import LoopThread
from tests.unit.trajectories.build import result, run_info, step, write_trajectory

pytestmark = pytest.mark.browser
TASKS = Path(__file__).resolve().parents[2] / "tasks"


def test_report_cards_show_the_goldens_changes_as_pictures(
    tmp_path: Path, loop_thread: LoopThread, browser_pool: Any
) -> None:
    library = tmp_path / "lib"
    for task in ("debug_game_over", "create_cat_walk", "extend_balloon_pops"):
        shutil.copytree(TASKS / task, library / task)
    folders = {t: library / t for t in ("debug_game_over", "create_cat_walk")}
    folders["extend_balloon_pops"] = tmp_path / "moved-away"
    for task, folder in folders.items():
        run = run_info(task, agent="oracle", eval=result(task, {"t1": True}),
                       episode_id=f"oracle-{task}", task_folder=str(folder))  # fmt: skip
        episode = tmp_path / "runs" / "oracle-composite-1" / task
        write_trajectory(episode, [step(1, "done")], run=run)
    page_path = tmp_path / "report.html"
    assert main(["report", str(tmp_path / "runs"), "--html", str(page_path)]) == 0
    page = page_path.read_text("utf-8")
    assert "<h2>Tasks</h2>" in page and "Task folders not found for: extend_balloon_pops" in page

    async def look() -> dict[str, Any]:
        tab = await browser_pool.context.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda e: errors.append(str(e)))
        try:
            await tab.set_viewport_size({"width": 1000, "height": 1400})
            await tab.goto(page_path.as_uri())
            cards = tab.locator("section.task-card")
            game = tab.locator("#task-debug_game_over")
            sizes = await game.locator(".blocks svg").evaluate_all(
                "all => all.map(s => [s.getBoundingClientRect().width, "
                "s.getBoundingClientRect().height])"
            )
            text = game.locator(".blocks pre").first
            hidden = await text.is_visible()
            await game.locator(".blocks summary").first.click()
            shot = os.environ.get("STUDIO_SHOT_DIR")
            if shot:
                await game.scroll_into_view_if_needed()
                await game.screenshot(path=str(Path(shot) / "report-task-card.png"))
            return {"cards": await cards.count(), "sizes": sizes, "hidden": hidden,
                    "shown": await text.is_visible(), "text": await text.text_content(),
                    "targets": await game.locator("h4").all_text_contents(),
                    "errors": errors}  # fmt: skip
        finally:
            await tab.close()

    seen = loop_thread.run(look())
    assert seen["errors"] == []
    assert seen["cards"] == 2
    assert seen["sizes"] and all(w > 50 and h > 20 for w, h in seen["sizes"])
    assert not seen["hidden"] and seen["shown"]
    assert seen["targets"], "the golden of debug_game_over changes some target's scripts"
    assert seen["text"].strip()

"""The HTML report's Task set section in a real browser, opened from disk: the table of the
runs' tasks and each bar chart drawn (an SVG image that decodes to its own size), no console
error (the bundle's own check: tests/e2e/test_bundle_task_set_browser.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from studio.cli import main
from tests.helpers.loop_thread import LoopThread
from tests.unit.test_bundle_task_set import _library, _runs

pytestmark = pytest.mark.browser


def test_the_task_set_section_of_the_html_report_renders(
    tmp_path: Path, loop_thread: LoopThread, browser_pool: Any
) -> None:
    html = tmp_path / "report.html"
    runs = _runs(tmp_path / "runs", _library(tmp_path / "lib"))
    assert main(["report", str(runs), "--html", str(html)]) == 0

    async def look() -> dict[str, Any]:
        page = await browser_pool.context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            await page.set_viewport_size({"width": 1280, "height": 900})
            await page.goto(html.as_uri())
            section = page.locator("#task-set")
            seen: dict[str, Any] = {"visible": await section.is_visible()}
            seen["title"] = await section.locator("h2").text_content()
            first_cells = section.locator("table.task-set tbody tr td:first-child")
            seen["rows"] = await first_cells.all_text_contents()
            charts = section.locator("img.set-chart")
            seen["charts"] = []
            for i in range(await charts.count()):
                img = charts.nth(i)
                await img.evaluate("i => i.decode()")
                size = await img.evaluate("i => [i.naturalWidth, i.naturalHeight]")
                seen["charts"].append((await img.get_attribute("data-chart"), *size))
            seen["errors"] = errors
            return seen
        finally:
            await page.close()

    seen = loop_thread.run(look())
    assert seen["errors"] == [] and seen["visible"]
    assert seen["title"] == "Task set: 3 task(s) the runs played"
    assert seen["rows"] == ["create", "debug", "compute", "all"]
    assert [c for c, _w, _h in seen["charts"]] == [
        "tasks", "difficulty", "modified", "block_categories", "review",
    ]  # fmt: skip
    assert all(w == 520 and h > 28 for _c, w, h in seen["charts"])  # the SVG's own size, drawn

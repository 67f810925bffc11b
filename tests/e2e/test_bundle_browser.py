"""The bundle of `studio report --bundle` in a real browser, opened from disk (file://): no
console error, the episodes the runs hold, a step's screenshot with its action drawn, the
filters and two runs side by side (the fixture: ScratchWorld result folders of our own)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from studio.services.runs.bundle import write_bundle
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sw_results"


def add_interval(data_js: Path) -> None:
    """Give the first row's overall SR a 95% interval, as reports with intervals carry."""
    prefix, text = data_js.read_text(encoding="utf-8").split(" = ", 1)
    data = json.loads(text.rstrip().rstrip(";"))
    data["report"]["rows"][0]["overall"]["sr_ci95"] = [0.125, 0.875]
    data_js.write_text(f"{prefix} = {json.dumps(data)};\n", encoding="utf-8")


def test_the_bundle_opens_from_disk_and_shows_the_runs(
    tmp_path: Path, loop_thread: LoopThread, browser_pool: Any
) -> None:
    summary = write_bundle(FIXTURE, tmp_path / "site")
    assert (summary.runs, summary.episodes) == (2, 6)
    add_interval(summary.out / "data.js")

    async def look() -> dict[str, Any]:
        page = await browser_pool.context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            await page.goto(summary.index.as_uri())
            await page.wait_for_selector("body[data-ready='1']")
            seen: dict[str, Any] = {"count": await page.text_content("#count")}
            seen["grid"] = await page.locator("table.grid").count()
            seen["ci"] = await page.locator("table.grid .ci").all_text_contents()
            row = page.locator("tr.episode[data-outcome='pass']", has_text="create_balloon_score")
            await row.last.click()  # the primitive episode: click, drag, type, done
            frame = page.locator(".episode-detail .frame").nth(1)
            await frame.locator("img").evaluate("i => i.decode()")
            seen["natural"] = await frame.locator("img").evaluate("i => i.naturalWidth")
            seen["kind"] = await frame.locator("svg").get_attribute("data-kind")
            seen["arrow"] = await frame.locator("svg line.drag").count()
            await page.select_option("#f-outcome", "pass")
            seen["passed"] = await page.text_content("#count")
            await page.select_option("#f-outcome", "")
            await page.fill("#f-task", "pong")
            seen["pong"] = await page.locator("#episodes tr.episode").count()
            await page.click("#compare tr[data-task='debug_pong_paddle']")
            seen["pair"] = await page.locator("#compare-strips .episode-detail").count()
            seen["errors"] = errors
            return seen
        finally:
            await page.close()

    seen = loop_thread.run(look())
    assert seen["errors"] == []
    assert seen["count"] == "6 of 6 episodes" and seen["grid"] == 2
    # the report's own 95% intervals are drawn, and a value put in data.js shows as given
    assert "[12.50, 87.50]" in seen["ci"] and len(seen["ci"]) > 1
    intervals = [ci for ci in seen["ci"] if not ci.startswith("pass@")]
    assert all(re.fullmatch(r"\[\d+\.\d\d, \d+\.\d\d\]", ci) for ci in intervals), intervals
    assert any(ci.startswith("pass@1 ") for ci in seen["ci"])  # pass@k where rows carry it
    assert seen["natural"] == 1280 and seen["kind"] == "drag" and seen["arrow"] == 1
    assert seen["passed"] == "3 of 6 episodes"
    assert seen["pong"] == 2 and seen["pair"] == 2


def test_the_bundle_draws_a_studys_human_tables(
    tmp_path: Path, loop_thread: LoopThread, browser_pool: Any
) -> None:
    """report.studies (as `studio report --bundle` writes it for a study) drawn as three
    tables with the intervals; a name is set as text, never parsed as HTML."""
    summary = write_bundle(FIXTURE, tmp_path / "site")
    data_js = summary.out / "data.js"
    prefix, text = data_js.read_text(encoding="utf-8").split(" = ", 1)
    data = json.loads(text.rstrip().rstrip(";"))
    line = {"ended": 2, "solved": 1, "sr": 0.5, "sr_ci95": [0.1, 0.9], "psr": 0.75,
            "psr_ci95": None, "mean_seconds": 42.0, "mean_actions": 7.5}  # fmt: skip
    data["report"]["studies"] = [{
        "study": "pilot", "folder": "/x/pilot",
        "categories": [{"name": "create", **line}],
        "participants": [{"name": "<b>P-01</b>", **line}, {"name": "P-02", "ended": 0}],
        "tasks": [{"name": "create_cat_walk", **line}],
    }]  # fmt: skip
    data_js.write_text(f"{prefix} = {json.dumps(data)};\n", encoding="utf-8")

    async def look() -> dict[str, Any]:
        page = await browser_pool.context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            await page.goto(summary.index.as_uri())
            await page.wait_for_selector("body[data-ready='1']")
            people = page.locator("#studies table[data-table='participants'] tbody tr")
            return {
                "heading": await page.text_content("#studies h2"),
                "tables": await page.locator("#studies table.study").count(),
                "first": await people.first.locator("td").all_text_contents(),
                "second": await people.nth(1).locator("td").all_text_contents(),
                "bold": await page.locator("#studies b").count(),
                "errors": errors,
            }
        finally:
            await page.close()

    seen = loop_thread.run(look())
    assert seen["errors"] == [] and seen["heading"] == "Human baseline study pilot"
    assert seen["tables"] == 3 and seen["bold"] == 0
    name, ended, sr, psr, secs, actions = seen["first"]
    assert (name, ended, psr, secs, actions) == ("<b>P-01</b>", "2", "75.00", "42.0 s", "7.5")
    assert sr.startswith("50.00") and "[10.00, 90.00]" in sr
    assert seen["second"] == ["P-02", "0", "-", "-", "-", "-"]


def test_the_bundle_draws_the_repair_measures_a_row_carries(
    tmp_path: Path, loop_thread: LoopThread, browser_pool: Any
) -> None:
    summary = write_bundle(FIXTURE, tmp_path / "site")
    data_js = summary.out / "data.js"
    prefix, text = data_js.read_text(encoding="utf-8").split(" = ", 1)
    data = json.loads(text.rstrip().rstrip(";"))
    first = data["report"]["rows"][0]
    first["overall"].update(d_edit_mean=1.5, d_edit_ci95=[0.5, 2.5], drift_mean=0.125)
    data_js.write_text(f"{prefix} = {json.dumps(data)};\n", encoding="utf-8")

    async def look() -> tuple[list[str], list[str]]:
        page = await browser_pool.context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        try:
            await page.goto(summary.index.as_uri())
            await page.wait_for_selector("body[data-ready='1']")
            return await page.locator("ul.repair li").all_text_contents(), errors
        finally:
            await page.close()

    lines, errors = loop_thread.run(look())
    assert errors == []
    assert lines == [f"{first['agent']}: d_edit 1.50 [0.50, 2.50]; drift 0.125"]

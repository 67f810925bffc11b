"""Primitive mode's element list on the classic edition (scratch-gui 5.1.89) has the kinds and
names it has on the current one: blocks by opcode (palette and code area), the category menu
by id, sprites by their bare names, fields by their block's opcode; and the primitive oracle,
which sees only that list, solves a bundled task on the classic editor."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import Mode
from studio.models.evaluation import Clock
from studio.services.core import paths
from studio.services.core.store import load_task
from studio.services.episodes.agents import OracleAgent, run_episode
from studio.services.episodes.manager import EpisodeManager
from studio.services.episodes.modes import VIEWPORT
from studio.services.runtime import page_scripts
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.editions import Edition, info
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser
TASK = "create_cat_walk"  # its golden project has scripts with number fields on the canvas


def _names(elements: list[dict[str, Any]]) -> dict[str, set[str]]:
    """What an agent reads off the list, per kind (positions differ between the editions)."""
    named: dict[str, set[str]] = {}

    def add(kind: str, name: str) -> None:
        named.setdefault(kind, set()).add(name)

    for e in elements:
        meta = e["meta"]
        if e["type"] == "blocks":
            add("canvas blocks" if meta.get("block_id") else "palette blocks", meta["opcode"])
        elif e["type"] == "category_menu":
            add("categories", f"{meta['id']}={e['text']}")
        elif e["type"] == "sprites":
            add("sprites", e["text"])
        elif e["type"] == "inputs" and meta.get("opcode"):
            where = "canvas" if meta.get("block_id") else "palette"
            add(f"{where} fields", f"{meta['opcode']}:{meta['kind']}:{meta['value']}")
    return named


async def _elements(pool: BrowserPool, edition: Edition) -> list[dict[str, Any]]:
    assert pool.server is not None
    task = load_task(paths.BUNDLED_TASKS / TASK)
    assert task.golden_path is not None
    page = await pool.context.new_page()
    try:
        await page.set_viewport_size(VIEWPORT)
        url = pool.server.url(info(edition).editor_page)
        await page.goto(url, wait_until="domcontentloaded", timeout=120_000)
        await page.wait_for_function("window.studioEditorReady === true", timeout=120_000)
        await page_scripts.install(page, page_scripts.COMPOSITE)
        url = pool.server.register_bytes(task.golden_path.read_bytes(), "golden.sb3")
        await page_scripts.bridge(page, "loadProjectFromUrl", url, "golden.sb3", TASK)
        pool.server.forget(url)
        await page_scripts.call(page, page_scripts.COMPOSITE, "layout")
        await page_scripts.install(page, page_scripts.ELEMENTS)
        elements: list[dict[str, Any]] = await page_scripts.call(
            page, page_scripts.ELEMENTS, "collect"
        )
        return elements
    finally:
        await page.close()


def test_the_classic_element_list_names_what_the_current_one_names(
    loop_thread: LoopThread, classic_pool: BrowserPool, browser_pool: BrowserPool
) -> None:
    classic = _names(loop_thread.run(_elements(classic_pool, Edition.CLASSIC)))
    current = _names(loop_thread.run(_elements(browser_pool, Edition.CURRENT)))
    assert "motion_movesteps" in classic["palette blocks"], classic
    assert {"motion=Motion", "control=Control", "variables=Variables"} <= classic["categories"]
    assert "Cat" in classic["sprites"], classic["sprites"]
    assert "motion_movesteps" in classic["canvas blocks"], classic
    # the palette's last rows may fall below the screen on one edition (its palette starts
    # lower), so the palette's blocks and fields on classic are a subset of the current ones
    assert classic["palette blocks"] <= current["palette blocks"]
    assert classic["palette fields"] <= current["palette fields"]
    assert any(f.endswith(":dropdown:random\xa0position") for f in classic["palette fields"])
    for kind in ("canvas blocks", "canvas fields", "categories", "sprites"):
        assert classic[kind] == current[kind], kind


@pytest.fixture(scope="module")
def classic_manager(loop_thread: LoopThread, classic_pool: BrowserPool) -> Iterator[EpisodeManager]:
    """Classic episodes in the session's shared classic pool."""
    os.environ["STUDIO_OCR"] = "off"  # the oracle reads the DOM elements; OCR only costs time
    m = EpisodeManager(server=classic_pool.server, pool=classic_pool)
    loop_thread.run(m.start())
    yield m
    loop_thread.run(m.close())
    os.environ.pop("STUDIO_OCR", None)


def test_the_primitive_oracle_solves_a_task_on_classic(
    classic_manager: EpisodeManager, loop_thread: LoopThread, tmp_path: Path
) -> None:
    task = load_task(paths.BUNDLED_TASKS / TASK)
    assert classic_manager.edition is Edition.CLASSIC
    agent = OracleAgent(task)
    result, folder = loop_thread.run(
        run_episode(
            classic_manager, task, Mode.PRIMITIVE, agent, tmp_path / "run", clock=Clock.VIRTUAL
        )
    )
    assert folder is not None
    steps = [json.loads(line) for line in (folder / "steps.jsonl").read_text().splitlines()]
    said = [(s["action"]["api"], s["reasoning"]) for s in steps[-6:]]
    assert steps[-1]["action"] == {"api": "done", "args": {}}, said
    assert result.success, result.summary_line()

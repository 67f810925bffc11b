"""Published-style drag items whose stored regions were NOT made by the studio's region code
(tests/helpers/published_grab: the seed paper's appendix J in the published runner's restored
screen, for each item's own grab point, off the grid and away from the left-edge heuristic):
`regions compute` sets each item up in place (sprite switch, palette clicks, zoom, scroll, the
custom_js pan, the forced transform) and computes, for the item's grab point, regions that
agree with the stored ones; and ScratchWorld's drag runner connects on every item with its
published answer.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.app.regions import RegionOptions, RegionWorkshop
from studio.services.diagnostics.drag.item import DragItemError, load_item
from studio.services.diagnostics.drag.page import Job, TrialPages, open_window
from studio.services.diagnostics.drag.regions import choose_destination
from studio.services.formats.scratchworld.checkout import import_checkout
from studio.services.runtime.editions import Edition
from tests.helpers.loop_thread import LoopThread
from tests.helpers.published_grab import FIXTURE
from tests.helpers.sw_client import SwClient, run_drag_item

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ITEMS = sorted(p.stem for p in (FIXTURE / "single_step_drag_benchmark" / "tasks").glob("*.json"))


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("grab-library")
    report = import_checkout(FIXTURE, dest)
    assert not report.skipped, report.skipped
    return dest


@pytest.fixture(scope="module")
def trial_windows(browser_pool: Any, loop_thread: LoopThread) -> Iterator[list[Any]]:
    """Editor windows kept across the items, as `studio regions compute` keeps them (a kept
    window sets an item up as a fresh one does: the test of a window kept from T2_102)."""
    windows: list[Any] = []
    yield windows
    for window in windows:
        loop_thread.run(window.close())


@pytest.mark.parametrize("item_id", ITEMS)
def test_regions_for_the_items_grab_point_agree_with_the_independent_ones(
    item_id: str,
    library: Path,
    tmp_path: Path,
    browser_pool: Any,
    loop_thread: LoopThread,
    trial_windows: list[Any],
) -> None:
    folder = tmp_path / item_id
    shutil.copytree(library / "diagnostics" / "drag" / item_id, folder)
    entry = load_item(folder)
    grab = entry.item.evaluation_config.drag_start_point
    assert grab is not None and grab[0] % 5 and grab[1] % 5  # off the grid, as published
    # no start_at: the item's own grab point is the end region's; the copy is outside the
    # (classic) library, so its edition is named. Windows kept from the items before, as
    # `studio regions compute` keeps them (a kept window sets an item up as the fresh page a
    # published item gets: the test of a window kept from T2_102)
    options = RegionOptions(pages=2, compare=True, edition=Edition.CLASSIC)
    workshop = RegionWorkshop(browser_pool, trial_windows)
    outcome = loop_thread.run(workshop.compute(entry, options))
    result, compared = outcome.result, outcome.compared
    assert result.drag_start_point == (grab[0], grab[1])
    assert compared is not None
    assert compared["start"]["iou"] >= 0.9, compared
    assert compared["end"]["iou"] >= 0.9, compared


def test_a_set_up_that_does_not_reach_the_grab_point_names_it(
    library: Path,
    tmp_path: Path,
    browser_pool: Any,
    loop_thread: LoopThread,
    trial_windows: list[Any],
) -> None:
    """A pan that went elsewhere: the grab point takes no block; nothing is computed."""
    item_id = ITEMS[0]
    folder = tmp_path / item_id
    shutil.copytree(library / "diagnostics" / "drag" / item_id, folder)
    data = json.loads((folder / "item.json").read_text())
    cfg = data["evaluation_config"]
    cfg["drag_start_point"] = [cfg["drag_start_point"][0] + 400.0, cfg["drag_start_point"][1]]
    (folder / "item.json").write_text(json.dumps(data))
    entry = load_item(folder)
    options = RegionOptions(pages=1, edition=Edition.CLASSIC)
    with pytest.raises(
        DragItemError,
        match=rf"item {item_id}: a drag from the item's drag "
        r"start point .* pan_canvas_actions \(1\), workspace_state\)",
    ):
        loop_thread.run(RegionWorkshop(browser_pool, trial_windows).compute(entry, options))


def _edge(region: set[tuple[int, int]], grid: int, most: int) -> list[tuple[int, int]]:
    """At most `most` grid points on both sides of the region's border, spread along it."""
    steps = ((grid, 0), (-grid, 0), (0, grid), (0, -grid))
    near = {(x + dx, y + dy) for x, y in region for dx, dy in steps}
    edge = sorted(
        p
        for p in region | near
        if any(((p[0] + dx, p[1] + dy) in region) != (p in region) for dx, dy in steps)
    )
    return edge[:: max(1, len(edge) // most)][:most]


def test_a_window_kept_from_another_item_sets_the_next_one_up_as_a_fresh_page(
    library: Path, browser_pool: Any, loop_thread: LoopThread, trial_windows: list[Any]
) -> None:
    """T2_103 in a window kept from T2_102 (whose palette click scrolled to Operators and
    whose trial drags were made and undone) and in a fresh window: the same screen (geometry,
    view, palette scroll) and the same verdict of every real drag across both regions' borders
    (a category's scroll animation that outlived the palette's return to its top left T2_103's
    palette 8.1 px lower: start IoU 0.67, end 0.78 in kept windows)."""
    folder = library / "diagnostics" / "drag"
    before, item = load_item(folder / "T2_102"), load_item(folder / "T2_103")
    cfg = item.item.evaluation_config
    assert cfg.drag_start_point is not None
    grab = (float(cfg.drag_start_point[0]), float(cfg.drag_start_point[1]))
    grid = cfg.grid
    starts = _edge({(int(x), int(y)) for x, y in cfg.feasible_start_points}, grid, 8)
    ends = _edge({(int(x), int(y)) for x, y in cfg.feasible_points}, grid, 10)
    pool = browser_pool

    async def verdicts(windows: list[Any]) -> tuple[dict[str, Any], list[tuple[bool, bool]]]:
        async with TrialPages(
            pool.context, pool.server, item, 1, windows, Edition.CLASSIC
        ) as pages:
            dest = await choose_destination(pages, pages.geometry)
            jobs: list[Job] = [((p[0] * 1.0, p[1] * 1.0), dest) for p in starts]
            jobs += [(grab, (p[0] * 1.0, p[1] * 1.0)) for p in ends]
            out = await pages.run(jobs)
            screen = {"geometry": pages.geometry, "view": await pages.lead().ask("viewState")}
        cut = len(starts)
        return screen, [(v.moved, False) for v in out[:cut]] + [
            (False, v.connected) for v in out[cut:]
        ]

    async def both() -> tuple[Any, Any]:
        # the kept window: one the items above were computed in (the module's), if any
        if not trial_windows:
            trial_windows.append(await open_window(pool.context, pool.server, Edition.CLASSIC))
        kept = trial_windows[0]
        fresh = await open_window(pool.context, pool.server, Edition.CLASSIC)
        try:
            async with TrialPages(
                pool.context, pool.server, before, 1, [kept], Edition.CLASSIC
            ) as pages:
                bc = before.item.evaluation_config
                ds, first = bc.drag_start_point or [], (bc.model_extra or {})["first_valid_point"]
                done = await pages.run([((ds[0], ds[1]), (first[0], first[1]))])
                assert done[0].connected  # a drag made and undone, as a computation leaves it
            return await verdicts([kept]), await verdicts([fresh])
        finally:
            await fresh.close()

    (kept_screen, kept_out), (fresh_screen, fresh_out) = loop_thread.run(both())
    assert kept_screen == fresh_screen
    stored = [(p in {tuple(q) for q in cfg.feasible_start_points}, False) for p in starts] + [
        (False, p in {tuple(q) for q in cfg.feasible_points}) for p in ends
    ]
    assert kept_out == fresh_out, (starts, ends, stored)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SwClient]:
    """`studio serve --scratchworld` on a ROOT holding the fixture's items (classic edition)."""
    base = tmp_path_factory.mktemp("grab-served")
    root = base / "ScratchWorld"
    for part in ("single_step_drag_benchmark", "scratch-gui"):
        shutil.copytree(FIXTURE / part, root / part)
    cmd = [sys.executable, "-m", "studio", "serve", "--scratchworld", str(root), "--port", "0"]
    cmd += ["--out", str(base / "runs")]
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        env={**os.environ, "STUDIO_OCR": "off"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    lines = [first]
    if not first.startswith("serving the agent API on "):
        proc.kill()
        pytest.fail(f"studio serve did not start: {first}{proc.stdout.read()}")
    for line in proc.stdout:  # up to the line naming the ScratchWorld routes
        lines.append(line)
        if "ScratchWorld routes" in line:
            break
    drain = threading.Thread(target=lambda: [lines.append(x) for x in proc.stdout or []])
    drain.start()
    client = SwClient(first.split(" on ")[1].split()[0], timeout=180)
    try:
        yield client
    finally:
        client.close()
        proc.terminate()
        proc.wait(timeout=60)
        drain.join(timeout=10)


@pytest.mark.parametrize("item_id", [i for i in ITEMS if i.startswith("T2_")])
def test_the_drag_runner_connects_with_the_published_answer(item_id: str, served: SwClient) -> None:
    """The drag runner's order (set-up, restore, one drag_and_drop, its VM check) with the
    item's answer: its grab point to the first connecting point found for it. The palette
    items (a "set my variable to" into a "repeat until" mouth among them); every item:
    `bench/bench_sw_drag.py tests/fixtures/scratchworld_grab`."""
    item = json.loads(
        (FIXTURE / "single_step_drag_benchmark" / "tasks" / f"{item_id}.json").read_text()
    )
    cfg = item["evaluation_config"]
    run = run_drag_item(served, item, cfg["drag_start_point"], cfg["first_valid_point"])
    assert run.passed, (run.drag, run.details)

"""The published diagnostics in place: a checkout in the published layout, imported whole, its
drag items set up as the published runner sets them up and their stored regions reproduced.

The fixture (tests/fixtures/scratchworld_diag, written by tests/helpers/published_diag) holds
items whose screens need a sprite switch, a palette category click, a palette wheel scroll, a
zoomed and a scrolled code area, and a block taken from the palette; its regions were
flood-filled with the published runner's 15-step drags in the screen a person prepared, so
only a faithful set-up reproduces them.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio import cli
from studio.app.regions import RegionOptions, RegionWorkshop
from studio.services.diagnostics.agents import OracleDragAgent, ScriptedDragAgent
from studio.services.diagnostics.drag.item import DragItemError, load_item, scan_items
from studio.services.diagnostics.drag.page import TrialPages, open_window
from studio.services.diagnostics.drag.run import run_drag
from studio.services.formats.scratchworld.checkout import export_checkout, import_checkout
from tests.helpers.loop_thread import LoopThread
from tests.helpers.published_diag import FIXTURE

CLASSIC_FIXTURE = FIXTURE.parent / "scratchworld_classic"

pytestmark = pytest.mark.browser

# Every kind of set-up step: a sprite switch with a scrolled code area (T1_001); a sprite
# switch, a category click and a palette wheel scroll (T1_002); a zoomed and scrolled code area
# with a reporter dropped into an input (T1_003); a category click and a block dragged out of
# the palette (T2_001).
REPRODUCED = ("T1_001", "T1_002", "T1_003", "T2_001")


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("library")
    report = import_checkout(FIXTURE, dest)
    assert not report.skipped, report.skipped
    return dest


@pytest.fixture(scope="module")
def trial_windows(browser_pool: Any, loop_thread: LoopThread) -> Iterator[list[Any]]:
    """Editor windows shared by the items, as `studio regions compute` shares them."""
    windows: list[Any] = []
    yield windows
    for window in windows:
        loop_thread.run(window.close())


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_checkout_round_trips_byte_for_byte(library: Path, tmp_path: Path) -> None:
    out = tmp_path / "export"
    export_checkout(library, out)
    assert _files(out) == _files(FIXTURE)


@pytest.mark.parametrize("item_id", REPRODUCED)
def test_stored_regions_are_reproduced(
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
    start = entry.item.evaluation_config.drag_start_point
    assert start is not None
    # the end region is for the item's own grab point, as start_at named it before
    workshop = RegionWorkshop(browser_pool, trial_windows)
    outcome = loop_thread.run(workshop.compute(entry, RegionOptions(pages=2, compare=True)))
    compared = outcome.compared
    assert outcome.result.drag_start_point == (start[0], start[1])
    assert compared is not None
    assert compared["start"]["iou"] >= 0.9, compared
    assert compared["end"]["iou"] >= 0.9, compared
    assert entry.screenshot_path.is_file(), "a published item gets the screenshot of its screen"


def test_stored_regions_are_reproduced_on_classic(
    tmp_path: Path, browser_pool: Any, loop_thread: LoopThread
) -> None:
    """An item built on the classic editor (tools/build_classic_drag_items.py), computed in the
    library a ScratchWorld import makes (classic): its regions are the stored ones. A palette
    block: where the copy's drag measures its connections is the edition's own (the whole
    classic fixture: bench/bench_published_regions.py)."""
    library = tmp_path / "library"
    import_checkout(CLASSIC_FIXTURE, library)
    entry = load_item(library / "diagnostics" / "drag" / "T2_001")
    start = entry.item.evaluation_config.drag_start_point
    assert start is not None
    workshop = RegionWorkshop(browser_pool)  # windows of its own; the item's own grab point
    outcome = loop_thread.run(workshop.compute(entry, RegionOptions(pages=2, compare=True)))
    compared = outcome.compared
    assert outcome.result.drag_start_point == (start[0], start[1])
    assert compared is not None
    assert compared["start"]["iou"] >= 0.9, compared
    assert compared["end"]["iou"] >= 0.9, compared


def test_a_setup_click_that_hits_nothing_is_named(
    library: Path,
    tmp_path: Path,
    browser_pool: Any,
    loop_thread: LoopThread,
    trial_windows: list[Any],
) -> None:
    folder = tmp_path / "T1_001"
    shutil.copytree(library / "diagnostics" / "drag" / "T1_001", folder)
    data = json.loads((folder / "item.json").read_text())
    data["evaluation_config"]["switch_sprite_actions"] = [
        {"api": "click", "args": {"x": 1400, "y": 300}}
    ]
    (folder / "item.json").write_text(json.dumps(data))
    entry = load_item(folder)

    async def setup() -> None:
        async with TrialPages(browser_pool.context, browser_pool.server, entry, 1, trial_windows):
            pass

    with pytest.raises(DragItemError, match=r"T1_001: switch_sprite_actions\[0\].*hits nothing"):
        loop_thread.run(setup())


def test_oracle_and_scripted_agents_on_both_diagnostics(
    library: Path,
    tmp_path: Path,
    browser_pool: Any,
    loop_thread: LoopThread,
    trial_windows: list[Any],
) -> None:
    items = tmp_path / "items"
    for item_id in ("T1_002", "T2_001"):  # a canvas stack and a palette block
        shutil.copytree(library / "diagnostics" / "drag" / item_id, items / item_id)
    entries = scan_items(items)
    drags = {}
    for entry in entries:
        cfg = entry.item.evaluation_config
        start, first = cfg.drag_start_point, (cfg.model_extra or {})["first_valid_point"]
        assert start is not None
        drags[entry.item.id] = [{"start": start, "end": first, "_line": 1}]
    runs = tmp_path / "runs"
    if not trial_windows:  # a window the items above were computed in, if any
        trial_windows.append(
            loop_thread.run(open_window(browser_pool.context, browser_pool.server))
        )
    window = trial_windows[0]
    scripted = ScriptedDragAgent(drags)
    oracle = OracleDragAgent({e.item.id: e.item for e in entries})
    for agent in (oracle, scripted):
        done = loop_thread.run(
            run_drag(
                browser_pool.context,
                browser_pool.server,
                entries,
                agent,
                runs / f"{agent.name}-drag",
                windows=[window],
            )
        )
        assert done.summary()["pass@1"] == 100.0, [i.line() for i in done.items]

    qa = library / "diagnostics" / "qa"
    answers = tmp_path / "answers.jsonl"
    truths = {"vp_001": "yes", "vp_002": "Yes, it is", "vp_003": "10.0", "vp_004": "YES"}
    answers.write_text(
        "".join(json.dumps({"task_id": k, "answer": v}) + "\n" for k, v in truths.items())
    )
    assert cli.main(["qa", "run", str(qa), "--agent", "oracle", "--out", str(runs)]) == 0
    cli.main(
        ["qa", "run", str(qa), "--agent", "scripted", "--answers", str(answers), "--out", str(runs)]
    )
    oracle_qa = json.loads(next(runs.glob("oracle-qa-*/summary.json")).read_text())
    scripted_qa = json.loads(next(runs.glob("scripted-qa-*/summary.json")).read_text())
    assert oracle_qa["items"] == 4 and oracle_qa["overall"] == 100.0
    assert scripted_qa["overall"] == 75.0  # the last answer is wrong: there is no glide block

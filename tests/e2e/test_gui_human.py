"""A human baseline session recorded from synthetic input events in the real embedded editor."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtWebEngineCore import QWebEnginePage

from studio.models.agent import EpisodeStatus
from studio.services.core import paths
from studio.services.episodes.human.protocol import ProtocolCard
from studio.services.runs.reports import report_for

pytestmark = [pytest.mark.gui, pytest.mark.browser]

WAIT_MS = 120_000
MOVE_BLOCKS = (
    "Object.values(vm.editingTarget.blocks._blocks)"
    ".filter(b => b.opcode === 'motion_movesteps').length"
)


async def _drag(page: Any, start: tuple[int, int], end: tuple[int, int]) -> None:
    """A participant's drag as input events: press, move in small steps, release.

    The events are dispatched through Chromium's input pipeline (CDP Input.dispatchMouseEvent),
    so the page receives trusted mousedown/mousemove/mouseup exactly as from a real mouse.
    (Qt-level QTest events do not reach QtWebEngine's page under the offscreen platform.)
    """
    await page.mouse.move(*start)
    await page.mouse.down()
    await page.mouse.move(*end, steps=12)
    await page.mouse.up()


def test_a_human_session_is_recorded_from_input_events_and_evaluated(
    qtbot: Any, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    window = boot_window(paths.BUNDLED_TASKS)
    window.resize(1500, 1000)
    scan = run_async(window.wait_library())
    entry = next(t for t in scan.tasks if t.task.id == "create_cat_walk")
    human = window.runs.human
    card = ProtocolCard(participant="P01", time_limit_s=600, notes="test session")
    session = run_async_later(window.runs.human.run(card, [entry]))

    qtbot.waitUntil(lambda: human.driver is not None and human.bar.isVisible(), timeout=WAIT_MS)
    assert "create_cat_walk" in human.bar.text.text()
    # Only the protocol card's editor, instruction, clock, Finish and Give up are reachable.
    for hidden in (window.bar, window.library, window.tabs, window.toolbar, window.menuBar()):
        assert not hidden.isVisible()
    assert not any(a.isEnabled() for a in window.commands.all())
    assert entry.golden_path is not None  # the golden project cannot get into the editor
    assert not run_async(window.open_project_file(entry.golden_path))
    open_file = QWebEnginePage.FileSelectionMode.FileSelectOpen  # File ▸ Load from your computer
    assert window.editor.page.chooseFiles(open_file, [], []) == []
    before = js(window, MOVE_BLOCKS)
    page = window.runs.live.pages.page
    run_async(_drag(page, (84, 136), (520, 300)))
    qtbot.waitUntil(lambda: js(window, MOVE_BLOCKS) == before + 1, timeout=20_000)
    qtbot.waitUntil(lambda: len(human.driver.steps) >= 1, timeout=20_000)
    run_async(page.mouse.click(30, 160))
    qtbot.waitUntil(lambda: len(human.driver.steps) >= 2, timeout=20_000)
    human.bar.finish.click()
    qtbot.waitUntil(session.done, timeout=WAIT_MS)
    folder = session.result()

    recorded = folder / "create_cat_walk"
    run = json.loads((recorded / "run.json").read_text())
    assert run["agent"] == "human" and run["status"] == EpisodeStatus.DONE.value
    assert run["meta"]["protocol"]["participant"] == "P01"
    breaches = [b["what"] for b in run["meta"]["protocol_breaches"]]
    assert len(breaches) == 2 and "golden.sb3" in breaches[0] and "File menu" in breaches[1]
    assert (recorded / "protocol.json").is_file() and (recorded / "final.sb3").is_file()
    assert run["eval"] is not None and run["eval"]["total_tests"] > 0
    steps = [json.loads(line) for line in (recorded / "steps.jsonl").read_text().splitlines()]
    apis = [s["action"]["api"] for s in steps]
    assert apis == ["drag_and_drop", "click", "done"], apis
    drag = steps[0]["action"]["args"]
    assert (drag["start_x"], drag["start_y"], drag["end_x"], drag["end_y"]) == (84, 136, 520, 300)
    assert steps[0]["change"]["added"] and steps[0]["screenshot"]
    assert steps[1]["action"]["args"]["x"] == 30
    assert not human.bar.isVisible() and not window.runs.live.busy
    assert (
        window.bar.isVisible()
        and window.tabs.isVisible()
        and window.commands.open_library.isEnabled()
    )
    panel = window.run_panel  # the recording is shown in the Run tab
    qtbot.waitUntil(lambda: [s.api for s in panel.model.steps] == apis, timeout=10_000)

    report = report_for(folder)
    assert [row.agent for row in report.rows] == ["human"]
    assert report.rows[0].mean_seconds is not None


def run_async_later(coro: Any) -> Any:
    import asyncio

    return asyncio.ensure_future(coro)

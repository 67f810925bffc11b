"""Live runs in the window's own editor: a scripted agent paused, stepped and resumed, and an
episode an external client drives through the API served from the window."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import Mode
from studio.services import paths
from studio.services.agents import ScriptedAgent
from studio.services.env.recorder import read_trajectory
from studio.services.live.controls import RunState
from studio.views.viewer.marks import mark_for
from tests.unit.trajectories.build import step, write_trajectory

pytestmark = [pytest.mark.gui, pytest.mark.browser]

WAIT_MS = 120_000
MOVE_BLOCKS = (
    "Object.values(vm.editingTarget.blocks._blocks)"
    ".filter(b => b.opcode === 'motion_movesteps').length"
)
# Motion is the category shown after the episode's layout; "move (10) steps" is the first
# flyout block, at the top-left of the 1280x720 screen.
DRAG_MOVE_BLOCK = {
    "api": "drag_and_drop",
    "args": {"start_x": 84, "start_y": 136, "end_x": 520, "end_y": 300},
}
CLICK_LOOKS = {"api": "click", "args": {"x": 30, "y": 160}}


def test_scripted_agent_runs_live_then_its_run_opens_replays_compares_and_exports(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    window = boot_window(paths.BUNDLED_TASKS)
    run_async(window.wait_library())
    assert window.library.select_task("create_cat_walk")
    entry = window.library.current_entry()
    before = js(window, MOVE_BLOCKS)
    agent = ScriptedAgent([(DRAG_MOVE_BLOCK, "put a move block out"), (CLICK_LOOKS, "look")])
    run = asyncio.ensure_future(window.runs.run_agent(entry, agent, Mode.PRIMITIVE, paused=True))
    panel, live = window.run_panel, window.runs.live

    # Paused before the first action: it is shown as pending and nothing has happened.
    qtbot.waitUntil(
        lambda: live.controls is not None and live.controls.pending is not None, timeout=WAIT_MS
    )
    assert live.controls.state is RunState.PAUSED
    assert live.controls.pending["api"] == "drag_and_drop"
    assert panel.model.rowCount() == 0
    assert "next: drag_and_drop" in panel.pending.text()
    assert js(window, "window.vm.editingTarget.getName()") == "Cat"  # the task's project

    # Step: exactly one action, in the window's own editor, then paused again.
    panel.step()
    qtbot.waitUntil(lambda: panel.model.rowCount() == 1, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: live.controls.pending is not None, timeout=WAIT_MS)
    assert live.controls.state is RunState.PAUSED
    assert live.controls.pending["api"] == "click"
    assert js(window, MOVE_BLOCKS) == before + 1
    first = panel.model.steps[0]
    assert first.record.ok and first.record.change.added, first.record
    assert panel.detail.step is first and not panel.detail.image.pixmap.isNull()
    assert panel.detail.image.pixmap.width() == 1280  # the benchmark's screen, overlay on it
    assert "added" in panel.detail.change.toPlainText()

    # Resume: the rest runs, the episode ends, is evaluated, and the editor is the window's.
    panel.resume()
    qtbot.waitUntil(run.done, timeout=WAIT_MS)
    result = run.result()
    assert result is not None and not result.ok  # two actions do not solve the task
    assert [s.api for s in panel.model.steps] == ["drag_and_drop", "click", "done"]
    assert "Ended" in panel.title.text()
    assert not live.busy
    assert window.results.result is result
    folder = Path(panel.title.text().split(" in ")[-1].split("<")[0])
    trajectory = read_trajectory(folder)
    assert [s.action["api"] for s in trajectory.steps] == ["drag_and_drop", "click", "done"]
    assert (folder / "obs_0001.json").is_file() and (folder / "step_0001.png").is_file()
    # released: the page has the view's own size again
    qtbot.waitUntil(lambda: js(window, "innerWidth") == window.editor.view.width(), timeout=10_000)

    # Offline: the trajectory opens in the Run tab; the drag is drawn with both ends.
    opened = run_async(window.runs.open(folder))
    assert opened is not None and [s.api for s in panel.model.steps] == [
        "drag_and_drop",
        "click",
        "done",
    ]
    panel.select_row(0)
    mark = mark_for(panel.detail.step)
    assert mark.kind == "drag" and mark.points == [(84, 136), (520, 300)]
    assert mark.box is not None  # the flyout block under the press point
    assert panel.detail.highlighted is not None

    # Replay re-executes the actions live; the two runs compare step by step as the same.
    replayed = run_async(window.runs.replay(), timeout_ms=WAIT_MS)
    assert replayed is not None
    assert js(window, MOVE_BLOCKS) == before + 1  # a fresh initial project, one drag again
    second = live.last_folder
    assert second is not None and second != folder
    dialog = run_async(window.runs.compare(folder, second))
    assert dialog.comparison.first_divergence is None
    assert dialog.steps.rowCount() == 3 and not dialog.image_a.pixmap.isNull()
    dialog.close()

    # Export to one archive; it opens again (as on another machine) with the same steps.
    zipped = run_async(window.runs.export(tmp_path / "run.zip"))
    assert zipped is not None and zipped.is_file()
    reopened = run_async(window.runs.open(zipped))
    assert reopened is not None
    assert [s.record.action for s in reopened.steps] == [s.action for s in trajectory.steps]
    assert reopened.view.folder != second and reopened.view.final_sb3 is not None


def test_a_damaged_trajectory_opens_with_what_is_missing_marked(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any
) -> None:
    folder = write_trajectory(tmp_path / "run", [step(n) for n in range(1, 5)])
    (folder / "step_0002.png").unlink()
    steps = (folder / "steps.jsonl").read_text().splitlines()
    (folder / "steps.jsonl").write_text("\n".join(steps[:-1]) + "\n" + steps[-1][:25])
    window = boot_window(tmp_path / "empty-library", wait_ready=False)
    opened = run_async(window.runs.open(folder))
    assert opened is not None
    panel = window.run_panel
    assert panel.model.rowCount() == 3  # the torn last line is left out, the rest shown
    assert "steps.jsonl" in panel.title.text()  # ...and said so
    panel.select_row(1)
    assert "missing" in panel.detail.caption.text()
    assert "screenshot" in panel.detail.image.placeholder
    assert "missing" in panel.model.data(panel.model.index(1, 5))


def test_an_external_agent_drives_the_window_editor_over_the_api(
    qtbot: Any, boot_window: Callable[..., Any], run_async: Any, js: Any
) -> None:
    from studio.services.api.client import ApiCallError, ApiClient

    window = boot_window(paths.BUNDLED_TASKS)
    run_async(window.wait_library())
    live, panel = window.runs.live, window.run_panel
    live.start_paused = True
    url, token = run_async(live.serve_api(paths.BUNDLED_TASKS))
    client = ApiClient(url, token, timeout_s=120)

    created = run_async(client.call("POST", "/episodes", {"task": "create_cat_walk"}))
    episode_id = created["id"]
    assert live.episode is not None and live.episode.id == episode_id
    assert "over the API" in panel.title.text()
    assert js(window, "window.vm.editingTarget.getName()") == "Cat"  # in the window's editor
    run_async(client.call("GET", f"/episodes/{episode_id}/observation"))
    act = asyncio.ensure_future(
        client.call(
            "POST",
            f"/episodes/{episode_id}/actions",
            {"api": "add_block", "args": {"blockType": "motion_movesteps"}},
        )
    )
    qtbot.waitUntil(lambda: live.controls.pending is not None, timeout=WAIT_MS)
    assert not act.done()  # held at the gate while paused
    panel.step()
    qtbot.waitUntil(act.done, timeout=WAIT_MS)
    assert act.result()["ok"] is True
    assert panel.model.rowCount() == 1 and panel.model.steps[0].record.change.added

    # The client closes its episode: the window says so and keeps what was recorded.
    run_async(client.call("DELETE", f"/episodes/{episode_id}"))
    qtbot.waitUntil(lambda: "closed by its client" in panel.title.text(), timeout=WAIT_MS)
    assert panel.model.rowCount() == 1 and not live.busy
    assert (live.last_folder / "steps.jsonl").is_file()
    try:
        run_async(client.call("GET", f"/episodes/{episode_id}"))
        raise AssertionError("the deleted episode still answers")
    except ApiCallError as exc:
        assert exc.status == 404

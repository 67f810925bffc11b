"""Run ▸ Run campaign… in the real window: the idle agent (no model, no network) plays a tiny
campaign in the window's browser, recorded as `studio run` records one; a campaign cancelled
while its first episode plays stops after it, and its folder resumes the rest."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from studio.app.campaigns import CampaignRequest, open_campaign, plan_episodes
from studio.services.core import paths
from studio.services.runs.campaign import MANIFEST_FILE, RESULTS_FILE
from studio.views.live.campaign_dialog import CampaignDialog

pytestmark = [pytest.mark.gui, pytest.mark.browser]

WAIT_MS = 240_000
TASK = "create_cat_walk"


def _dialog(window: Any, qtbot: Any, out: Path) -> CampaignDialog:
    """The dialog the Run menu opens, on the selected task, the idle agent, 2 steps, `out`."""
    assert window.library.select_task(TASK)
    window.commands.run_campaign.trigger()
    qtbot.waitUntil(lambda: window.findChild(CampaignDialog) is not None, timeout=WAIT_MS)
    dialog = window.findChild(CampaignDialog)
    checked = [
        dialog.tasks.item(i).text()
        for i in range(dialog.tasks.count())
        if dialog.tasks.item(i).checkState().name == "Checked"
    ]
    assert checked == [f"{TASK} (create)"]  # the selection, of the whole library listed
    assert dialog.tasks.count() > 1
    dialog.agent.setCurrentText("idle")
    dialog.steps.setValue(2)
    dialog.out.setText(str(out))
    return dialog


def test_a_campaign_runs_from_the_run_menu_and_is_recorded(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any
) -> None:
    window = boot_window(paths.BUNDLED_TASKS, wait_ready=False)
    run_async(window.wait_library())
    dialog = _dialog(window, qtbot, tmp_path / "runs")
    dialog.run_button.click()
    qtbot.waitUntil(lambda: dialog.open_button.isEnabled(), timeout=WAIT_MS)
    assert dialog.status.text().startswith("SR 0.0% (0/1 finished episodes)"), dialog.status.text()
    assert dialog.progress.value() == dialog.progress.maximum() == 1
    assert f"{TASK}: " in dialog.log.toPlainText()
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert run_dir.name.startswith("idle-composite-")
    manifest = json.loads((run_dir / MANIFEST_FILE).read_text())
    assert manifest["agent"] == "idle" and manifest["settings"]["steps"] == 2
    assert len((run_dir / RESULTS_FILE).read_text().splitlines()) == 1
    run = json.loads((run_dir / TASK / "run.json").read_text())
    assert run["agent"] == "idle" and run["eval"] is not None
    assert run["meta"]["protocol"]["name"] == "studio"
    dialog.reject()  # not playing: it closes
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=10_000)


def test_cancel_stops_after_the_episode_under_way_and_the_folder_resumes(
    qtbot: Any, tmp_path: Path, boot_window: Callable[..., Any], run_async: Any
) -> None:
    window = boot_window(paths.BUNDLED_TASKS, wait_ready=False)
    run_async(window.wait_library())
    out = tmp_path / "runs"
    dialog = _dialog(window, qtbot, out)
    dialog.epochs.setValue(3)
    dialog.run_button.click()
    qtbot.waitUntil(lambda: any(out.glob(f"*/{TASK}/epoch-1/run.json")), timeout=WAIT_MS)
    dialog.cancel_button.click()  # while the first episode plays: Cancel, not Close
    assert dialog.isVisible() and dialog.cancel.is_set()
    qtbot.waitUntil(lambda: dialog.open_button.isEnabled(), timeout=WAIT_MS)
    assert dialog.status.text().startswith("Cancelled: "), dialog.status.text()
    (run_dir,) = out.iterdir()
    played = len((run_dir / RESULTS_FILE).read_text().splitlines())
    assert 1 <= played < 3  # the episode under way finished; not every one played
    request = CampaignRequest(resume=run_dir)
    planned = plan_episodes(open_campaign(request, print), request, print)
    assert planned.finished == played and len(planned.jobs) == 3 - played
    assert f"{3 - played} episode(s) not played" in dialog.status.text()
    shutil.rmtree(out)

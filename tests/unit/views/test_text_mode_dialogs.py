"""The text mode in the window: the Start agent run and Run campaign dialogs take their modes
from the registry, so both offer the text mode and ask for it by its value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.models.agent import Mode
from studio.services.core.store import load_task
from studio.views.live.campaign_dialog import CampaignDialog
from studio.views.viewer.start_run_dialog import StartRunDialog
from tests.helpers.tasks import make_task


def test_both_run_dialogs_offer_the_text_mode(qtbot: Any, tmp_path: Path) -> None:
    start = StartRunDialog("t")
    qtbot.addWidget(start)
    index = start.mode.findData("text")
    assert index >= 0 and start.mode.itemText(index).startswith("Text (the text track")
    start.mode.setCurrentIndex(index)
    assert start.choice().mode is Mode.TEXT
    tasks = [load_task(make_task(tmp_path / "lib" / "a", task_id="create_a"))]
    campaign = CampaignDialog(tasks, "create_a", tmp_path / "runs")
    qtbot.addWidget(campaign)
    campaign.mode.setCurrentText("text")
    assert campaign.mode.currentText() == "text"
    assert Mode(campaign.request().mode) is Mode.TEXT

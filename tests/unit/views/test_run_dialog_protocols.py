"""Issue 42 point 1 in the window: the Start agent run and Run campaign dialogs take the
protocol and its feedback turns, and a protocol's refusal is said in the dialog."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from studio.services.core.store import load_task
from studio.views.live.campaign_dialog import CampaignDialog
from studio.views.viewer.start_run_dialog import StartRunDialog
from tests.helpers.tasks import make_task


def test_the_start_dialog_takes_and_remembers_the_protocol_and_feedback_turns(
    qtbot: Any,
) -> None:
    dialog = StartRunDialog("t")
    qtbot.addWidget(dialog)
    dialog.protocol.setCurrentIndex(dialog.protocol.findData("studio"))
    assert (dialog.choice().protocol, dialog.choice().feedback_turns) == ("studio", 0)
    assert dialog.feedback.specialValueText() == "none"
    dialog.feedback.setValue(2)
    assert dialog.choice().feedback_turns == 2
    dialog.protocol.setCurrentIndex(dialog.protocol.findData("scratchworld"))
    dialog.accept()
    again = StartRunDialog("t")
    qtbot.addWidget(again)
    assert again.choice().protocol == "scratchworld"
    again.protocol.setCurrentIndex(again.protocol.findData("studio"))
    again.accept()  # leave the default for the other tests


def test_the_campaign_dialog_asks_for_feedback_turns_and_says_a_refusal(
    qtbot: Any, tmp_path: Path
) -> None:
    tasks = [load_task(make_task(tmp_path / "lib" / "a", task_id="create_a"))]
    dialog = CampaignDialog(tasks, "create_a", tmp_path / "runs")
    qtbot.addWidget(dialog)
    assert dialog.request().feedback_turns is None  # none: the protocol's default (0)
    dialog.feedback.setValue(2)
    assert dialog.request().feedback_turns == 2
    dialog.protocol.setCurrentIndex(dialog.protocol.findData("scratchworld"))
    assert asyncio.run(dialog.play()) is None
    assert "--feedback-turns: the run runs of protocol scratchworld" in dialog.status.text()
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())

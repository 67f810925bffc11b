"""The campaign dialog's request and refusals, without a browser: what it asks for is what
`studio run` would be asked; a campaign that cannot start says why in the dialog."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from studio.services.core.store import load_task
from studio.views.live.campaign_dialog import CampaignDialog
from tests.helpers.tasks import make_task


def _dialog(qtbot: Any, tmp_path: Path, selected: str | None) -> CampaignDialog:
    tasks = [
        load_task(make_task(tmp_path / "lib" / "a", task_id="create_a")),
        load_task(make_task(tmp_path / "lib" / "b", task_id="debug_b", category="debug")),
    ]
    dialog = CampaignDialog(tasks, selected, tmp_path / "runs")
    qtbot.addWidget(dialog)
    return dialog


def test_the_request_is_the_selected_task_with_the_cli_defaults(qtbot: Any, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, tmp_path, "debug_b")
    request = dialog.request()
    assert request.tasks == [tmp_path / "lib" / "b"]
    assert (request.agent, request.mode, request.epochs, request.steps) == (
        "idle", "composite", 1, None,
    )  # fmt: skip
    assert request.protocol == "studio" and request.out == tmp_path / "runs"
    assert request.actions is None and not dialog.actions_file.isEnabled()
    dialog.epochs.setValue(3)
    dialog.steps.setValue(7)
    dialog.agent.setCurrentText("scripted")
    assert dialog.actions_file.isEnabled()
    dialog.actions_file.setText(str(tmp_path / "acts.json"))
    dialog.tasks.item(0).setCheckState(Qt.CheckState.Checked)
    request = dialog.request()
    assert len(request.tasks) == 2 and (request.epochs, request.steps) == (3, 7)
    assert request.actions == tmp_path / "acts.json"
    assert len(_dialog(qtbot, tmp_path, None).request().tasks) == 2  # none selected: all


def test_a_campaign_that_cannot_start_says_why_in_the_dialog(qtbot: Any, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, tmp_path, "create_a")
    dialog.agent.setCurrentText("scripted")  # without its actions
    assert asyncio.run(dialog.play()) is None
    assert "--agent scripted needs --actions" in dialog.status.text()
    assert dialog.run_button.isEnabled() and not dialog.playing
    for i in range(dialog.tasks.count()):
        dialog.tasks.item(i).setCheckState(Qt.CheckState.Unchecked)
    assert asyncio.run(dialog.play()) is None
    assert dialog.status.text() == "Check at least one task."

"""The Diff tab's Pictures box: both projects' scripts drawn as blocks (the real renderer),
the changed script framed, the text back on untick."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.services.core.sb3 import load_sb3
from studio.views.authoring.diff_view import DiffView

TASKS = Path(__file__).resolve().parents[3] / "tasks"


def _task(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return load_sb3(TASKS / name / "initial.sb3")[1], load_sb3(TASKS / name / "golden.sb3")[1]


def test_pictures_show_both_sides_and_frame_the_change(qtbot: Any) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    view.show_diff(*_task("debug_score_reset"))
    assert view.stack.currentWidget() is view.table
    pane = view.pictures.pane
    view.pictures.toggle.setChecked(True)
    assert view.stack.currentWidget() is pane
    qtbot.waitUntil(lambda: pane.pictures_shown > 0, timeout=60_000)
    comparison = view.comparison
    assert comparison is not None
    left, right = _task("debug_score_reset")
    scripts = sum(
        len([b for b in t["blocks"].values() if isinstance(b, dict) and b.get("topLevel")])
        for project in (left, right)
        for t in project["targets"]
        if ("Stage" if t.get("isStage") else t["name"]) in [d.name for d in comparison.targets]
    )
    assert pane.pictures_shown == scripts
    assert pane.framed == 2  # the changed script: once on each side
    view.pictures.toggle.setChecked(False)
    assert view.stack.currentWidget() is view.table

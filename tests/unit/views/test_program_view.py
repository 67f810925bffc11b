"""The run viewer's Program tab: a final program drawn as blocks (the real renderer), its
block text one untick away, and a run without a readable final project said so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.views.viewer.program_view import NO_PROGRAM, ProgramView
from studio.views.viewer.step_detail import StepDetail

GOLDEN = Path(__file__).resolve().parents[3] / "tasks" / "debug_game_over" / "golden.sb3"


def test_the_final_program_as_pictures_and_as_text(qtbot: Any) -> None:
    view = ProgramView()
    qtbot.addWidget(view)
    view.show_project(GOLDEN)
    assert "// sprite: Bug" in view.text.toPlainText()  # the text is there before the pictures
    qtbot.waitUntil(lambda: view.pane.pictures_shown > 0, timeout=60_000)
    assert view.pane.pictures_shown == 5  # Bug's 3 scripts and Banner's 2
    assert view.pane.framed == 0  # one program: nothing to compare
    assert view.stack.currentWidget() is view.pane
    view.toggle.setChecked(False)
    assert view.stack.currentWidget() is view.text


def test_no_or_a_broken_final_project_is_said(qtbot: Any, tmp_path: Path) -> None:
    detail = StepDetail()
    qtbot.addWidget(detail)
    view = detail.program
    assert view.text.toPlainText() == NO_PROGRAM
    broken = tmp_path / "final.sb3"
    broken.write_bytes(b"not a zip")
    view.show_project(broken)
    assert "final.sb3" in view.text.toPlainText()
    assert view.pane.pictures_shown == 0

"""The library pane's verdict column shows a check recorded by the check-and-record use case,
as `studio check` records it (issue 37, part C point 1)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.app.task_checks import library_verdicts, record_check
from studio.models.check import Verdict
from studio.services.core.store import load_task, scan_library
from studio.views.library.panel import LibraryPanel
from tests.helpers.sample_task import write_sample_task
from tests.unit.authoring.support import passing_check


def test_the_column_shows_a_verdict_recorded_outside_the_window(qtbot: Any, tmp_path: Path) -> None:
    root = tmp_path / "lib"
    write_sample_task(root / "a-task", task_id="a-task")
    write_sample_task(root / "b-task", task_id="b-task")
    entry = load_task(root / "a-task")
    when = datetime(2026, 1, 2, 3, 4, tzinfo=UTC)
    record_check(entry, passing_check("a-task", verdict=Verdict.WEAK, ok=False), None, lambda: when)

    panel = LibraryPanel()
    qtbot.addWidget(panel)
    scan = scan_library(root)
    panel.set_library(root, scan)
    panel.set_checks(library_verdicts(scan.tasks))  # what the window does on reading a library
    assert panel.check_text("a-task").startswith("weak")
    assert panel.check_text("b-task") == "not checked"

"""Issue 31, point 7 (room to see): the first window fits the screen, result names are not cut
beside an empty Error column, and the editor gets its height back after a recorded run."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMainWindow, QSplitter, QTabWidget, QWidget

from studio.models.evaluation import EvalResult, TestDetail
from studio.views.shell import layout as window_layout
from studio.views.shell.results_panel import ResultsPanel
from studio.views.window.pane_memory import PaneMemory, StaleRunGuard

LONG = "the cat glides to the right edge and says it has arrived, in order"


def test_the_first_window_is_never_larger_than_the_screen(qtbot: Any) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    window_layout.restore(window, {})
    area = window.screen().availableGeometry()
    assert window.width() <= area.width() and window.height() <= area.height()
    assert area.contains(window.frameGeometry().topLeft())


def _result(details: list[TestDetail]) -> EvalResult:
    return EvalResult(
        task_id="t", project="p", total_tests=len(details), details=details, success=True
    )


def test_test_names_get_their_room_and_an_empty_error_column_is_hidden(qtbot: Any) -> None:
    panel = ResultsPanel()
    qtbot.addWidget(panel)
    panel.resize(900, 300)
    panel.show()
    panel.show_result(_result([TestDetail(name=LONG, passed=True, duration_ms=3)]))
    table = panel.table
    assert table.isColumnHidden(3)
    assert table.columnWidth(0) >= table.sizeHintForColumn(0)

    panel.show_result(_result([TestDetail(name=LONG, passed=False, error="x is 50")]))
    assert not table.isColumnHidden(3)
    assert table.columnWidth(0) >= min(table.sizeHintForColumn(0), 640)


def _editor_and_tabs(qtbot: Any) -> tuple[QSplitter, QTabWidget, QWidget, QWidget]:
    splitter = QSplitter(Qt.Orientation.Vertical)
    qtbot.addWidget(splitter)
    editor, tabs = QLabel("editor"), QTabWidget()
    task, run = QLabel("task"), QLabel("run")
    tabs.addTab(task, "Task")
    tabs.addTab(run, "Run")
    splitter.addWidget(editor)
    splitter.addWidget(tabs)
    splitter.resize(800, 1000)
    splitter.setSizes([700, 300])
    splitter.show()
    return splitter, tabs, task, run


def test_a_recorded_run_does_not_shrink_the_editor_for_good(qtbot: Any) -> None:
    splitter, tabs, task, run = _editor_and_tabs(qtbot)
    authoring = splitter.sizes()
    panes = PaneMemory(splitter, tabs, run)

    panes.show_run(0.3)
    assert tabs.currentWidget() is run
    assert splitter.sizes()[0] < authoring[0] * 0.6  # the step pictures get the room
    tabs.setCurrentWidget(task)
    assert splitter.sizes() == authoring  # the editor has its height back
    tabs.setCurrentWidget(run)
    assert splitter.sizes()[0] < authoring[0] * 0.6  # and the run view its own


def test_pane_sizes_are_remembered_per_view_across_starts(qtbot: Any) -> None:
    splitter, tabs, task, run = _editor_and_tabs(qtbot)
    panes = PaneMemory(splitter, tabs, run)
    panes.show_run(0.3)
    run_sizes = splitter.sizes()
    tabs.setCurrentWidget(task)
    panes.save()

    splitter2, tabs2, _task2, run2 = _editor_and_tabs(qtbot)
    splitter2.setSizes([500, 500])
    kept = PaneMemory(splitter2, tabs2, run2)  # noqa: F841  (its slot lives with it)
    tabs2.setCurrentWidget(run2)
    assert splitter2.sizes() == run_sizes


def test_the_next_tasks_run_tab_does_not_show_the_old_run(qtbot: Any) -> None:
    _splitter, tabs, task, run = _editor_and_tabs(qtbot)
    selected = {"id": "task_a"}
    cleared: list[str] = []
    guard = StaleRunGuard(tabs, run, lambda: selected["id"], cleared.append, lambda: False)
    tabs.setCurrentWidget(run)
    guard.opened()  # a run of task_a
    tabs.setCurrentWidget(task)
    tabs.setCurrentWidget(run)
    assert cleared == []  # same task: the run stays
    tabs.setCurrentWidget(task)
    selected["id"] = "task_b"
    tabs.setCurrentWidget(run)
    assert cleared == ["No run of task_b shown yet."]


def test_the_editor_zooms_out_to_fit_the_scratch_layout_in_a_small_area(qtbot: Any) -> None:
    """At 1440x900 the editor area is about 1050x470: at zoom 1 the Scratch GUI (laid out for
    1024x640 at least) cut off its sprite-info row; zoomed out, all of it shows."""
    from studio.views.editor.view import EditorView, fit_zoom

    assert fit_zoom(1600, 900) == 1.0
    assert fit_zoom(1056, 470) == round(470 / 640, 2)
    editor = EditorView(None)  # type: ignore[arg-type]  (never started: no server needed)
    qtbot.addWidget(editor)
    editor.resize(1056, 470)
    editor.show()
    qtbot.waitUntil(lambda: editor.view.zoomFactor() < 1.0, timeout=5000)
    assert editor.view.zoomFactor() * 640 <= editor.view.height() + 1
    editor.resize(1400, 800)
    qtbot.waitUntil(lambda: editor.view.zoomFactor() == 1.0, timeout=5000)


def test_the_script_tab_gets_more_lines_and_its_own_remembered_sizes(qtbot: Any) -> None:
    splitter, tabs, task, run = _editor_and_tabs(qtbot)
    script = QLabel("script")
    tabs.addTab(script, "Script")
    authoring = splitter.sizes()
    panes = PaneMemory(splitter, tabs, run, {script: ("script", 0.4)})
    tabs.setCurrentWidget(script)
    assert splitter.sizes()[1] > authoring[1] * 1.5  # the script shows more lines
    splitter.setSizes([200, 800])  # the author wants even more
    tabs.setCurrentWidget(task)
    assert splitter.sizes() == authoring
    tabs.setCurrentWidget(script)
    assert splitter.sizes()[0] <= 205
    panes.save()


def test_a_live_run_gives_the_editor_its_screen_height_without_changing_the_run_view(
    qtbot: Any,
) -> None:
    splitter, tabs, task, run = _editor_and_tabs(qtbot)
    panes = PaneMemory(splitter, tabs, run)
    panes.show_run(0.3)
    recorded = splitter.sizes()
    tabs.setCurrentWidget(task)
    panes.show_live(760)
    assert tabs.currentWidget() is run
    assert splitter.sizes()[0] >= 760  # the 1280x720 screen is not cut off in height
    tabs.setCurrentWidget(task)
    tabs.setCurrentWidget(run)
    assert splitter.sizes() == recorded  # a recorded run is shown as before

"""Issue 31, point 8: Open trajectory and Compare pick runs from a list of the recorded runs
(agent, task, mode, verdict, steps, date) that filters and sorts, not from bare folder
dialogs; a broken run header is listed with its problem."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt

from studio.services.runs.trajectories.catalog import list_runs
from studio.views.viewer.run_list import RunListDialog
from tests.unit.trajectories.build import T0, result, run_info, step, write_trajectory


def _runs(root: Path) -> None:
    write_trajectory(
        root / "oracle-run",
        [step(1), step(2)],
        run=run_info("cat_walk", agent="oracle", steps=2, eval=result("cat_walk", {"a": True})),
    )
    write_trajectory(
        root / "random-run",
        [step(1)],
        run=run_info(
            "rain",
            agent="random",
            steps=1,
            started_at=T0 + timedelta(hours=1),
            eval=result("rain", {"a": False, "b": True}),
        ),
    )
    session = root / "session-1" / "rain"
    write_trajectory(session, [step(1)], run=run_info("rain", agent="human", steps=1))
    (root / "torn").mkdir()
    (root / "torn" / "run.json").write_text("{not json")


def test_the_catalog_lists_every_run_newest_first_with_its_verdict(tmp_path: Path) -> None:
    _runs(tmp_path)
    rows = list_runs(tmp_path)
    by_folder = {r.folder.name: r for r in rows}
    assert set(by_folder) == {"oracle-run", "random-run", "rain", "torn"}
    assert rows[0].folder.name == "random-run"
    assert by_folder["oracle-run"].verdict == "PASS 1/1"
    assert by_folder["random-run"].verdict == "FAIL 1/2"
    assert by_folder["rain"].agent == "human" and by_folder["rain"].verdict == "done"
    assert "run.json: not a valid run header" in by_folder["torn"].problem


def test_one_run_is_picked_from_a_filtered_list(qtbot: Any, tmp_path: Path) -> None:
    _runs(tmp_path)
    dialog = RunListDialog(tmp_path, pick=1)
    qtbot.addWidget(dialog)
    assert dialog.proxy.rowCount() == 4
    dialog.filter.setText("oracle")
    assert dialog.proxy.rowCount() == 1
    dialog.table.selectRow(0)
    dialog._accept_if_ready()
    assert dialog.chosen == [tmp_path / "oracle-run"]


def test_runs_sort_by_steps_and_two_are_picked_for_compare_in_order(
    qtbot: Any, tmp_path: Path
) -> None:
    _runs(tmp_path)
    dialog = RunListDialog(tmp_path, pick=2)
    qtbot.addWidget(dialog)
    dialog.table.sortByColumn(4, Qt.SortOrder.DescendingOrder)
    top = dialog.proxy.index(0, 1).data()
    assert top == "cat_walk"  # the run with the most steps
    select = dialog.table.selectionModel()
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    dialog.filter.setText("rain")
    first, second = dialog.proxy.index(1, 0), dialog.proxy.index(0, 0)
    expected = [dialog.rows[dialog.proxy.mapToSource(i).row()].folder for i in (first, second)]
    select.select(first, flags)
    select.select(second, flags)
    dialog._accept_if_ready()
    assert dialog.chosen == expected  # A is the run picked first

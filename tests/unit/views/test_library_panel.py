"""The library tree groups tasks by category, filters by search and lists load errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.services.core.store import scan_library
from studio.views.library.panel import LibraryPanel
from tests.helpers.sample_task import write_broken_task, write_sample_task


def _texts(panel: LibraryPanel) -> list[list[str]]:
    tree = panel.tree
    out = []
    for i in range(tree.topLevelItemCount()):
        group = tree.topLevelItem(i)
        out.append(
            [group.text(0)]
            + [
                group.child(j).text(0)
                for j in range(group.childCount())
                if not group.child(j).isHidden()
            ]
        )
    return out


def _library(tmp_path: Path) -> Path:
    write_sample_task(tmp_path / "lib" / "b-task", task_id="b-task")
    write_sample_task(tmp_path / "lib" / "a-task", task_id="a-task")
    write_broken_task(tmp_path / "lib" / "zz-broken")
    return tmp_path / "lib"


def test_tasks_grouped_by_category_with_errors_last(qtbot: Any, tmp_path: Path) -> None:
    root = _library(tmp_path)
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.set_library(root, scan_library(root))
    texts = _texts(panel)
    assert texts[0] == ["create (2)", "a-task", "b-task"]
    assert texts[1][0] == "Failed to load (1)"
    assert texts[1][1].startswith("zz-broken/task.json: invalid JSON at line 3")
    assert "2 tasks, 1 errors" in panel.root_label.text()


def test_selecting_announces_the_task_or_the_error(qtbot: Any, tmp_path: Path) -> None:
    root = _library(tmp_path)
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.set_library(root, scan_library(root))
    with qtbot.waitSignal(panel.task_selected) as selected:
        assert panel.select_task("b-task")
    assert selected.args[0].task.id == "b-task"
    errors_group = panel.tree.topLevelItem(1)
    with qtbot.waitSignal(panel.load_error_selected) as error:
        panel.tree.setCurrentItem(errors_group.child(0))
    assert str(root / "zz-broken" / "task.json") in error.args[0]


def test_search_hides_tasks_that_do_not_match(qtbot: Any, tmp_path: Path) -> None:
    root = _library(tmp_path)
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.set_library(root, scan_library(root))
    panel.search.setText("B-TA")
    assert _texts(panel)[0] == ["create (2)", "b-task"]
    panel.search.setText("green flag")  # matches the instruction of both
    assert _texts(panel)[0] == ["create (2)", "a-task", "b-task"]


def test_a_missing_library_is_shown_as_an_error(qtbot: Any, tmp_path: Path) -> None:
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.show_error(tmp_path / "nope", "does not exist")
    assert panel.current_entry() is None
    assert panel.root_label.text().endswith("nope: does not exist")

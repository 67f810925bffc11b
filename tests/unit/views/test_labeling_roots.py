"""The labeling window works on the library the studio was opened for (issue 31, point 3)."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from studio.services.core import paths
from studio.services.diagnostics.qa.item import QaSet
from studio.views.diagnostics.window import DRAG_ROOT, QA_ROOT, diagnostics_roots, labeling_window

CONN = "qa_conn_say_gap"


def test_a_library_elsewhere_labels_its_own_diagnostics(qtbot: Any, tmp_path: Path) -> None:
    library = tmp_path / "library"
    shipped = QaSet(paths.DIAGNOSTICS / "qa")
    mine = QaSet(library / "diagnostics" / "qa")
    item = shipped.load(CONN)
    mine.save(item, shipped.screenshot_path(item.screenshot).read_bytes())
    shell: Any = SimpleNamespace(parent=None, editor=None, pages=None)

    window = labeling_window(None, shell, library)
    qtbot.addWidget(window)
    assert window.drag.root == library / "diagnostics" / "drag"
    assert window.qa.root == library / "diagnostics" / "qa"
    assert [i.task_id for i in window.qa.model.items] == [CONN]  # not the shipped set
    assert paths.DIAGNOSTICS not in window.qa.root.parents
    assert labeling_window(window, shell, library) is window  # reused for the same library

    other = labeling_window(window, shell, tmp_path / "other")  # the library changed
    qtbot.addWidget(other)
    assert other is not window and other.qa.root == tmp_path / "other" / "diagnostics" / "qa"
    given = labeling_window(other, shell, library, qa_root=tmp_path / "qa")
    qtbot.addWidget(given)
    assert given.qa.root == tmp_path / "qa"  # folders given on the command line win


def test_the_bundled_library_labels_the_shipped_diagnostics(tmp_path: Path) -> None:
    assert diagnostics_roots(paths.BUNDLED_TASKS) == (DRAG_ROOT, QA_ROOT)
    copy = shutil.copytree(paths.BUNDLED_TASKS / "create_cat_walk", tmp_path / "t" / "x")
    assert diagnostics_roots(copy.parent)[1] == tmp_path / "t" / "diagnostics" / "qa"

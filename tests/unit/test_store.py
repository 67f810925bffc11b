"""Reading and writing task folders: validation names the file and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.models.task import Category, ReviewState
from studio.services.core.errors import TaskFileError
from studio.services.core.store import load_task, save_task, scan_library
from tests.helpers.tasks import make_task


def test_load_valid_task(tmp_path: Path) -> None:
    entry = load_task(make_task(tmp_path / "t"))
    assert entry.task.id == "cat_walks"
    assert entry.task.category is Category.CREATE
    assert entry.task.review.state is ReviewState.DRAFT
    assert entry.golden_path == tmp_path / "t" / "golden.sb3"


def test_missing_field_names_file_and_field(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "t")
    data = json.loads((folder / "task.json").read_text())
    del data["instruction"]
    (folder / "task.json").write_text(json.dumps(data))
    with pytest.raises(TaskFileError) as info:
        load_task(folder)
    assert info.value.field == "instruction"
    assert "task.json" in str(info.value)
    assert "required field is missing" in str(info.value)


def test_bad_category_is_named(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "t", category="paint")
    with pytest.raises(TaskFileError) as info:
        load_task(folder)
    assert info.value.field == "category"


def test_invalid_json_names_line(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "t")
    (folder / "task.json").write_text('{"id": "x",\n "category": }')
    with pytest.raises(TaskFileError, match="invalid JSON at line 2"):
        load_task(folder)


def test_missing_project_file_is_named(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "t")
    (folder / "golden.sb3").unlink()
    with pytest.raises(TaskFileError) as info:
        load_task(folder)
    assert info.value.field == "golden_project"
    assert "golden.sb3" in str(info.value)


def test_not_a_task_folder(tmp_path: Path) -> None:
    with pytest.raises(TaskFileError, match="not a task folder"):
        load_task(tmp_path)


def test_project_names_must_stay_inside_the_folder(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "t", initial_project="../elsewhere.sb3")
    with pytest.raises(TaskFileError) as info:
        load_task(folder)
    assert info.value.field == "initial_project"


def test_save_round_trips_and_is_atomic(tmp_path: Path) -> None:
    entry = load_task(make_task(tmp_path / "t"))
    entry.task.instruction = "Walk to the right."
    save_task(entry)
    again = load_task(entry.folder)
    assert again.task == entry.task
    leftovers = [p.name for p in entry.folder.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_scan_library_keeps_good_tasks_and_reports_bad(tmp_path: Path) -> None:
    make_task(tmp_path / "good", task_id="good")
    bad = make_task(tmp_path / "bad", task_id="bad")
    (bad / "task.json").write_text("{}")
    scan = scan_library(tmp_path)
    assert [e.task.id for e in scan.tasks] == ["good"]
    assert len(scan.errors) == 1
    assert "bad" in str(scan.errors[0].path)

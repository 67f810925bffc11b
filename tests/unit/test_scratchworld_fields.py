"""Export, import gives back every field the studio knows of a task, the published ones and
those kept beside them (studio.services.formats.scratchworld.tasks.studio_fields); a published set's
files gain nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.task import Task
from studio.services.core.store import load_task, save_task
from studio.services.formats.scratchworld.tasks import export_scratchworld, import_scratchworld
from studio.services.formats.scratchworld.tasks.record import METADATA_KEY
from studio.services.formats.scratchworld.tasks.studio_fields import STUDIO_KEY
from tests.helpers.tasks import make_task

# Fields that name files export renames, or the record import itself adds: compared apart.
FILE_FIELDS = {"initial_project", "golden_project"}


def _authored(folder: Path) -> Task:
    make_task(folder, task_id="cat_walks", category="extend")
    entry = load_task(folder)
    task = entry.task.model_copy(deep=True)
    task.description = "the cat walks"
    task.author = "ada"
    task.metadata = task.metadata.model_validate({
        "difficulty": "hard", "tags": ["motion", "loops"], "block_types_used": ["motion_movesteps"],
        "blocks_changed": 3, "source": "workshop 4",
    })  # fmt: skip
    task.review = task.review.model_validate({
        "state": "approved",
        "history": [{"state": "in_review", "by": "ada", "at": datetime(2026, 11, 1, tzinfo=UTC)},
                    {"state": "approved", "by": "bo", "at": datetime(2026, 11, 2, tzinfo=UTC),
                     "comment": "fine"}],
    })  # fmt: skip
    task.equivalent_mutants = [_mutant()]
    save_task(type(entry)(task, folder))
    return task


def _mutant() -> Any:
    from studio.models.task import EquivalentMutant

    return EquivalentMutant(mutant_id="SDM-Cat-1", operator="SDM", block_id="b1",
                            description="wait 0 removed", reason="same walk", by="ada")  # fmt: skip


def _fields(task: Task) -> dict[str, Any]:
    data = task.model_dump(mode="json")
    data["metadata"].pop(METADATA_KEY, None)
    ev = data["evaluation"]
    ev.pop("script"), ev.pop("helper_library")  # file names export chooses
    return {k: v for k, v in data.items() if k not in FILE_FIELDS}


def test_export_then_import_keeps_every_field(tmp_path: Path) -> None:
    before = _authored(tmp_path / "lib" / "cat_walks")
    export_scratchworld(tmp_path / "lib", tmp_path / "sw")
    (task_file,) = (tmp_path / "sw" / "tasks").glob("*/cat_walks.json")
    published = json.loads(task_file.read_text())
    assert published[STUDIO_KEY]["author"] == "ada"
    for key in ("name", "description", "type", "instruction", "initial_project", "evaluation"):
        assert key in published  # the published fields stay as they are
    report = import_scratchworld(tmp_path / "sw", tmp_path / "back")
    assert report.imported == ["cat_walks"], report.skipped
    after = load_task(tmp_path / "back" / "cat_walks").task
    assert _fields(after) == _fields(before)
    assert set(_fields(before)) == set(Task.model_fields) - FILE_FIELDS  # every field compared
    assert after.metadata.tags == ["motion", "loops"] and after.metadata.blocks_changed == 3


def test_a_task_with_nothing_of_the_studio_s_exports_no_studio_key(tmp_path: Path) -> None:
    make_task(tmp_path / "lib" / "plain", task_id="plain")
    export_scratchworld(tmp_path / "lib", tmp_path / "sw")
    (task_file,) = (tmp_path / "sw" / "tasks").glob("*/plain.json")
    assert STUDIO_KEY not in json.loads(task_file.read_text())

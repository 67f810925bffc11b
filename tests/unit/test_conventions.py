"""The two calling conventions of evaluation scripts, as task files declare them.

Studio-authored tasks: `config` from task.json and `evaluation.timeout_s` as the whole-script
limit. Tasks imported from a ScratchWorld set: `config = {}` and the published 120 s cap, the
set's own timeout kept (for export) but limiting nothing. File names a task file gives are plain
names, on import and in task.json.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from studio.models.task import Convention, Task
from studio.services.core.store import load_task
from studio.services.formats.scratchworld.tasks import import_scratchworld
from tests.helpers.scratchworld_fixture import SPECS, build_set
from tests.helpers.tasks import make_task

RAW = {s.raw["name"]: s.raw for s in SPECS}


def test_studio_task_keeps_its_contract(tmp_path: Path) -> None:
    task = load_task(make_task(tmp_path / "t", timeout_s=7)).task
    assert task.evaluation.convention is Convention.STUDIO
    assert task.eval_config() == {"task_id": "cat_walks", "category": "create", "timeout": 7,
                                  "test_cases": []}  # fmt: skip
    limit = task.evaluation.limit()
    assert (limit.seconds, limit.source) == (7, "evaluation.timeout_s in task.json")


def test_imported_task_is_called_as_the_published_service_calls_it(tmp_path: Path) -> None:
    sw = build_set(tmp_path / "sw")
    assert import_scratchworld(sw.root, tmp_path / "lib").ok
    task = load_task(tmp_path / "lib" / "compute_sum_list").task
    assert task.evaluation.convention is Convention.SCRATCHWORLD
    assert task.eval_config() == {}
    limit = task.evaluation.limit()
    assert limit.seconds == 120 and "published ScratchWorld convention" in limit.source
    # the set's own number is kept, for export, and does not limit the script
    assert task.evaluation.timeout_s == RAW["compute_sum_list"]["evaluation"]["timeout"]


def test_a_script_name_that_is_a_path_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    sw = build_set(tmp_path / "sw")
    bad = sw.tasks / "create" / "cat_walk_right.json"
    raw = json.loads(bad.read_text())
    raw["evaluation"]["function"] = "../../../escaped"
    bad.write_text(json.dumps(raw))
    (sw.root / "escaped.js").write_text("module.exports = () => ({success: true});")
    report = import_scratchworld(sw.root, tmp_path / "lib")
    problem = next(p for p in report.skipped if p.file == bad)
    assert problem.field == "evaluation.function" and "plain file name" in problem.problem
    assert not (tmp_path / "lib" / "cat_walk_right").exists()
    assert sorted(p.name for p in tmp_path.rglob("escaped*")) == ["escaped.js"]
    assert len(report.imported) == len(sw.ids) - 1


@pytest.mark.parametrize("name", ["../x.js", "a/b.js", "..", "", "x\\y.js"])
def test_task_json_names_only_files_inside_the_folder(name: str) -> None:
    with pytest.raises(ValidationError):
        Task.model_validate(
            {"id": "t", "category": "create", "instruction": "i", "evaluation": {"script": name}}
        )
    with pytest.raises(ValidationError):
        Task.model_validate(
            {"id": "t", "category": "create", "instruction": "i",
             "evaluation": {"helper_library": name}}
        )  # fmt: skip

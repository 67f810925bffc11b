"""Our published-style ScratchWorld set: layout, counts, golden naming, fields, import."""

from __future__ import annotations

import io
import json
import re
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from studio.services.core.sb3 import check_sb3
from studio.services.formats.scratchworld.tasks import (
    export_scratchworld,
    import_scratchworld,
    match_golden,
)
from tests.helpers.published_set import (
    COUNTS,
    PublishedSet,
    build_published_set,
    reference_projects,
)

FIELDS = {"name", "description", "type", "instruction", "initial_project", "evaluation"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[PublishedSet, float]:
    root = tmp_path_factory.mktemp("published") / "set"
    started = time.process_time()
    ps = build_published_set(root)
    return ps, time.process_time() - started


@pytest.fixture(scope="module")
def ps(built: tuple[PublishedSet, float]) -> PublishedSet:
    return built[0]


def _task(ps: PublishedSet, task_id: str) -> dict[str, Any]:
    category = ps.tasks[task_id].category
    return json.loads((ps.tasks_dir / category / f"{task_id}.json").read_text(encoding="utf-8"))


def _project(ps: PublishedSet, name: str) -> dict[str, Any]:
    return check_sb3((ps.projects_dir / name).read_bytes(), name)


def test_counts_per_category_and_the_task_list(ps: PublishedSet) -> None:
    assert {c: len(ids) for c, ids in ps.by_category.items()} == COUNTS
    assert len(ps.tasks) == 83
    listed = json.loads((ps.tasks_dir / "all_tasks.json").read_text(encoding="utf-8"))
    assert listed == {c: [f"{i}.json" for i in ps.by_category[c]] for c in COUNTS}
    on_disk = {p.relative_to(ps.tasks_dir).as_posix() for p in ps.tasks_dir.glob("*/*.json")}
    assert on_disk == {f"{t.category}/{i}.json" for i, t in ps.tasks.items()}


def test_every_task_file_has_the_published_fields(ps: PublishedSet) -> None:
    for task_id, expected in ps.tasks.items():
        path = ps.tasks_dir / expected.category / f"{task_id}.json"
        text = path.read_text(encoding="utf-8")
        raw = json.loads(text)
        assert text == json.dumps(raw, indent=2, ensure_ascii=False) + "\n"
        compute = expected.category == "compute"
        assert set(raw) == FIELDS | ({"test_cases"} if compute else set()), task_id
        assert raw["name"] == task_id and raw["type"] == expected.category
        assert all(isinstance(raw[k], str) and raw[k] for k in FIELDS - {"evaluation"})
        assert set(raw["evaluation"]) == {"function", "timeout", "description"}
        assert raw["evaluation"]["function"] == task_id
        assert (ps.projects_dir / raw["initial_project"]).is_file()
        if compute:
            assert 3 <= len(raw["test_cases"]) <= 6
            assert all(set(c) == {"input", "output"} for c in raw["test_cases"])


def test_golden_naming_family_goldens_and_tasks_without_golden(ps: PublishedSet) -> None:
    goldens = sorted(p.name for p in ps.projects_dir.glob("*_golden.sb3"))
    for task_id, expected in ps.tasks.items():
        assert match_golden(task_id, goldens) == expected.golden, task_id
        if expected.golden is None:
            assert expected.golden_passes is None
        elif expected.category == "debug":
            family = expected.golden.removesuffix("_golden.sb3")
            assert task_id.startswith(family + "_") and family != task_id
        else:
            assert expected.golden == f"{task_id}_golden.sb3"
    families = {t.golden for t in ps.tasks.values() if t.category == "debug"}
    assert len(families) == 5
    assert 2 <= len(ps.without_golden) <= 3
    shared = [t for t in ps.tasks.values() if t.initial == "default_project.sb3"]
    assert {t.category for t in shared} == {"create", "compute"} and len(shared) >= 10
    assert not any(t.initial_passes for t in ps.tasks.values())
    assert set(reference_projects()) == set(ps.without_golden)


def test_scripts_follow_the_published_protocol(ps: PublishedSet) -> None:
    helper = (ps.scripts_dir / "evaluation_utils.js").read_text(encoding="utf-8")
    assert "class EvaluationUtils" in helper and "module.exports = EvaluationUtils;" in helper
    scripts = {p.stem for p in ps.scripts_dir.glob("*.js")} - {"evaluation_utils"}
    assert scripts == set(ps.tasks)
    shorter = 0
    for task_id, expected in ps.tasks.items():
        source = (ps.scripts_dir / f"{task_id}.js").read_text(encoding="utf-8")
        assert 60 <= len(source.splitlines()) <= 150, task_id
        assert "module.exports = async (vm, config, cleanup) =>" in source
        assert "config." not in source and "config[" not in source  # the service passes {}
        assert 3 <= len(re.findall(r"EU\.runCase\(vm, ", source)) <= 6, task_id
        assert "cleanup();" in source and "return EU.summarize(details);" in source
        assert 0 < expected.program_s < 100
        assert expected.program_s + 2 * len(re.findall("runCase", source)) <= expected.limits_s
        shorter += expected.timeout < expected.limits_s
        if expected.category == "compute":
            for case in _task(ps, task_id)["test_cases"]:
                assert json.dumps(case["output"]) in source, (task_id, case)
    assert shorter >= 40  # the task file's timeout is not a whole-script limit
    total = sum(t.program_s for t in ps.tasks.values())
    assert 12 <= total / len(ps.tasks) <= 30


def test_projects_load_and_use_bitmaps_backdrops_and_sounds(ps: PublishedSet) -> None:
    bitmap_tasks, resolution_one, sounds, backdrops = set(), set(), set(), set()
    for task_id, expected in ps.tasks.items():
        for name in filter(None, (expected.initial, expected.golden)):
            project = _project(ps, name)
            for target in project["targets"]:
                pngs = [c for c in target["costumes"] if c["dataFormat"] == "png"]
                if pngs:
                    bitmap_tasks.add(task_id)
                if any(c["bitmapResolution"] == 1 for c in pngs):
                    resolution_one.add(task_id)
                if target["sounds"]:
                    sounds.add(task_id)
                if target["isStage"] and len(target["costumes"]) > 1:
                    backdrops.add(task_id)
    assert len(bitmap_tasks) >= 15 and len(resolution_one) >= 5
    assert len(sounds) >= 2 and len(backdrops) >= 3
    with zipfile.ZipFile(io.BytesIO((ps.projects_dir / "default_project.sb3").read_bytes())) as z:
        names = json.loads(z.read("project.json"))["targets"]
    assert [t["name"] for t in names] == ["Stage", "Sprite1"]


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_the_studio_imports_all_83_tasks_and_exports_them_back(
    ps: PublishedSet, tmp_path: Path
) -> None:
    report = import_scratchworld(ps.root, tmp_path / "lib")
    assert report.ok and not report.skipped and not report.warnings
    assert sorted(report.imported) == sorted(ps.tasks)
    assert sorted(report.without_golden) == sorted(ps.without_golden)
    assert report.task_lists == ["all_tasks.json"]
    export_scratchworld(tmp_path / "lib", tmp_path / "out")
    assert _tree(tmp_path / "out") == _tree(ps.root)


def test_building_is_fast_and_a_subset_can_be_built(
    built: tuple[PublishedSet, float], tmp_path: Path
) -> None:
    assert built[1] < 5.0  # CPU seconds for the whole set
    few = build_published_set(tmp_path / "few", ["pong_starter_wrong_key", "compute_factorial"])
    assert few.ids() == ["pong_starter_wrong_key", "compute_factorial"]
    assert sorted(p.name for p in few.projects_dir.glob("*.sb3")) == [
        "compute_factorial_golden.sb3",
        "default_project.sb3",
        "pong_starter_golden.sb3",
        "pong_starter_wrong_key.sb3",
    ]
    with pytest.raises(KeyError):
        build_published_set(tmp_path / "bad", ["no_such_task"])

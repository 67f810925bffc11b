"""ScratchWorld import and export: golden matching, mapping, bad input, lossless round trip."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from studio.cli import main
from studio.models.errors import StudioError
from studio.models.task import Category, Convention
from studio.services.core import paths
from studio.services.core.store import load_task, save_task, scan_library
from studio.services.formats.scratchworld.tasks import (
    export_scratchworld,
    import_scratchworld,
    match_golden,
)
from tests.helpers.scratchworld_fixture import (
    BROKEN,
    SPECS,
    ScratchWorldSet,
    add_broken,
    build_set,
)
from tests.helpers.tasks import cat_project, make_task

RAW = {s.raw["name"]: s.raw for s in SPECS}


@pytest.fixture
def sw(tmp_path: Path) -> ScratchWorldSet:
    return build_set(tmp_path / "sw")


@pytest.fixture
def lib(sw: ScratchWorldSet, tmp_path: Path) -> Path:
    report = import_scratchworld(sw.root, tmp_path / "lib")
    assert report.ok, report.skipped
    return tmp_path / "lib"


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


# ---- golden matching ---------------------------------------------------------------------


def test_golden_exact_name_wins_over_family() -> None:
    names = ["pong_golden.sb3", "pong_starter_golden.sb3", "pong_starter_x_golden.sb3"]
    assert match_golden("pong_starter_x", names) == "pong_starter_x_golden.sb3"


def test_golden_longest_family_prefix() -> None:
    names = ["pong_golden.sb3", "pong_starter_golden.sb3", "default.sb3"]
    assert match_golden("pong_starter_paddle_moving_error", names) == "pong_starter_golden.sb3"
    assert match_golden("pong_other", names) == "pong_golden.sb3"


def test_golden_family_only_at_word_boundary() -> None:
    assert match_golden("catch_game", ["cat_golden.sb3"]) is None
    assert match_golden("cat-walk", ["cat_golden.sb3"]) == "cat_golden.sb3"
    assert match_golden("dog", ["_golden.sb3", "dog.sb3"]) is None


# ---- import ------------------------------------------------------------------------------


def test_import_maps_fields(sw: ScratchWorldSet, lib: Path) -> None:
    task = load_task(lib / "compute_sum_list").task
    raw = RAW["compute_sum_list"]
    assert task.category is Category.COMPUTE
    assert task.instruction == raw["instruction"] and task.description == raw["description"]
    assert task.initial_project == "compute_sum_list.sb3"
    assert task.golden_project == "compute_sum_list_golden.sb3"
    assert task.evaluation.script == "compute_sum_list.js"
    assert task.evaluation.timeout_s == 25
    assert task.evaluation.description == raw["evaluation"]["description"]
    assert task.evaluation.helper_library == "evaluation_utils.js"
    assert [c.model_dump() for c in task.evaluation.test_cases] == raw["evaluation"]["test_cases"]
    record = (task.metadata.model_extra or {})["scratchworld"]
    assert record["original"] == raw
    assert record["file"] == "compute/compute_sum_list.json"


def test_import_copies_files_and_helper(sw: ScratchWorldSet, lib: Path) -> None:
    helper = (sw.scripts / "evaluation_utils.js").read_bytes()
    for spec in SPECS:
        entry = load_task(lib / spec.raw["name"])
        assert entry.initial_path.read_bytes() == (sw.projects / spec.initial).read_bytes()
        assert (
            entry.script_path.read_bytes() == (sw.scripts / f"{spec.raw['name']}.js").read_bytes()
        )
        assert entry.helper_path.read_bytes() == helper
        if spec.golden:
            assert entry.golden_path is not None
            assert entry.golden_path.read_bytes() == (sw.projects / spec.golden).read_bytes()


def test_shared_initial_and_family_golden(lib: Path) -> None:
    right, left = load_task(lib / "cat_walk_right"), load_task(lib / "cat_walk_left")
    assert right.initial_path.name == left.initial_path.name == "default_project.sb3"
    assert right.initial_path.read_bytes() == left.initial_path.read_bytes()
    a = load_task(lib / "pong_starter_paddle_moving_error")
    b = load_task(lib / "pong_starter_ball_speed_error")
    assert a.task.golden_project == b.task.golden_project == "pong_starter_golden.sb3"
    assert a.initial_path.read_bytes() != b.initial_path.read_bytes()


def test_task_without_golden(sw: ScratchWorldSet, tmp_path: Path) -> None:
    report = import_scratchworld(sw.root, tmp_path / "lib")
    assert report.without_golden == ["cat_walk_left"]
    assert load_task(tmp_path / "lib" / "cat_walk_left").task.golden_project is None


def test_millisecond_timeout_is_converted_and_recorded(sw: ScratchWorldSet, tmp_path: Path) -> None:
    report = import_scratchworld(sw.root, tmp_path / "lib")
    task = load_task(tmp_path / "lib" / "cat_extend_jump").task
    assert task.evaluation.timeout_s == 15
    assert (task.metadata.model_extra or {})["scratchworld"]["timeout_unit"] == "ms"
    assert any("15000 read as milliseconds" in w for w in report.warnings)


def test_task_lists_are_recorded(sw: ScratchWorldSet, tmp_path: Path) -> None:
    report = import_scratchworld(sw.root, tmp_path / "lib")
    assert report.task_lists == ["all_tasks.json", "debug_subset.json"]
    task = load_task(tmp_path / "lib" / "pong_starter_ball_speed_error").task
    lists = (task.metadata.model_extra or {})["scratchworld"]["task_lists"]
    assert [(m["file"], m["key"], m["entry"]) for m in lists] == [
        ("all_tasks.json", "debug", "pong_starter_ball_speed_error.json"),
        ("debug_subset.json", "debug", "pong_starter_ball_speed_error"),
    ]


def test_bad_input_is_reported_and_the_rest_imported(sw: ScratchWorldSet, tmp_path: Path) -> None:
    add_broken(sw)
    report = import_scratchworld(sw.root, tmp_path / "lib")
    assert sorted(report.imported) == sorted(sw.ids)
    problems = {p.file.name: p for p in report.skipped}
    assert set(problems) == {
        "bad_json.json",
        "no_instruction.json",
        "missing_script.json",
        "missing_initial.json",
        "broken.sb3",
    }
    assert "invalid JSON at line 1" in problems["bad_json.json"].problem
    assert problems["no_instruction.json"].field == "instruction"
    assert "missing_script.js" in problems["missing_script.json"].problem
    assert problems["missing_initial.json"].field == "initial_project"
    assert "nowhere.sb3" in problems["missing_initial.json"].problem
    assert "not a zip" in problems["broken.sb3"].problem
    assert "broken_sb3.json" in problems["broken.sb3"].problem
    assert len(report.skipped) == len(BROKEN)
    assert not (tmp_path / "lib" / "broken_sb3").exists()
    assert [p.name for p in (tmp_path / "lib").iterdir() if p.name.startswith(".")] == []


def test_wrong_values_name_the_field(sw: ScratchWorldSet, tmp_path: Path) -> None:
    raw = dict(RAW["compute_sum_list"], name="bad id!", type="compute")
    (sw.tasks / "compute" / "bad_id.json").write_text(json.dumps(raw))
    raw = dict(RAW["cat_walk_right"], name="paint_task", type="paint")
    (sw.tasks / "create" / "paint_task.json").write_text(json.dumps(raw))
    report = import_scratchworld(sw.root, tmp_path / "lib")
    fields = {p.file.name: p.field for p in report.skipped}
    assert fields == {"bad_id.json": "name", "paint_task.json": "type"}


def test_timeout_too_long_names_the_field(sw: ScratchWorldSet, tmp_path: Path) -> None:
    raw = RAW["cat_walk_right"]
    raw = {**raw, "evaluation": {**raw["evaluation"], "timeout": 5_000_000}}
    (sw.tasks / "create" / "cat_walk_right.json").write_text(json.dumps(raw))
    report = import_scratchworld(sw.root, tmp_path / "lib")
    assert [(p.file.name, p.field) for p in report.skipped] == [
        ("cat_walk_right.json", "evaluation.timeout")
    ]
    assert "5000000 read as milliseconds" in " ".join(report.warnings)
    assert "cat_walk_right" not in report.imported


def test_unusable_input_raises(tmp_path: Path, sw: ScratchWorldSet) -> None:
    with pytest.raises(StudioError, match="tasks folder"):
        import_scratchworld(tmp_path / "nothing", tmp_path / "lib")
    for folder in sw.tasks.iterdir():
        if folder.is_dir():
            shutil.rmtree(folder)
    with pytest.raises(StudioError, match="no task files"):
        import_scratchworld(sw.root, tmp_path / "lib")


def test_folder_overrides(sw: ScratchWorldSet, tmp_path: Path) -> None:
    moved = tmp_path / "elsewhere"
    shutil.move(sw.scripts, moved / "scripts")
    shutil.move(sw.projects, moved / "projects")
    report = import_scratchworld(
        sw.root, tmp_path / "lib", scripts_dir=moved / "scripts", projects_dir=moved / "projects"
    )
    assert report.ok and sorted(report.imported) == sorted(sw.ids)


def test_existing_task_folder_is_kept_unless_overwrite(sw: ScratchWorldSet, lib: Path) -> None:
    entry = load_task(lib / "cat_walk_right")
    save_task(type(entry)(entry.task.model_copy(update={"instruction": "mine"}), entry.folder))
    report = import_scratchworld(sw.root, lib)
    assert len(report.skipped) == len(sw.ids) and "already exists" in report.skipped[0].problem
    assert load_task(lib / "cat_walk_right").task.instruction == "mine"
    report = import_scratchworld(sw.root, lib, overwrite=True)
    assert report.ok
    assert (
        load_task(lib / "cat_walk_right").task.instruction == RAW["cat_walk_right"]["instruction"]
    )


# ---- export and round trip ---------------------------------------------------------------


def test_export_reproduces_the_original_set(sw: ScratchWorldSet, lib: Path, tmp_path: Path) -> None:
    report = export_scratchworld(lib, tmp_path / "out")
    assert report.ok and report.warnings == []
    assert _tree(tmp_path / "out") == sw.files()


def test_json_spelling_is_kept(sw: ScratchWorldSet, tmp_path: Path) -> None:
    compact = json.dumps(RAW["compute_sum_list"], separators=(",", ":"))
    (sw.tasks / "compute" / "compute_sum_list.json").write_text(compact)
    escaped = json.dumps(RAW["cat_extend_jump"], indent="\t", ensure_ascii=True)
    (sw.tasks / "extend" / "cat_extend_jump.json").write_text(escaped + "\n")
    import_scratchworld(sw.root, tmp_path / "lib")
    export_scratchworld(tmp_path / "lib", tmp_path / "out")
    assert _tree(tmp_path / "out") == sw.files()


def test_second_import_is_identical(lib: Path, tmp_path: Path) -> None:
    export_scratchworld(lib, tmp_path / "out")
    again = import_scratchworld(tmp_path / "out", tmp_path / "lib2")
    assert again.ok
    assert _tree(tmp_path / "lib2") == _tree(lib)


def test_our_edits_win_and_the_rest_stays(lib: Path, tmp_path: Path) -> None:
    entry = load_task(lib / "cat_extend_jump")
    ev = entry.task.evaluation.model_copy(update={"timeout_s": 12.5})
    task = entry.task.model_copy(update={"instruction": "Jump higher.", "evaluation": ev})
    save_task(type(entry)(task, entry.folder))
    export_scratchworld(lib, tmp_path / "out")
    out = json.loads((tmp_path / "out/tasks/extend/cat_extend_jump.json").read_text())
    raw = RAW["cat_extend_jump"]
    assert list(out) == list(raw)
    assert out["instruction"] == "Jump higher."
    assert out["evaluation"]["timeout"] == 12500  # the set's unit
    assert out["difficulty_level"] == "easy"
    assert {k: v for k, v in out.items() if k not in {"instruction", "evaluation"}} == {
        k: v for k, v in raw.items() if k not in {"instruction", "evaluation"}
    }
    again = import_scratchworld(tmp_path / "out", tmp_path / "lib2")
    assert again.ok
    reread = load_task(tmp_path / "lib2" / "cat_extend_jump").task
    assert reread.instruction == "Jump higher." and reread.evaluation.timeout_s == 12.5


def test_changed_test_cases_stay_where_they_were(lib: Path, tmp_path: Path) -> None:
    entry = load_task(lib / "compute_sum_list")
    cases = [{"input": [2, 2], "output": 4}]
    ev = entry.task.evaluation.model_validate(
        {**entry.task.evaluation.model_dump(), "test_cases": cases}
    )
    save_task(type(entry)(entry.task.model_copy(update={"evaluation": ev}), entry.folder))
    export_scratchworld(lib, tmp_path / "out")
    out = json.loads((tmp_path / "out/tasks/compute/compute_sum_list.json").read_text())
    assert out["evaluation"]["test_cases"] == cases and "test_cases" not in out


def test_changed_shared_golden_gets_its_own_name(
    sw: ScratchWorldSet, lib: Path, tmp_path: Path
) -> None:
    family = (sw.projects / "pong_starter_golden.sb3").read_bytes()
    edited = load_task(lib / "pong_starter_ball_speed_error")
    assert edited.golden_path is not None
    changed = cat_project(55)
    edited.golden_path.write_bytes(changed)
    report = export_scratchworld(lib, tmp_path / "out")
    static = tmp_path / "out" / "scratch-gui" / "static"
    assert (static / "pong_starter_golden.sb3").read_bytes() == family
    assert (static / "pong_starter_ball_speed_error_golden.sb3").read_bytes() == changed
    assert report.warnings == [
        "pong_starter_ball_speed_error: pong_starter_golden.sb3 is taken by another task's "
        "different file; written as pong_starter_ball_speed_error_golden.sb3"
    ]
    import_scratchworld(tmp_path / "out", tmp_path / "lib2")
    a = load_task(tmp_path / "lib2" / "pong_starter_ball_speed_error")
    b = load_task(tmp_path / "lib2" / "pong_starter_paddle_moving_error")
    assert a.golden_path is not None and a.golden_path.read_bytes() == changed
    assert b.golden_path is not None and b.golden_path.read_bytes() == family


def test_changed_shared_initial_gets_its_own_name(
    sw: ScratchWorldSet, lib: Path, tmp_path: Path
) -> None:
    changed = cat_project(3)
    load_task(lib / "cat_walk_left").initial_path.write_bytes(changed)
    report = export_scratchworld(lib, tmp_path / "out")
    static = tmp_path / "out" / "scratch-gui" / "static"
    assert (static / "default_project.sb3").read_bytes() == sw.files()[
        "scratch-gui/static/default_project.sb3"
    ]
    assert (static / "cat_walk_left.sb3").read_bytes() == changed
    out = json.loads((tmp_path / "out/tasks/create/cat_walk_left.json").read_text())
    assert out["initial_project"] == "cat_walk_left.sb3"
    assert any("default_project.sb3 is taken" in w for w in report.warnings)


def test_category_change_moves_file_and_list_entry(lib: Path, tmp_path: Path) -> None:
    entry = load_task(lib / "cat_walk_left")
    save_task(
        type(entry)(entry.task.model_copy(update={"category": Category.EXTEND}), entry.folder)
    )
    export_scratchworld(lib, tmp_path / "out")
    tasks = tmp_path / "out" / "tasks"
    assert not (tasks / "create" / "cat_walk_left.json").exists()
    assert json.loads((tasks / "extend" / "cat_walk_left.json").read_text())["type"] == "extend"
    lists = json.loads((tasks / "all_tasks.json").read_text())
    assert lists["create"] == ["cat_walk_right.json"]
    assert lists["extend"] == ["cat_extend_jump.json", "cat_walk_left.json"]


def test_export_of_our_own_tasks(tmp_path: Path) -> None:
    make_task(tmp_path / "src" / "cat_walks")
    report = export_scratchworld(tmp_path / "src", tmp_path / "out")
    assert report.ok and report.exported == ["cat_walks"]
    out = tmp_path / "out"
    raw = json.loads((out / "tasks/create/cat_walks.json").read_text())
    assert raw == {
        "name": "cat_walks",
        "description": "",
        "type": "create",
        "instruction": "Make the Cat walk to x 100.",
        "initial_project": "cat_walks.sb3",
        "evaluation": {
            "function": "cat_walks",
            "timeout": 20,
            "description": "",
            "convention": "studio",
        },
    }
    assert any("written for the studio's convention" in w for w in report.warnings)
    assert json.loads((out / "tasks/all_tasks.json").read_text())["create"] == ["cat_walks.json"]
    helper = out / "scratch-bench-api/api/evaluation_scripts/evaluation_utils.js"
    assert helper.read_bytes() == paths.HELPER_LIBRARY.read_bytes()
    golden = (tmp_path / "src" / "cat_walks" / "golden.sb3").read_bytes()
    assert (out / "scratch-gui/static/cat_walks_golden.sb3").read_bytes() == golden
    back = import_scratchworld(out, tmp_path / "lib")
    assert back.ok
    task = load_task(tmp_path / "lib" / "cat_walks").task
    assert task.golden_project == "cat_walks_golden.sb3" and task.evaluation.timeout_s == 20
    # the task keeps its own contract through export and import
    assert task.evaluation.convention is Convention.STUDIO
    assert task.eval_config()["timeout"] == 20 and task.evaluation.limit().seconds == 20


def test_mixed_export_adds_new_task_to_complete_lists(lib: Path, tmp_path: Path) -> None:
    make_task(lib / "pong_starter_new", task_id="pong_starter_new", category="debug")
    (lib / "pong_starter_new" / "golden.sb3").unlink()
    data = json.loads((lib / "pong_starter_new" / "task.json").read_text())
    (lib / "pong_starter_new" / "task.json").write_text(
        json.dumps({**data, "golden_project": None})
    )
    report = export_scratchworld(lib, tmp_path / "out")
    tasks = tmp_path / "out" / "tasks"
    assert (
        json.loads((tasks / "all_tasks.json").read_text())["debug"][-1] == "pong_starter_new.json"
    )
    assert json.loads((tasks / "debug_subset.json").read_text()) == {
        "debug": ["pong_starter_ball_speed_error"]
    }
    assert any("studio's helper library" in w for w in report.warnings)
    assert any("import will take pong_starter_golden.sb3" in w for w in report.warnings)


def test_export_refuses_a_non_empty_folder(lib: Path, tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine")
    with pytest.raises(StudioError, match="not an empty folder"):
        export_scratchworld(lib, tmp_path / "out")
    assert export_scratchworld(lib, tmp_path / "out", overwrite=True).ok
    assert (tmp_path / "out" / "keep.txt").read_text() == "mine"


def test_export_skips_broken_task_folders(lib: Path, tmp_path: Path) -> None:
    (lib / "cat_walk_left" / "task.json").write_text("{")
    report = export_scratchworld(lib, tmp_path / "out")
    assert not report.ok and "cat_walk_left" not in report.exported
    assert (
        report.skipped[0].file.name == "task.json" and "invalid JSON" in report.skipped[0].problem
    )
    assert len(scan_library(tmp_path / "out").tasks) == 0  # the layout is not a library


# ---- command line ------------------------------------------------------------------------


def _run(*argv: str) -> int:
    return main(list(argv))


def test_cli_import_and_export(
    sw: ScratchWorldSet, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run("import", "scratchworld", str(sw.root), str(tmp_path / "lib")) == 0
    out = capsys.readouterr().out
    assert "imported 6 tasks" in out and "without golden project: cat_walk_left" in out
    assert (
        _run("export", "scratchworld", str(tmp_path / "lib"), str(tmp_path / "out"), "--json") == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert sorted(data["exported"]) == sorted(sw.ids)
    assert _tree(tmp_path / "out") == sw.files()


def test_cli_skipped_files_exit_1(
    sw: ScratchWorldSet, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add_broken(sw)
    code = _run("import", "scratchworld", str(sw.root), str(tmp_path / "lib"), "--json")
    assert code == 1
    data = json.loads(capsys.readouterr().out)
    assert {Path(p["file"]).name for p in data["skipped"]} >= {"bad_json.json", "broken.sb3"}
    code = _run("import", "scratchworld", str(sw.root), str(tmp_path / "lib2"))
    err = capsys.readouterr().err
    assert code == 1 and "bad_json.json: invalid JSON" in err and "Traceback" not in err


def test_cli_unusable_input_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run("import", "scratchworld", str(tmp_path / "none"), str(tmp_path / "lib")) == 2
    assert "none/tasks: the tasks folder of the set does not exist" in capsys.readouterr().err
    assert _run("export", "scratchworld", str(tmp_path / "none"), str(tmp_path / "out")) == 2
    assert "does not exist" in capsys.readouterr().err

"""`studio stats`: a set's figures defined as the ScratchWorld paper's (modified and added blocks
per category, block types and their categories, instruction lengths, tests, kill rates, review
states), by hand on small tasks and against the Diff tab's own counts on the bundled library."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio import cli
from studio.services.authoring.set_stats import block_category, set_stats
from studio.services.core import paths
from studio.services.core.store import scan_library
from tests.helpers.sample_task import project_json, sb3_bytes
from tests.helpers.tasks import cat_project, make_task


def _library(root: Path) -> Path:
    # create: from nothing to the Cat's three blocks (3 added, 3 modified)
    a = make_task(root / "a", task_id="create_a", metadata={"difficulty": "easy"})
    (a / "initial.sb3").write_bytes(sb3_bytes(project_json({})))
    # debug: one number changed (1 modified, 0 added)
    make_task(root / "b", task_id="debug_b", category="debug",
              review={"state": "approved", "history": []})  # fmt: skip
    # compute: as create, with 2 test cases and a 6-word instruction
    c = make_task(root / "c", task_id="compute_c", category="compute",
                  instruction="Say the sum of two numbers.",
                  evaluation={"script": "evaluate.js", "timeout_s": 20,
                              "test_cases": [{"input": 1, "output": 1},
                                             {"input": 2, "output": 3}]})  # fmt: skip
    (c / "initial.sb3").write_bytes(sb3_bytes(project_json({})))
    (c / "golden.sb3").write_bytes(cat_project(5))
    return root


def test_figures_by_hand(tmp_path: Path) -> None:
    tasks = scan_library(_library(tmp_path / "lib")).tasks
    stats = set_stats(tasks, {"debug_b": {"id": "debug_b", "kill_rate": 0.5,
                                          "golden": {"total_tests": 2}}})  # fmt: skip
    overall = stats["overall"]
    assert stats["tasks"] == 3 and list(stats["categories"]) == ["create", "debug", "compute"]
    assert overall["modified_blocks"] == {"mean": 2.33, "max": 3}
    assert overall["added_blocks"] == {"mean": 2.0, "max": 3}
    assert stats["categories"]["compute"]["added_blocks"] == {"mean": 3.0, "max": 3}
    assert stats["categories"]["debug"]["modified_blocks"] == {"mean": 1.0, "max": 1}
    assert overall["block_types"] == 3 and overall["block_type_names"] == [
        "event_whenflagclicked", "motion_changexby", "motion_gotoxy",
    ]  # fmt: skip
    assert overall["block_categories"] == {"Events": 1, "Motion": 2}
    assert overall["block_category_count"] == 2
    assert overall["difficulty"] == {"easy": 1, "unset": 2}
    assert overall["review_states"] == {"approved": 1, "draft": 2}
    assert overall["instruction_words"] == {"mean": 6.67, "max": 7, "min": 6}
    assert overall["tests_per_task"] == {"mean": 2.0, "max": 2, "min": 2, "known": 2}
    assert overall["kill_rate"] == {"mean": 0.5, "max": 0.5, "min": 0.5, "known": 1}
    assert stats["problems"] == []


def test_block_categories_follow_the_palette() -> None:
    assert [block_category(o) for o in ("data_setvariableto", "procedures_call",
            "argument_reporter_string_number", "pen_clear", "operator_add")] == [
        "Variables", "My Blocks", "My Blocks", "Pen", "Operators",
    ]  # fmt: skip


def test_bundled_library_matches_the_diff_tabs_counts() -> None:
    tasks = scan_library(paths.BUNDLED_TASKS).tasks
    stats = set_stats(tasks)
    by_id = {row["id"]: row for row in stats["per_task"]}
    assert len(by_id) == len(tasks) >= 12
    for task in tasks:
        meta = task.task.metadata
        if meta.blocks_changed is not None:
            assert by_id[task.task.id]["modified_blocks"] == meta.blocks_changed, task.task.id
        assert by_id[task.task.id]["block_types"] == meta.block_types_used, task.task.id


def test_cli_prints_json_and_names_an_empty_library(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lib = _library(tmp_path / "lib")
    assert cli.main(["stats", str(lib), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["categories"]["create"]["modified_blocks"]["max"] == 3
    assert cli.main(["stats", str(lib)]) == 0
    assert "3 block types across 2 categories" in capsys.readouterr().out
    (tmp_path / "empty").mkdir()
    assert cli.main(["stats", str(tmp_path / "empty")]) == 2
    assert "holds no task folder" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("[]")
    assert cli.main(["stats", str(lib), "--checks", str(tmp_path / "bad.json")]) == 2
    assert "has no 'tasks' list" in capsys.readouterr().err

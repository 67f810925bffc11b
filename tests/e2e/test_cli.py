"""The command line, run as a user would: exit codes, JSON shape, messages for bad input.

The first test starts `python -m studio eval` as a process of its own (the exit status a shell
sees); the others run the same command lines in the test's process (`studio_here`: the same
parser, handler, output and exit code, without one more interpreter start-up each)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import studio, studio_here
from tests.helpers.tasks import make_task

pytestmark = pytest.mark.browser


def test_eval_prints_tests_and_rates(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "t")
    out = studio("eval", str(folder))
    assert out.returncode == 0, out.stderr
    assert "PASS  flag moves the Cat to x 100" in out.stdout
    assert "SR 1.00  PSR 1.00" in out.stdout
    assert "page ready" in out.stdout


def test_eval_json_of_failing_project(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "t")
    out = studio_here("eval", str(folder), "--project", str(folder / "initial.sb3"), "--json")
    assert out.returncode == 1
    data = json.loads(out.stdout)
    assert data["success"] is False and data["passed_tests"] == 1 and data["total_tests"] == 2
    assert data["sr"] == 0.0 and data["psr"] == 0.5
    assert {"name", "passed", "timeout", "duration_ms", "error", "meta"} <= set(data["details"][0])


def test_eval_bad_task_json_exits_non_zero(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "t")
    (folder / "task.json").write_text('{"id": "t", "category": "create"}')
    out = studio_here("eval", str(folder))
    assert out.returncode == 2
    assert "task.json" in out.stderr and "instruction" in out.stderr
    assert "Traceback" not in out.stderr


def test_eval_broken_project_exits_non_zero(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "t")
    bad = tmp_path / "bad.sb3"
    bad.write_text("nope")
    out = studio_here("eval", str(folder), "--project", str(bad))
    assert out.returncode == 2
    assert "bad.sb3" in out.stdout and "not a zip" in out.stdout


@pytest.fixture(scope="module")
def checked_library(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any]]:
    """One `studio check --json` (one browser) of a library holding a good task, a sound debug
    task, a debug task whose initial project passes, and a folder with a broken task.json."""
    lib = tmp_path_factory.mktemp("check") / "lib"
    make_task(lib / "good", task_id="good")
    make_task(lib / "debug_ok", task_id="debug_ok", category="debug")
    weak = make_task(lib / "weak", task_id="weak", category="debug")
    (weak / "initial.sb3").write_bytes((weak / "golden.sb3").read_bytes())
    broken = make_task(lib / "broken", task_id="broken")
    (broken / "task.json").write_text("{")
    out = studio_here("check", str(lib), "--json", "--mutants", "0", "--reruns", "1")
    return out.returncode, json.loads(out.stdout)


def test_check_json_reports_each_task(checked_library: tuple[int, dict[str, Any]]) -> None:
    code, data = checked_library
    assert code == 1  # the broken folder (and the weak task) make the library invalid
    by_id = {t["id"]: t for t in data["tasks"]}
    assert by_id["good"]["ok"] and by_id["good"]["golden_passed"]
    assert by_id["debug_ok"]["ok"] and by_id["debug_ok"]["initial_failed"]
    assert not by_id["broken"]["ok"] and "invalid JSON" in by_id["broken"]["errors"][0]
    assert data["summary"]["tasks"] == 4 and data["summary"]["ok"] == 2


def test_check_records_each_verdict_for_the_window_library(
    checked_library: tuple[int, dict[str, Any]],
) -> None:
    """The window's verdict column reads what `studio check` recorded (issue 37, part C)."""
    from studio.app.task_checks import library_verdicts
    from studio.services.core.store import scan_library

    _code, data = checked_library
    lib = Path(next(t for t in data["tasks"] if t["id"] == "good")["folder"]).parent
    shown = {
        i: verdict for i, (verdict, _when) in library_verdicts(scan_library(lib).tasks).items()
    }
    assert shown == {"good": "valid", "debug_ok": "valid", "weak": "invalid"}


def test_check_debug_task_whose_initial_passes_is_invalid(
    checked_library: tuple[int, dict[str, Any]],
) -> None:
    code, data = checked_library
    task = next(t for t in data["tasks"] if t["id"] == "weak")
    assert code == 1 and not task["ok"] and task["verdict"] == "invalid"
    assert task["initial_failed"] is False and "bug is not caught" in task["errors"][0]

"""`studio import/export scratchworld` as a user runs them (the command lines, in the test's
process; as processes of their own in tests/e2e/test_published_set.py), and an imported task
evaluated in the real browser with the set's own helper library installed as
window.EvaluationUtils."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.services.core.store import load_task
from tests.helpers.cli import studio_here
from tests.helpers.scratchworld_fixture import build_set

pytestmark = pytest.mark.browser


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_imported_tasks_pass_on_golden_with_the_sets_helpers(
    tmp_path: Path,
    evaluate,  # type: ignore[no-untyped-def]
) -> None:
    sw = build_set(tmp_path / "sw")
    out = studio_here("import", "scratchworld", str(sw.root), str(tmp_path / "lib"), "--json")
    assert out.returncode == 0, out.stderr
    assert sorted(json.loads(out.stdout)["imported"]) == sorted(sw.ids)

    entry = load_task(tmp_path / "lib" / "cat_walk_right")
    golden = evaluate(entry, entry.golden_path)
    assert golden.error is None, golden.error
    assert [d.name for d in golden.details if d.passed] == [
        "helpers are the set's own",
        "green flag moves the Cat to x 100",
    ]
    assert golden.success
    initial = evaluate(entry, entry.initial_path)
    assert initial.error is None and not initial.success
    assert "x is 0" in (initial.details[1].error or "")

    for task_id in ("pong_starter_paddle_moving_error", "compute_sum_list"):
        entry = load_task(tmp_path / "lib" / task_id)
        result = evaluate(entry, entry.golden_path)
        assert result.error is None and result.success, (task_id, result.details)

    back = studio_here("export", "scratchworld", str(tmp_path / "lib"), str(tmp_path / "out"))
    assert back.returncode == 0, back.stderr
    assert "exported 6 tasks" in back.stdout
    assert _tree(tmp_path / "out") == sw.files()


def test_helper_declared_as_class_loads(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    from studio.services.formats.scratchworld.tasks import import_scratchworld

    sw = build_set(tmp_path / "sw", helper_style="class")
    assert import_scratchworld(sw.root, tmp_path / "lib").ok
    entry = load_task(tmp_path / "lib" / "cat_walk_right")
    result = evaluate(entry, entry.golden_path)
    assert result.error is None, result.error
    assert result.success

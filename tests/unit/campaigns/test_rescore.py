"""Re-scoring logic with a fake judge: test-by-test changes, hashes, episodes it cannot judge."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studio.models.agent import EpisodeStatus, Mode
from studio.models.errors import StudioError
from studio.models.evaluation import EvalResult, TestDetail
from studio.models.trajectory import FINAL_PROJECT, RUN_FILE, RunInfo
from studio.services.core.store import TaskFolder, load_task
from studio.services.runs import campaign
from studio.services.runs.rescore import compare, rescore
from tests.helpers.tasks import make_task


def _result(tests: dict[str, bool]) -> EvalResult:
    passed = sum(tests.values())
    return EvalResult(
        task_id="t", project="final.sb3", success=passed == len(tests), passed_tests=passed,
        total_tests=len(tests), partial_success_rate=passed / len(tests),
        details=[TestDetail(name=n, passed=p, error=None if p else f"{n} broke")
                 for n, p in tests.items()],
    )  # fmt: skip


def test_compare_names_each_test_that_moved() -> None:
    before = _result({"a": True, "b": True, "gone": False})
    after = _result({"a": True, "b": False, "new": True})
    changes = [(c.name, c.before, c.after, c.error) for c in compare(before, after)]
    assert changes == [
        ("b", True, False, "b broke"),
        ("gone", False, None, None),
        ("new", None, True, None),
    ]
    assert compare(before, before) == []


def test_rescore_reports_changes_hashes_and_what_it_cannot_judge(tmp_path: Path) -> None:
    task = load_task(make_task(tmp_path / "lib" / "a", task_id="create_a"))
    run_dir = tmp_path / "run"
    campaign.write_manifest(run_dir, campaign.new_manifest([task], "x", Mode.COMPOSITE, 2, 0))
    stored = _result({"a": True, "b": True})
    for epoch, final in ((1, True), (2, False)):
        folder = run_dir / "create_a" / f"epoch-{epoch}"
        folder.mkdir(parents=True)
        if final:
            (folder / FINAL_PROJECT).write_bytes(b"sb3")
        run = RunInfo(
            episode_id="e", task_id="create_a", mode=Mode.COMPOSITE, started_at=datetime.now(UTC),
            status=EpisodeStatus.DONE, eval=stored, meta={"epoch": epoch},
        )  # fmt: skip
        (folder / RUN_FILE).write_text(run.model_dump_json())
    task.script_path.write_text(task.script_path.read_text() + "\n// stricter\n")
    judged: list[tuple[str, Path]] = []

    async def judge(entry: TaskFolder, project: Path) -> EvalResult:
        judged.append((entry.task.id, project))
        return _result({"a": True, "b": False})

    out = asyncio.run(rescore(run_dir, judge))
    first, second = out.episodes
    assert judged == [("create_a", run_dir / "create_a" / "epoch-1" / FINAL_PROJECT)]
    assert first.script_changed is True and first.changed
    assert first.line() == (
        "CHANGED create_a: PASS 2/2 -> FAIL 1/2 (script changed): 'b' passed -> failed (b broke)"
    )
    assert (
        second.problem
        == f"{run_dir / 'create_a' / 'epoch-2' / FINAL_PROJECT}: no final project to judge"
    )
    assert [e.task_id for e in out.changed] == ["create_a"]
    with pytest.raises(StudioError, match="elsewhere: does not exist"):
        asyncio.run(rescore(run_dir, judge, tmp_path / "elsewhere"))
    (tmp_path / "elsewhere").mkdir()
    out = asyncio.run(rescore(run_dir, judge, tmp_path / "elsewhere"))
    assert all("no task create_a" in (e.problem or "") for e in out.episodes)
    assert json.loads(out.model_dump_json())["episodes"][0]["before"]["success"] is True

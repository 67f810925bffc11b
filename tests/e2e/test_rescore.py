"""Re-scoring a stored episode in the real browser: the same script gives the same verdict, a
changed script changes it, and the change is told test by test with the script's new hash."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from studio.models.agent import EpisodeStatus, Mode
from studio.models.evaluation import EvalResult
from studio.models.trajectory import FINAL_PROJECT, RUN_FILE, RunInfo
from studio.services.core.store import TaskFolder, load_task
from studio.services.runs import campaign
from studio.services.runs.rescore import rescore
from studio.services.runtime.evaluator import Evaluator
from tests.helpers.loop_thread import LoopThread

ROOT = Path(__file__).resolve().parents[2]


def test_rescore_with_a_changed_script(
    tmp_path: Path, loop_thread: LoopThread, browser_pool: object
) -> None:
    task = load_task(shutil.copytree(ROOT / "tasks" / "create_cat_walk", tmp_path / "lib" / "cw"))
    evaluator = Evaluator(browser_pool)  # type: ignore[arg-type]

    async def judge(entry: TaskFolder, project: Path) -> EvalResult:
        return await evaluator.evaluate(entry, project)

    run_dir = tmp_path / "run"
    campaign.write_manifest(run_dir, campaign.new_manifest([task], "oracle", Mode.COMPOSITE, 1, 0))
    episode = run_dir / task.task.id
    episode.mkdir()
    shutil.copy(task.golden_path, episode / FINAL_PROJECT)  # type: ignore[arg-type]
    stored = loop_thread.run(judge(task, episode / FINAL_PROJECT))
    assert stored.ok and stored.total_tests >= 3
    now = datetime.now(UTC)
    run = RunInfo(
        episode_id="e", task_id=task.task.id, task_folder=str(task.folder), mode=Mode.COMPOSITE,
        agent="oracle", started_at=now, ended_at=now, status=EpisodeStatus.DONE, eval=stored,
    )  # fmt: skip
    (episode / RUN_FILE).write_text(run.model_dump_json())

    same = loop_thread.run(rescore(run_dir, judge))
    (entry,) = same.episodes
    assert entry.script_changed is False and not entry.changed and entry.problem is None

    script = task.script_path.read_text()
    assert "approx(cat.x, 50)" in script
    task.script_path.write_text(script.replace("approx(cat.x, 50)", "approx(cat.x, 60)", 1))
    changed = loop_thread.run(rescore(run_dir, judge, tmp_path / "lib"))
    (entry,) = changed.episodes
    assert entry.script_changed is True and entry.changed
    assert entry.before.success and entry.after is not None and not entry.after.success
    assert entry.after.passed == stored.passed_tests - 1
    (test,) = entry.tests
    assert (test.name, test.before, test.after) == ("the Cat ends at x: 50, y: 0", True, False)
    assert test.error and "expected (50, 0)" in test.error
    assert changed.scripts[task.task.id]["now"] == campaign.script_hash(task.script_path)
    assert entry.line().startswith("CHANGED create_cat_walk: PASS 4/4 -> FAIL 3/4 (script changed)")
    # the stored verdict stays as it was
    assert RunInfo.model_validate_json((episode / RUN_FILE).read_text()).eval == stored

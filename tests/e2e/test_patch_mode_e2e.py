"""Patch mode in the real editor and VM: the oracle solves a forged task, idle does not, and a
patch that does not apply changes nothing in the page; a bundled debug task without a bug
record is solved with the initial -> golden patch. The repair measures of the recorded
episodes (forge.episode_measures): d_edit and semantic drift 0 for the oracle, both above 0
for idle, whose program still starts the score at 5.

The forged task is made here as the forge makes one (`forge.writer.write_task`: the bundled
debug_score_reset's golden with its score set to 5 instead of 0 on the green flag as the
initial project, and a bug record whose inverse patch is the minimal fix), so that no forging
runs in the test. The episodes run in the session's shared browser (`browser_pool`), judged on
the virtual clock as `studio run` judges.
"""

from __future__ import annotations

import copy
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import ActionError, Mode
from studio.models.evaluation import Clock
from studio.models.forge import BugRecord, BugReport, Site
from studio.services.core import paths
from studio.services.core.blocks import find_target
from studio.services.core.patch import patch_between
from studio.services.core.sb3 import load_sb3
from studio.services.core.sb3_swap import with_project_json
from studio.services.core.store import TaskFolder, load_task
from studio.services.episodes.agents import IdleAgent, OracleAgent, run_episode
from studio.services.episodes.manager import EpisodeManager
from studio.services.forge.episode_measures import EpisodeMeasures
from studio.services.forge.writer import write_task
from studio.services.runtime import page_scripts
from studio.services.runtime.evaluator import Evaluator
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def forged(tmp_path_factory: pytest.TempPathFactory) -> TaskFolder:
    root = tmp_path_factory.mktemp("forged")
    golden = load_task(shutil.copytree(paths.BUNDLED_TASKS / "debug_score_reset", root / "g"))
    assert golden.golden_path is not None
    data, project = load_sb3(golden.golden_path)
    bugged = copy.deepcopy(project)
    reset = find_target(bugged, "Coin")["blocks"]["Coin-2"]  # set score to 0
    assert reset["opcode"] == "data_setvariableto"
    reset["inputs"]["VALUE"] = [1, [10, "5"]]
    inverse = patch_between(bugged, project)
    assert inverse is not None and len(inverse) == 1
    record = BugRecord(
        golden_task=golden.task.id,
        mechanism="missing_initialization",
        operator="hand",
        description="the score starts at 5",
        site=Site(sprite="Coin", block_ids=["Coin-2"]),
        inverse_patch=[e.model_dump() for e in inverse],
        failing_tests=[],
        tests_from="own",
        reruns=1,
        golden_pass_rate=1.0,
        bugged_pass_rate=0.0,
        report=BugReport(
            symptom="the score is 5 after the green flag",
            expected="the score is 0 after the green flag",
            trigger="click the green flag",
            triggers=["green_flag"],
        ),
    )
    library = root / "library"
    return load_task(
        write_task(library, "score_forged", golden, with_project_json(data, bugged), record, None)
    )


@pytest.fixture(scope="module")
def measures(browser_pool: Any) -> Iterator[EpisodeMeasures]:
    kept = EpisodeMeasures(Evaluator(browser_pool))
    yield kept
    kept.close()


def test_the_oracle_solves_a_forged_task_with_its_inverse_patch(
    forged: TaskFolder,
    manager: EpisodeManager,
    loop_thread: LoopThread,
    measures: EpisodeMeasures,
    tmp_path: Path,
) -> None:
    agent = OracleAgent(forged)
    result, folder = loop_thread.run(
        run_episode(manager, forged, Mode.PATCH, agent, tmp_path / "oracle", Clock.VIRTUAL)
    )
    assert result.success, [d for d in result.details if not d.passed] or result.error
    assert agent.errors == []
    assert folder is not None
    figures = loop_thread.run(measures.measure(folder))
    assert figures == {"d_edit": 0, "drift": 0.0}


def test_the_oracle_solves_a_bundled_debug_task_without_a_record(
    manager: EpisodeManager, loop_thread: LoopThread, tmp_path: Path
) -> None:
    # no bug.json: the initial -> golden patch, found once the golden's ids are aligned
    task = load_task(shutil.copytree(paths.BUNDLED_TASKS / "debug_game_over", tmp_path / "t"))
    agent = OracleAgent(task)
    result, _ = loop_thread.run(run_episode(manager, task, Mode.PATCH, agent, clock=Clock.VIRTUAL))
    assert result.success, [d for d in result.details if not d.passed] or result.error
    assert agent.errors == []


def test_idle_does_not_solve_it(
    forged: TaskFolder,
    manager: EpisodeManager,
    loop_thread: LoopThread,
    measures: EpisodeMeasures,
    tmp_path: Path,
) -> None:
    result, folder = loop_thread.run(
        run_episode(manager, forged, Mode.PATCH, IdleAgent(), tmp_path / "idle", Clock.VIRTUAL)
    )
    assert result.error is None, result.error
    assert not result.success and result.passed_tests < result.total_tests
    assert folder is not None
    figures = loop_thread.run(measures.measure(folder))
    assert figures is not None and figures["d_edit"] == 1 and figures["drift"] > 0, figures


def test_a_patch_that_does_not_apply_leaves_the_page_program_as_it_was(
    forged: TaskFolder, manager: EpisodeManager, loop_thread: LoopThread
) -> None:
    async def play() -> tuple[Any, str, Any, Any]:
        episode = await manager.create(forged, Mode.PATCH)
        try:
            obs = await episode.observe()
            before = await page_scripts.call(episode.page, page_scripts.EDITOR, "program")
            fix = {"op": "change", "sprite": "Coin", "block_id": "Coin-2", "what": "input:VALUE",
                   "value": [1, [10, "0"]]}  # fmt: skip
            bad = {"op": "remove", "sprite": "Coin", "block_id": "no-such-block"}
            action = {"api": "apply_patch", "args": {"edits": [fix, bad]}}
            try:
                await episode.step(action)
                error = ""
            except ActionError as exc:
                error = str(exc)
            after = await page_scripts.call(episode.page, page_scripts.EDITOR, "program")
            return obs, error, before, after
        finally:
            await manager.delete(episode.id)

    obs, error, before, after = loop_thread.run(play())
    assert obs.report is not None and obs.report["trigger"] == "click the green flag"
    assert "[Coin-2] set score to [5]" in (obs.text or "")
    assert "edit 2" in error and "no-such-block" in error and "nothing was applied" in error
    assert find_target(after, "Coin")["blocks"] == find_target(before, "Coin")["blocks"]

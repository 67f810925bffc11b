"""Feedback turns and repair measures of a debug episode played through a served agent API, on
the real editor: the campaign use case with `api` against a real `studio serve` server in this
process (its episodes in the session's browser) records what the same campaign played here
records (issue 42 point 6, issue 40 point 3); so does the campaign with `ray` on a local Ray
instance (its worker's own browser plays the episode and records the drift)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from studio.app.campaigns import CampaignRequest, open_campaign, plan_episodes, play_campaign
from studio.services.api.server import ApiServer
from studio.services.core import paths
from studio.services.episodes.manager import EpisodeManager
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser
TOKEN = "remote-feedback-token"
TASK = "debug_score_reset"
ASK = {"api": "request_feedback", "args": {}}


def campaign_in(tmp_path: Path, **where: Any) -> tuple[Path, CampaignRequest]:
    """A campaign on a copy of the bundled debug task: the scripted agent asks for its one
    feedback turn and ends (the program stays the bugged one)."""
    library = tmp_path / "library"
    if not library.exists():
        shutil.copytree(paths.BUNDLED_TASKS / TASK, library / TASK)
        (tmp_path / "scripts").mkdir()
        (tmp_path / "scripts" / f"{TASK}.json").write_text(json.dumps([ASK]))
    request = CampaignRequest(
        tasks=[library], agent="scripted", actions=tmp_path / "scripts", feedback_turns=1,
        out=tmp_path / "runs", **where,
    )  # fmt: skip
    return library, request


def play(request: CampaignRequest, loop_thread: LoopThread, pool: Any = None) -> dict[str, Any]:
    """Play the campaign; what its episode's run.json records that must not depend on where
    it played (no times, no ids)."""
    campaign = plan_episodes(open_campaign(request, print), request, print)
    result = loop_thread.run(play_campaign(campaign, request, pool=pool))
    (outcome,) = result.batch.outcomes
    assert outcome.error is None and outcome.result is not None
    run = json.loads((outcome.folder / "run.json").read_text())
    meta = run["meta"]
    turns = [
        {k: t[k] for k in ("turn", "after_step", "passed", "total", "psr", "success", "failing")}
        for t in meta.get("feedback", [])
    ]
    return {
        "eval": (run["eval"]["passed_tests"], run["eval"]["total_tests"]),
        "feedback_turns": meta.get("feedback_turns"),
        "feedback": turns,
        "repair": meta.get("repair"),
        "final_program": (outcome.folder / "final.sb3").is_file(),
    }


@pytest.fixture(scope="module")
def here(
    loop_thread: LoopThread, browser_pool: Any, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """The record of the campaign played in this process's browser, checked (check_record):
    played once for the module, the API and Ray campaigns each compare theirs with it."""
    _library, request = campaign_in(tmp_path_factory.mktemp("local"))
    record = play(request, loop_thread, browser_pool)
    check_record(record)
    return record


def check_record(record: dict[str, Any]) -> None:
    """What the record must hold: one turn on the bugged program, the result the same, the
    bugged program's d_edit from the minimal fix and its drift from the golden's behaviour."""
    assert record["feedback_turns"] == 1 and record["final_program"]
    (turn,) = record["feedback"]
    passed, total = record["eval"]
    assert (turn["turn"], turn["after_step"]) == (1, 0)
    assert (turn["passed"], turn["total"]) == (passed, total) and passed < total
    assert record["repair"]["d_edit"] >= 1
    assert 0.0 < record["repair"]["drift"] <= 1.0, record["repair"]


def test_a_campaign_over_the_api_records_what_a_local_one_records(
    loop_thread: LoopThread, browser_pool: Any, tmp_path: Path, here: dict[str, Any]
) -> None:
    library, request = campaign_in(tmp_path / "api")
    manager = EpisodeManager(server=browser_pool.server, pool=browser_pool)
    server = ApiServer(manager, TOKEN, library=library)
    loop_thread.run(server.start())
    try:
        request.api, request.token = server.url, TOKEN
        remote = play(request, loop_thread)
    finally:
        loop_thread.run(server.close())
        loop_thread.run(manager.close())
    assert remote == here


def test_a_campaign_on_ray_records_what_a_local_one_records(
    loop_thread: LoopThread, tmp_path: Path, here: dict[str, Any]
) -> None:
    _library, request = campaign_in(tmp_path / "ray")
    request.ray = "local"
    assert play(request, loop_thread) == here

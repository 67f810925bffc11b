"""The campaign use case (studio.app.campaigns) without a browser: a request opens a new
campaign or resumes one, plan_episodes plans what is left, play_campaign tells typed events
and stops after the episode under way once cancelled, leaving the folder resumable."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import studio.app.campaigns.play as play
from studio.app.campaigns import (
    CampaignEvent,
    CampaignFailed,
    CampaignFinished,
    CampaignRequest,
    CampaignStarted,
    EpisodeDone,
    open_campaign,
    plan_episodes,
    play_campaign,
)
from studio.models.errors import StudioError
from studio.services.runs.campaign import MANIFEST_FILE, RESULTS_FILE
from tests.helpers.tasks import make_task
from tests.unit.campaigns.test_campaign import FakeRunner


@pytest.fixture
def library(tmp_path: Path) -> Path:
    lib = tmp_path / "lib"
    make_task(lib / "a", task_id="create_a")
    make_task(lib / "b", task_id="debug_b", category="debug")
    return lib


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> FakeRunner:
    """The episodes play on a FakeRunner (no browser); the tasks are found sound."""
    fake = FakeRunner()

    @contextlib.asynccontextmanager
    async def home(*_: Any) -> AsyncIterator[FakeRunner]:
        yield fake

    async def no_problems(*_: Any) -> list[Any]:
        return []

    monkeypatch.setattr(play, "episode_home", home)
    monkeypatch.setattr(play, "check_tasks", no_problems)
    return fake


def _plan(request: CampaignRequest, warnings: list[str] | None = None) -> Any:
    said = warnings if warnings is not None else []
    return plan_episodes(open_campaign(request, said.append), request, said.append)


def test_a_request_plans_tasks_times_epochs_with_the_protocol_recorded(
    library: Path, tmp_path: Path
) -> None:
    request = CampaignRequest(tasks=[library], agent="random", epochs=3, seed=4,
                              out=tmp_path / "runs")  # fmt: skip
    planned = _plan(request)
    assert len(planned.jobs) == 6 and planned.finished == 0 and not planned.resumed
    assert planned.run_dir.parent == tmp_path / "runs"
    assert planned.run_dir.name.startswith("random-composite-")
    manifest = json.loads((planned.run_dir / MANIFEST_FILE).read_text())
    assert (manifest["agent"], manifest["epochs"], manifest["seed"]) == ("random", 3, 4)
    assert manifest["settings"]["protocol"]["name"] == "studio"
    assert request.steps == 100 and request.retries == 2 and request.mode == "composite"
    with pytest.raises(StudioError, match="needs TASKS and --agent"):
        _plan(CampaignRequest(tasks=[library]))
    with pytest.raises(StudioError, match="must be at least 1"):
        _plan(CampaignRequest(tasks=[library], agent="idle", workers=0, out=tmp_path / "x"))


def test_a_play_tells_started_each_episode_and_finished_then_a_resume_finds_it_done(
    library: Path, tmp_path: Path, runner: FakeRunner
) -> None:
    request = CampaignRequest(tasks=[library], agent="idle", epochs=2, out=tmp_path / "runs")
    planned = _plan(request)
    events: list[CampaignEvent] = []
    result = asyncio.run(play_campaign(planned, request, events.append))
    assert isinstance(events[0], CampaignStarted) and events[0].total == 4
    assert [(e.done, e.total) for e in events if isinstance(e, EpisodeDone)] == [
        (1, 4), (2, 4), (3, 4), (4, 4),
    ]  # fmt: skip
    assert isinstance(events[-1], CampaignFinished) and events[-1].result is result
    assert not result.cancelled and len(result.batch.outcomes) == 4
    assert len((planned.run_dir / RESULTS_FILE).read_text().splitlines()) == 4
    run = json.loads((planned.run_dir / "create_a" / "epoch-1" / "run.json").read_text())
    assert run["meta"]["protocol"]["name"] == "studio"

    again = CampaignRequest(resume=planned.run_dir)
    resumed = _plan(again)
    assert resumed.resumed and resumed.finished == 4 and resumed.jobs == []
    assert (again.agent, again.epochs, again.steps) == ("idle", 2, 100)
    with pytest.raises(StudioError, match=r"--agent random: the campaign in .* has idle"):
        _plan(CampaignRequest(resume=planned.run_dir, agent="random"))


def test_cancel_stops_after_the_episode_under_way_and_a_resume_plays_the_rest(
    library: Path, tmp_path: Path, runner: FakeRunner
) -> None:
    request = CampaignRequest(tasks=[library], agent="idle", epochs=2, out=tmp_path / "runs")
    planned = _plan(request)
    cancel = threading.Event()
    events: list[CampaignEvent] = []

    def on_event(event: CampaignEvent) -> None:
        events.append(event)
        if isinstance(event, EpisodeDone):
            cancel.set()  # as the window's Cancel does, while the first episode ends

    result = asyncio.run(play_campaign(planned, request, on_event, cancel))
    assert result.cancelled and result.left == 3 and len(result.batch.outcomes) == 1
    assert sum(runner.plays.values()) == 1
    assert isinstance(events[-1], CampaignFinished) and events[-1].result.left == 3
    lines = (planned.run_dir / RESULTS_FILE).read_text().splitlines()
    assert len(lines) == 1
    unplayed = [p for p in planned.run_dir.glob("*/epoch-*") if not (p / "run.json").exists()]
    assert unplayed == []  # the episodes not begun have no folder

    again = CampaignRequest(resume=planned.run_dir)
    resumed = _plan(again)
    assert resumed.finished == 1 and len(resumed.jobs) == 3
    rest = asyncio.run(play_campaign(resumed, again))
    assert not rest.cancelled and len(rest.batch.outcomes) == 3
    assert sum(runner.plays.values()) == 4 and max(runner.plays.values()) == 1
    assert len((planned.run_dir / RESULTS_FILE).read_text().splitlines()) == 4


def test_a_play_that_breaks_is_told_as_failed_and_raised(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    @contextlib.asynccontextmanager
    async def no_browser(*_: Any) -> AsyncIterator[Any]:
        raise StudioError("the browser could not start")
        yield  # pragma: no cover

    monkeypatch.setattr(play, "episode_home", no_browser)
    request = CampaignRequest(tasks=[library], agent="idle", out=tmp_path / "runs")
    planned = _plan(request)
    events: list[CampaignEvent] = []
    with pytest.raises(StudioError, match="could not start"):
        asyncio.run(play_campaign(planned, request, events.append))
    assert events == [CampaignFailed(planned.run_dir, "the browser could not start")]

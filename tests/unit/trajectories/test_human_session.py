"""HumanSessionRecorder: a human session is an ordinary trajectory that reports list as "human"."""

from __future__ import annotations

import json
import re
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from studio.models.agent import Element, EpisodeStatus, Mode, ProgramChange
from studio.models.errors import StudioError
from studio.services.core import paths
from studio.services.core.store import TaskFolder, load_task
from studio.services.episodes.human.coalesce import HumanAction
from studio.services.episodes.human.protocol import ProtocolCard, load_protocol
from studio.services.episodes.human.session import HumanSessionRecorder
from studio.services.runs.reports import format_table, load_runs, report_for
from studio.services.runs.trajectories.view import load_view

from .build import observation, png, result


@pytest.fixture
def task(tmp_path: Path) -> TaskFolder:
    source = next(p for p in sorted(paths.BUNDLED_TASKS.iterdir()) if (p / "task.json").is_file())
    return load_task(shutil.copytree(source, tmp_path / "task"))


def test_a_session_is_recorded_as_a_human_trajectory(tmp_path: Path, task: TaskFolder) -> None:
    card = ProtocolCard(participant="P01", time_limit_s=600, notes="first session")
    rec = HumanSessionRecorder(tmp_path / "session", task, card, "P01")
    obs = observation(1, [Element(index=0, type="button", x=0, y=0, w=4, h=4)])
    click = HumanAction({"api": "click", "args": {"x": 2, "y": 2}}, 1000.0, 1120.0)
    record = rec.record(click, png(1), ProgramChange(added=["Cat: say"]), obs)
    assert (
        record.index == 1 and record.duration_ms == 120.0 and record.screenshot == "step_0001.png"
    )
    epoch = datetime(2025, 5, 1, 10, 0, tzinfo=UTC)
    epoch_ms = epoch.timestamp() * 1000
    typed = HumanAction({"api": "type", "args": {"text": "hi"}}, epoch_ms, epoch_ms + 500)
    assert rec.record(typed, None, None).at == epoch  # Date.now() times give the wall time
    run = rec.finish(
        EpisodeStatus.DONE, sb3=b"PK", png=png(9), result=result(task.task.id, {"a": True})
    )
    assert run.ended_at is not None and run.status is EpisodeStatus.DONE and run.steps == 3

    view = load_view(tmp_path / "session")
    assert view.run is not None and view.run.agent == "human" and view.run.mode is Mode.PRIMITIVE
    assert view.run.task_folder == str(task.folder)
    assert view.run.meta["participant"] == "P01"
    assert view.run.meta["protocol"]["time_limit_s"] == 600
    assert [s.record.action["api"] for s in view.steps] == ["click", "type", "done"]
    assert view.steps[0].observation() == obs.model_copy(update={"screenshot_png_b64": None})
    assert view.steps[2].record.status_after is EpisodeStatus.DONE
    assert view.steps[1].missing == ["screenshot step_0002.png"]
    assert load_protocol(tmp_path / "session") == card
    assert json.loads((tmp_path / "session" / "protocol.json").read_text())["participant"] == "P01"
    with pytest.raises(StudioError, match="has ended"):
        rec.record(click, None, None)
    with pytest.raises(StudioError, match="already holds a recorded session"):
        HumanSessionRecorder(tmp_path / "session", task, card, "P01")


def test_the_report_lists_the_session_as_human_with_its_time(
    tmp_path: Path, task: TaskFolder
) -> None:
    rec = HumanSessionRecorder(tmp_path / "runs" / "human-1", task, ProtocolCard(), "P02")
    rec.run.started_at = datetime.now(UTC) - timedelta(seconds=95)  # as if it took 95 s
    rec.finish(EpisodeStatus.FAILED, result=result(task.task.id, {"a": False, "b": True}))
    report = report_for(tmp_path / "runs")
    [row] = report.rows
    assert row.agent == "human" and row.mode == "primitive"
    assert row.mean_seconds is not None and 94 < row.mean_seconds < 100
    assert row.tasks[0].task_id == task.task.id and row.tasks[0].psr == 0.5
    assert row.categories[task.task.category.value].tasks == 1
    table = format_table(report)
    human_line = next(line for line in table.splitlines() if line.startswith("human"))
    assert re.search(r"9\d\.\d s$", human_line)
    steps = load_view(tmp_path / "runs" / "human-1").steps
    assert [s.record.action for s in steps] == [{"api": "failed", "args": {}}]


def test_a_given_up_session_is_a_failure_whatever_its_program_passes(
    tmp_path: Path, task: TaskFolder
) -> None:
    for name, status in (("gave-up", EpisodeStatus.FAILED), ("finished", EpisodeStatus.DONE)):
        rec = HumanSessionRecorder(tmp_path / "runs" / name, task, ProtocolCard(), "P03")
        rec.finish(status, result=result(task.task.id, {"a": True}))  # the program passes
    entries, _ = load_runs(tmp_path / "runs")
    outcome = {Path(e.folder).name: (e.success, e.psr) for e in entries}
    assert outcome == {"gave-up": (False, 1.0), "finished": (True, 1.0)}
    [row] = report_for(tmp_path / "runs").rows
    assert row.tasks[0].runs == 2 and row.tasks[0].sr == 0.5


def test_invalid_actions_and_a_running_end_status_are_refused(
    tmp_path: Path, task: TaskFolder
) -> None:
    rec = HumanSessionRecorder(tmp_path / "s", task, ProtocolCard(time_limit_s=60), "P03")
    bad = HumanAction({"api": "click", "args": {}}, 0, 1)
    with pytest.raises(StudioError, match="step 1: click"):
        rec.record(bad, None, None)
    with pytest.raises(ValueError, match="RUNNING"):
        rec.finish(EpisodeStatus.RUNNING)
    assert not rec.over_time_limit()
    assert rec.over_time_limit(rec.run.started_at + timedelta(seconds=61))

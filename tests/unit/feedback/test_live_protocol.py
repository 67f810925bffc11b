"""The window's agent runs take a protocol and feedback turns (studio.app.live_protocol)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

from studio.app.live_protocol import apply_protocol, live_protocol
from studio.models.agent import Mode
from studio.models.protocols import ProtocolError
from studio.models.trajectory import RunInfo
from studio.services.episodes.feedback import FeedbackTurns
from studio.services.episodes.recorder import TrajectoryRecorder


def _episode(folder: Path) -> SimpleNamespace:
    run = RunInfo(episode_id="e", task_id="t", mode=Mode.PRIMITIVE, agent="oracle",
                  started_at=datetime.now(UTC), step_limit=100)  # fmt: skip
    return SimpleNamespace(
        step_limit=100, feedback_turns=FeedbackTurns(), recorder=TrajectoryRecorder(folder, run)
    )


def test_scratchworld_gives_the_live_episode_50_steps_and_records_it(tmp_path: Path) -> None:
    record = live_protocol("scratchworld", Mode.PRIMITIVE, "oracle")
    episode = _episode(tmp_path / "run")
    apply_protocol(episode, record)
    assert episode.step_limit == 50 and episode.feedback_turns.budget == 0
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run["step_limit"] == 50 and run["meta"]["protocol"]["name"] == "scratchworld"


def test_feedback_turns_are_granted_under_the_studio_protocol_only(tmp_path: Path) -> None:
    record = live_protocol(None, "composite", "random", 2)
    assert record.settings["feedback_turns"] == 2 and record.settings["steps"] == 100
    episode = _episode(tmp_path / "run")
    apply_protocol(episode, record)
    assert episode.feedback_turns.budget == 2 and episode.step_limit == 100
    with pytest.raises(ProtocolError, match="--feedback-turns: the run runs of protocol scratch"):
        live_protocol("scratchworld", "composite", "random", 1)
    with pytest.raises(ProtocolError, match="unknown protocol"):
        live_protocol("osworld", "composite", "random")

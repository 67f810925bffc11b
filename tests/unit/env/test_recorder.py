"""Trajectories on disk: append-only steps, run header, reading back, program changes."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import EpisodeStatus, Mode, StepRecord
from studio.models.errors import StudioError
from studio.models.trajectory import RunInfo, screenshot_name
from studio.services.episodes.recorder import TrajectoryRecorder, program_change, read_trajectory


def _run() -> RunInfo:
    return RunInfo(
        episode_id="e1",
        task_id="t1",
        mode=Mode.COMPOSITE,
        agent="oracle",
        started_at=datetime(2025, 1, 1, tzinfo=UTC),
    )


def _step(index: int) -> StepRecord:
    return StepRecord(index=index, at=datetime.now(UTC), action={"api": "done", "args": {}})


def test_steps_are_appended_and_read_back(tmp_path: Path) -> None:
    rec = TrajectoryRecorder(tmp_path / "traj", _run())
    rec.append(_step(1))
    name = rec.write_screenshot(2, b"\x89PNG")
    rec.append(_step(2).model_copy(update={"screenshot": name}))
    rec.run.status, rec.run.steps = EpisodeStatus.DONE, 2
    rec.write_run()
    rec.write_final(sb3=b"PK", png=b"\x89PNG")
    traj = read_trajectory(tmp_path / "traj")
    assert [s.index for s in traj.steps] == [1, 2]
    assert traj.steps[1].screenshot == "step_0002.png" == screenshot_name(2)
    assert traj.run.status is EpisodeStatus.DONE and traj.run.agent == "oracle"
    assert {p.name for p in (tmp_path / "traj").iterdir()} == {
        "run.json",
        "steps.jsonl",
        "step_0002.png",
        "final.sb3",
        "final.png",
    }
    lines = (tmp_path / "traj" / "steps.jsonl").read_text().splitlines()
    assert len(lines) == 2 and json.loads(lines[0])["index"] == 1


def test_a_torn_last_line_is_ignored_but_a_broken_middle_line_is_not(tmp_path: Path) -> None:
    rec = TrajectoryRecorder(tmp_path, _run())
    rec.append(_step(1))
    with open(tmp_path / "steps.jsonl", "a") as fh:
        fh.write('{"index": 2, "at": "20')  # the writer died here
    assert [s.index for s in read_trajectory(tmp_path).steps] == [1]
    rec = TrajectoryRecorder(tmp_path, _run())  # a writer taking over ends the torn line
    rec.append(_step(3))
    with pytest.raises(StudioError, match="line 2 is not a step"):
        read_trajectory(tmp_path)


def test_a_missing_header_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(StudioError, match=r"run\.json"):
        read_trajectory(tmp_path)


def _project(blocks: dict[str, Any]) -> dict[str, Any]:
    return {"targets": [{"isStage": False, "name": "Cat", "blocks": blocks}]}


def _blk(opcode: str, parent: str | None = None, next_: str | None = None, **inputs: Any) -> Any:
    return {
        "opcode": opcode,
        "parent": parent,
        "next": next_,
        "inputs": inputs,
        "fields": {},
        "shadow": False,
        "topLevel": parent is None,
    }


def test_program_change_names_added_moved_and_changed_blocks() -> None:
    before = _project(
        {
            "flag": _blk("event_whenflagclicked", next_="move"),
            "move": _blk("motion_movesteps", "flag", STEPS=[1, [4, "10"]]),
            "turn": _blk("motion_turnright", DEGREES=[1, [4, "15"]]),
        }
    )
    after = copy.deepcopy(before)
    blocks = after["targets"][0]["blocks"]
    blocks["move"]["inputs"]["STEPS"] = [1, [4, "20"]]
    blocks["move"]["next"] = "turn"
    blocks["turn"].update(parent="move", topLevel=False)
    blocks["show"] = _blk("looks_show")
    change = program_change(before, after)
    assert change.added == ["Cat: show"]
    assert change.moved == ["Cat: turn right (15) degrees"]
    assert change.fields_changed == ["Cat: move (20) steps (input STEPS: 10 -> 20)"]
    assert change.removed == []
    assert program_change(after, before).removed == ["Cat: show"]
    assert program_change(before, before).empty
    assert program_change(None, after).empty

"""`studio export submission`: a recorded campaign as the ScratchWorld leaderboard's JSONL, field
for field (SCRATCHWORLD_API.md section 13), read back by `read_submission`."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from studio import cli
from studio.models.agent import Element, EpisodeStatus, Mode, Observation, StepRecord
from studio.models.evaluation import EvalResult
from studio.models.trajectory import RunInfo
from studio.services.episodes.recorder import TrajectoryRecorder
from studio.services.formats.scratchworld.submission import (
    ROW_KEYS,
    SubmissionError,
    read_submission,
    write_submission,
)


def _episode(
    folder: Path,
    task_id: str,
    mode: Mode,
    actions: list[dict[str, Any]],
    agent: str = "llm",
    elements: list[Element] | None = None,
    meta: dict[str, Any] | None = None,
) -> Path:
    run = RunInfo(
        episode_id=task_id,
        task_id=task_id,
        mode=mode,
        agent=agent,
        started_at=datetime(2026, 1, 1, tzinfo=UTC),
        ended_at=datetime(2026, 1, 1, 0, 1, tzinfo=UTC),
        status=EpisodeStatus.DONE,
        eval=EvalResult(task_id=task_id, project="final.sb3", success=False, total_tests=2),
        meta={"category": task_id.split("_")[0], **(meta or {})},
    )
    rec = TrajectoryRecorder(folder, run)
    for n, action in enumerate(actions, 1):
        if elements is not None:
            rec.write_observation(n, Observation(mode=mode, step=n, elements=elements))
        rec.append(StepRecord(index=n, at=datetime.now(UTC), action=action))
    rec.write_run()
    return folder


ELEMENTS = [
    Element(index=0, type="blocks", text="motion_movesteps", x=40, y=120, w=101, h=40),
    Element(index=1, type="canvas", text="", x=300, y=100, w=600, h=500),
]
PRIMITIVE = [
    {"api": "click", "args": {"index": 0}},
    {"api": "drag_and_drop", "args": {"start_index": 0, "end_x": 420.4, "end_y": 260.6}},
    {"api": "fly", "args": {}},  # could not be read: not an interaction
    {"api": "scroll", "args": {"direction": "down", "amount": 2}},
    {"api": "type", "args": {"text": "hello"}},
    {"api": "hotkey", "args": {"keys": ["ctrl", "z"]}},
    {"api": "done", "args": {}},
]


def test_a_primitive_campaign_becomes_the_published_rows_and_reads_back(tmp_path: Path) -> None:
    runs = tmp_path / "campaign"
    _episode(runs / "create_walk", "create_walk", Mode.PRIMITIVE, PRIMITIVE, elements=ELEMENTS)
    _episode(runs / "debug_idle", "debug_idle", Mode.PRIMITIVE, [{"api": "done", "args": {}}])
    out = tmp_path / "sub.jsonl"
    rows = write_submission(runs, out)
    assert read_submission(out) == rows
    first = json.loads(out.read_text().splitlines()[0])
    assert tuple(first) == ROW_KEYS
    assert first["take"] == "create_walk" and first["type"] == "create"
    assert first["mode"] == "primitive"
    assert first["source_interaction_log"] == str(runs / "create_walk" / "steps.jsonl")
    assert first["source_task_dir"] == str(runs / "create_walk")
    assert first["interactions"] == [
        {"turn": 1, "action": {"api": "click", "args": {"x": 90, "y": 140, "button": "left"}}},
        {
            "turn": 2,
            "action": {
                "api": "drag_and_drop",
                "args": {"start_x": 90, "start_y": 140, "end_x": 420, "end_y": 261},
            },
        },
        {  # a scroll without a point acts at the code area's centre, as executed
            "turn": 4,
            "action": {
                "api": "scroll",
                "args": {"direction": "down", "amount": 200, "x": 600, "y": 350},
            },
        },
        {"turn": 5, "action": {"api": "type", "args": {"text": "hello"}}},
        {"turn": 6, "action": {"api": "hotkey", "args": {"keys": ["ctrl", "z"]}}},
    ]
    idle = read_submission(out)[1]
    assert idle["take"] == "debug_idle" and idle["interactions"] == []


def test_composite_actions_keep_their_api_and_args(tmp_path: Path) -> None:
    actions = [
        {"api": "add_block", "args": {"blockType": "motion_movesteps"}},
        {"api": "set_block_field", "args": {"blockIndex": 1, "fieldName": "STEPS", "value": "5"}},
        {"api": "failed", "args": {}},
    ]
    _episode(tmp_path / "r" / "extend_x", "extend_x", Mode.COMPOSITE, actions)
    assert cli.main(["export", "submission", str(tmp_path / "r"), "--out",
                     str(tmp_path / "s.jsonl")]) == 0  # fmt: skip
    (row,) = read_submission(tmp_path / "s.jsonl")
    assert row["mode"] == "composite" and [i["action"] for i in row["interactions"]] == actions[:2]


def test_what_cannot_be_one_submission_is_refused_by_name(tmp_path: Path) -> None:
    mixed = tmp_path / "mixed"
    _episode(mixed / "a" / "create_a", "create_a", Mode.PRIMITIVE, [], agent="llm")
    _episode(mixed / "b" / "create_a", "create_a", Mode.COMPOSITE, [], agent="oracle")
    with pytest.raises(SubmissionError, match=r"2 agents or modes \(llm primitive; oracle "):
        write_submission(mixed, tmp_path / "x.jsonl")
    epochs = tmp_path / "epochs"
    for e in (1, 2):
        _episode(epochs / "create_a" / f"epoch-{e}", "create_a", Mode.COMPOSITE, [],
                 meta={"epoch": e})  # fmt: skip
    with pytest.raises(SubmissionError, match=r"'create_a' has 2 episodes .* --epoch N"):
        write_submission(epochs, tmp_path / "x.jsonl")
    (row,) = write_submission(epochs, tmp_path / "x.jsonl", epoch=2)
    assert row["source_task_dir"].endswith("epoch-2")
    assert not (tmp_path / "none.jsonl").exists()


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('{"take": "a"}', "the row's keys are"),
        (
            '{"take": "a", "type": "create", "mode": "hybrid", "interactions": [], '
            '"source_interaction_log": "", "source_task_dir": ""}',
            "mode 'hybrid'",
        ),
        (
            '{"take": "a", "type": "create", "mode": "primitive", "interactions": [{"turn": 1, '
            '"action": {"api": "click", "args": {"x": 1.5, "y": 2}}}], '
            '"source_interaction_log": "", "source_task_dir": ""}',
            "interaction 1: x 1.5 is not a whole pixel",
        ),
        (
            '{"take": "a", "type": "create", "mode": "composite", "interactions": [{"turn": 1, '
            '"action": {"api": "click", "args": {}}}], '
            '"source_interaction_log": "", "source_task_dir": ""}',
            "interaction 1: 'click' is not a composite action",
        ),
    ],
)
def test_a_file_off_the_format_is_named_with_its_line(
    tmp_path: Path, line: str, problem: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n" + line + "\n")
    with pytest.raises(SubmissionError, match=f"bad.jsonl: line 2: {problem}"):
        read_submission(path)


def test_a_run_with_strokes_is_not_a_submission_and_strokes_keep_their_path(
    tmp_path: Path,
) -> None:
    from studio.services.runs.trajectories.geometry import action_point
    from studio.services.runs.trajectories.text import describe_action

    stroke = {"api": "stroke", "args": {"points": [[10, 20], [30, 45], [60, 20]]}}
    assert action_point(stroke, None).points == [(10.0, 20.0), (30.0, 45.0), (60.0, 20.0)]
    assert describe_action(stroke) == "stroke 3 points (10, 20) -> (60, 20)"
    _episode(tmp_path / "r" / "create_draw", "create_draw", Mode.PRIMITIVE, [stroke])
    with pytest.raises(SubmissionError, match="step 1 is a stroke, which the published action"):
        write_submission(tmp_path / "r", tmp_path / "s.jsonl")

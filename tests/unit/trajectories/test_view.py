"""load_view: tolerant reading of trajectory folders, missing marks and step flags."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.models.agent import Element, Mode, ProgramChange
from studio.models.errors import StudioError
from studio.services.runs.trajectories.view import load_view

from .build import observation, png, run_info, step, write_trajectory


def test_a_complete_trajectory_loads_without_problems(tmp_path: Path) -> None:
    folder = write_trajectory(tmp_path / "t", [step(1), step(2)], final_png=png(99))
    view = load_view(folder)
    assert view.problems == [] and view.missing == []
    assert view.run is not None and view.run.task_id == "t1"
    assert [s.index for s in view.steps] == [1, 2]
    assert view.steps[0].screenshot == folder / "step_0001.png"
    assert view.final_png == folder / "final.png" and view.final_sb3 == folder / "final.sb3"
    assert view.step(2) is view.steps[1] and view.step(7) is None


def test_a_truncated_last_line_is_skipped_and_named(tmp_path: Path) -> None:
    folder = write_trajectory(tmp_path / "t", [step(1), step(2)])
    with open(folder / "steps.jsonl", "a") as fh:
        fh.write('{"index": 3, "at": "2025-')
    view = load_view(folder)
    assert [s.index for s in view.steps] == [1, 2]
    assert len(view.problems) == 1
    assert "steps.jsonl: line 3 truncated" in view.problems[0]


def test_an_invalid_middle_line_is_skipped_and_the_rest_still_loads(tmp_path: Path) -> None:
    folder = write_trajectory(tmp_path / "t", [step(1)])
    with open(folder / "steps.jsonl", "a") as fh:
        fh.write('{"index": "two"}\n' + step(3).model_dump_json() + "\n")
    view = load_view(folder)
    assert [s.index for s in view.steps] == [1, 3]
    assert view.steps[1].line == 3
    assert any("steps.jsonl: line 2 not a step" in p for p in view.problems)


def test_missing_screenshots_and_finals_are_marked(tmp_path: Path) -> None:
    folder = write_trajectory(
        tmp_path / "t", [step(1), step(2), step(3)], shots={2: png(2)}, final_sb3=None
    )
    view = load_view(folder)
    assert [s.missing for s in view.steps] == [
        ["screenshot step_0001.png"],
        [],
        ["screenshot step_0003.png"],
    ]
    assert view.steps[0].screenshot is None and view.steps[1].screenshot is not None
    assert view.final_png is None and view.final_sb3 is None
    assert view.missing == ["final screenshot final.png", "final project final.sb3"]


@pytest.mark.parametrize("content", [None, "{not json", '{"episode_id": "e"}'])
def test_a_missing_or_invalid_run_header_still_shows_the_steps(
    tmp_path: Path, content: str | None
) -> None:
    folder = write_trajectory(tmp_path / "t", [step(1)])
    if content is None:
        (folder / "run.json").unlink()
    else:
        (folder / "run.json").write_text(content)
    view = load_view(folder)
    assert view.run is None and len(view.steps) == 1
    assert len(view.problems) == 1 and str(folder / "run.json") in view.problems[0]


def test_a_folder_that_is_not_a_trajectory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(StudioError, match="nope: is not a folder"):
        load_view(tmp_path / "nope")
    with pytest.raises(StudioError, match="is not a trajectory folder"):
        load_view(tmp_path)


def test_observations_load_lazily_and_a_bad_one_becomes_a_problem(tmp_path: Path) -> None:
    el = Element(index=0, type="button", x=0, y=0, w=10, h=10)
    folder = write_trajectory(
        tmp_path / "t", [step(1), step(2), step(3)], observations={1: observation(1, [el])}
    )
    (folder / "obs_0002.json").write_text('{"mode": "primitive"}')
    view = load_view(folder)
    assert view.problems == []
    first = view.steps[0].observation()
    assert first is not None and first.elements[0].type == "button"
    assert view.steps[1].observation() is None
    assert view.steps[2].observation() is None and view.steps[2].observation_path is None
    assert len(view.problems) == 1 and "obs_0002.json" in view.problems[0]
    assert view.steps[1].observation() is None and len(view.problems) == 1  # read once


def test_flags_failed_repeated_and_no_op(tmp_path: Path) -> None:
    same = png(5)
    steps = [
        step(1, x=1, y=1),  # screen changes afterwards
        step(2, x=1, y=1),  # repeated; next shot identical -> no_op
        step(3, "key", key="Enter", ok=False),  # failed
        step(4, "type", text="a"),  # program changed
        step(5, "done"),
    ]
    steps[3] = steps[3].model_copy(update={"change": ProgramChange(added=["Cat: say"])})
    shots = {1: png(1), 2: same, 3: same, 4: png(4), 5: png(4)}
    view = load_view(write_trajectory(tmp_path / "t", steps, shots, final_png=png(4)))
    assert [sorted(s.flags) for s in view.steps] == [
        [],
        ["no_op", "repeated"],
        ["failed"],
        [],
        [],
    ]


def test_the_last_step_compares_with_the_final_screenshot(tmp_path: Path) -> None:
    steps = [step(1, "scroll", direction="down")]
    view = load_view(write_trajectory(tmp_path / "a", steps, {1: png(3)}, final_png=png(3)))
    assert view.steps[0].flags == {"no_op"}
    view = load_view(write_trajectory(tmp_path / "b", steps, {1: png(3)}, final_png=png(4)))
    assert view.steps[0].flags == set()


def test_composite_no_op_uses_observations_when_there_are_no_screenshots(tmp_path: Path) -> None:
    run = run_info(mode=Mode.COMPOSITE)
    steps = [
        step(1, "select_sprite", name="Cat"),
        step(2, "detach_blocks", blockIndex=0),
        step(3, "select_stage"),
        step(4, "done"),
    ]
    obs = {
        1: observation(1, mode=Mode.COMPOSITE, text="stage", editing_target="Stage"),
        2: observation(2, mode=Mode.COMPOSITE, text="cat", editing_target="Cat"),
        3: observation(3, mode=Mode.COMPOSITE, text="cat", editing_target="Cat"),
    }
    view = load_view(write_trajectory(tmp_path / "t", steps, {}, run, observations=obs))
    # 1 changed the observation; 2 changed nothing; 3 has no next observation and selects.
    assert [sorted(s.flags) for s in view.steps] == [[], ["no_op"], [], []]


def test_composite_screenshots_decide_when_there_are_no_observations(tmp_path: Path) -> None:
    run = run_info(mode=Mode.COMPOSITE)
    steps = [step(1, "add_variable", name="n"), step(2, "add_variable", name="m"), step(3, "done")]
    shots = {1: png(1), 2: png(2), 3: png(2)}
    view = load_view(write_trajectory(tmp_path / "t", steps, shots, run))
    assert [sorted(s.flags) for s in view.steps] == [[], ["no_op"], []]

"""A participant's desk without a browser: screens, tabs, refusals, a killed server's runs."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from studio.models.evaluation import EvalResult
from studio.services.core import paths
from studio.services.core.store import TaskFolder
from studio.services.studies.board import format_board, read_board
from studio.services.studies.desk import ParticipantDesk, Refused
from studio.services.studies.plan import StudyPlan, new_study, save_study
from studio.services.studies.results import format_results, study_results
from studio.services.studies.server import load_tasks

IDS = ["create_cat_walk", "debug_score_reset"]
TAB, OTHER = "tab-aaaaaaaa", "tab-bbbbbbbb"


@pytest.fixture
def study(tmp_path: Path) -> tuple[Path, StudyPlan]:
    folder = tmp_path / "study"
    plan = new_study(paths.BUNDLED_TASKS, folder, 2, seed=1, task_ids=IDS)
    plan.break_s = 0
    save_study(folder, plan)
    return folder, plan


def _desk(study: tuple[Path, StudyPlan], n: int = 0, lease_s: float = 30) -> ParticipantDesk:
    folder, plan = study

    async def evaluate(task: TaskFolder, sb3: bytes) -> EvalResult:
        ok = task.task.id == "create_cat_walk"
        return EvalResult(
            task_id=task.task.id, project="final.sb3", success=ok, passed_tests=int(ok),
            total_tests=1, partial_success_rate=float(ok),
        )  # fmt: skip

    return ParticipantDesk(folder, plan, plan.participants[n], load_tasks(plan), evaluate, lease_s)


def _clicks(n: int, at: float | None = None) -> dict[str, Any]:
    t = at or time.time() * 1000 - 5000
    events = []
    for i in range(n):
        events += [
            {"type": "down", "t": t + i * 1000, "x": 100.0 + i, "y": 200.0, "button": 0},
            {"type": "up", "t": t + i * 1000 + 50, "x": 100.0 + i, "y": 200.0, "button": 0},
        ]
    return {"now": time.time() * 1000, "events": events}


def _project(study: tuple[Path, StudyPlan], task_id: str) -> bytes:
    return (paths.BUNDLED_TASKS / task_id / "initial.sb3").read_bytes()


def _end(desk: ParticipantDesk, outcome: str, data: bytes) -> dict[str, Any]:
    """Finish the task and wait for its verdict."""

    async def go() -> dict[str, Any]:
        state = await desk.finish(outcome, data)
        await desk.settle()
        return state

    return asyncio.run(go())


def _skip_practice(study: tuple[Path, StudyPlan], desk: ParticipantDesk) -> None:
    practice = study[1].practice
    assert practice is not None and desk.start()["task"]["practice"] is True
    _end(desk, "give up", _project(study, practice))


def test_a_participant_goes_from_consent_to_done(study: tuple[Path, StudyPlan]) -> None:
    folder, plan = study
    desk = _desk(study)
    assert desk.claim(TAB)["screen"] == "consent"
    with pytest.raises(Refused, match="nothing can start"):
        desk.start()
    assert desk.consent()["screen"] == "practice"
    assert desk.start()["task"]["practice"] is True
    assert desk.project() == (paths.BUNDLED_TASKS / plan.practice / "initial.sb3").read_bytes()
    state = _end(desk, "give up", _project(study, plan.practice))
    assert state["screen"] == "ready" and state["next"] == 1
    for task_id in plan.participants[0].queue:
        task = desk.start()["task"]
        assert task["instruction"] and "golden" not in json.dumps(task)
        desk.events(_clicks(3))
        _end(desk, "done", _project(study, task_id))
    assert desk.state()["screen"] == "done"
    board = read_board(folder, plan)
    cells = board.rows[plan.participants[0].code]
    assert [c.state for c in cells] == ["finished", "finished"]
    assert {c.task_id: c.verdict for c in cells} == {
        "create_cat_walk": "passed", "debug_score_reset": "failed",
    }  # fmt: skip
    assert all(c.actions == 3 for c in cells)
    assert "2 finished" in format_board(board)
    results = study_results(plan, board)
    assert results.participants[0].sr == 0.5 and results.participants[0].mean_actions == 3
    assert "per task" in format_results(results)
    run = json.loads((Path(cells[0].folder or "") / "run.json").read_text())
    assert run["agent"] == "human" and run["task_folder"] is None
    assert run["meta"]["study"] == plan.name and run["meta"]["practice"] is False


def test_a_second_tab_is_refused_and_a_closed_one_resumes(study: tuple[Path, StudyPlan]) -> None:
    desk = _desk(study)
    desk.claim(TAB)
    desk.consent()
    desk.start()
    desk.events(_clicks(2))
    with pytest.raises(Refused, match="already open in another tab") as refused:
        desk.claim(OTHER)
    assert refused.value.status == 409
    with pytest.raises(Refused, match="no longer the study's page"):
        desk.check_tab(OTHER)
    desk.release(TAB)  # the first tab closed
    state = desk.claim(OTHER)
    assert state["screen"] == "task" and state["task"]["elapsed_s"] > 0
    assert desk.active is not None and desk.active.recorder.steps == 2
    assert desk.active.recorder.run.meta["resumed"] == 1
    notes = json.loads(desk.file.read_text())
    assert notes["refusals"][0]["what"].startswith("This study is already open")


def test_crafted_events_and_oversized_uploads_are_refused_and_noted(
    study: tuple[Path, StudyPlan],
) -> None:
    desk = _desk(study)
    desk.claim(TAB)
    desk.consent()
    desk.start()
    crafted = [
        {"now": time.time() * 1000, "events": [{"type": "down", "t": 1.0, "x": 1, "y": 1}]},
        {"now": time.time() * 1000, "events": [{"type": "eval", "t": time.time() * 1000}]},
        {
            "now": time.time() * 1000,
            "events": [{"type": "keydown", "t": time.time() * 1000, "key": "a", "script": "x"}],
        },
        {"now": time.time() * 1000, "events": [{}] * 501},
        ["not", "a", "batch"],
    ]
    for body in crafted:
        with pytest.raises(Refused, match="events refused") as refused:
            desk.events(body)
        assert refused.value.status == 400
    assert desk.active is not None and desk.active.recorder.steps == 0
    with pytest.raises(Refused, match="larger than") as big:
        desk.checkpoint(b"x" * (16 * 1024 * 1024 + 1))
    assert big.value.status == 413
    with pytest.raises(Refused, match="the checkpoint refused"):
        desk.checkpoint(b"not a zip")
    notes = json.loads(desk.file.read_text())
    assert len(notes["refusals"]) == len(crafted) + 2


def test_a_killed_server_leaves_an_interrupted_run_and_the_participant_resumes(
    study: tuple[Path, StudyPlan],
) -> None:
    folder, plan = study
    desk = _desk(study)
    desk.claim(TAB)
    desk.consent()
    _skip_practice(study, desk)
    desk.start()
    desk.events(_clicks(2))
    task_id = plan.participants[0].queue[0]
    desk.checkpoint(_project(study, "debug_game_over"))  # what the page last sent
    # the server is killed: nothing more is written; a new server makes a new desk
    again = _desk(study)
    cell = read_board(folder, plan).rows[plan.participants[0].code][0]
    assert cell.state == "interrupted" and cell.actions == 2
    run = json.loads((Path(cell.folder or "") / "run.json").read_text())
    assert run["status"] == "closed" and run["meta"]["interrupted"] is True
    assert run["meta"]["failure"] == "environment"
    assert (Path(cell.folder or "") / "final.sb3").is_file()
    again.claim(TAB)
    state = again.start()
    assert state["task"]["number"] == 1 and again.active is not None
    assert again.active.recorder.folder.name == f"01-{task_id}-a2"
    assert again.project() == _project(study, "debug_game_over")  # from the checkpoint
    assert again.active.recorder.run.meta["resumed_from"] == f"01-{task_id}"
    _end(again, "done", _project(study, task_id))
    cell = read_board(folder, plan).rows[plan.participants[0].code][0]
    assert (cell.state, cell.attempts, cell.actions) == ("finished", 2, 2)


def test_the_time_limit_ends_a_task_as_given_up(study: tuple[Path, StudyPlan]) -> None:
    folder, plan = study
    plan.protocol.time_limit_s = 1
    desk = _desk(study)
    desk.claim(TAB)
    desk.consent()
    _skip_practice(study, desk)
    desk.start()
    assert desk.active is not None
    desk.active.prior_seconds = 100  # as if the clock had run out long ago
    assert desk.events(_clicks(0))["over_time"] is True
    _end(desk, "done", _project(study, plan.participants[0].queue[0]))
    cell = read_board(folder, plan).rows[plan.participants[0].code][0]
    assert (cell.state, cell.stopped) == ("gave up", "time limit")


def test_a_verdict_left_pending_by_a_stopped_server_is_computed_at_the_next_start(
    study: tuple[Path, StudyPlan],
) -> None:
    folder, plan = study
    desk = _desk(study)
    desk.claim(TAB)
    desk.consent()
    _skip_practice(study, desk)
    desk.start()
    task_id = plan.participants[0].queue[0]

    async def finish_then_stop() -> None:
        await desk.finish("done", _project(study, task_id))
        for job in list(desk.judging):  # the server stops before the verdict is written
            job.cancel()

    asyncio.run(finish_then_stop())
    cell = read_board(folder, plan).rows[plan.participants[0].code][0]
    assert (cell.state, cell.verdict) == ("finished", "evaluating")
    assert study_results(plan, read_board(folder, plan)).participants[0].ended == 0

    async def next_start() -> int:
        again = _desk(study)
        count = again.judge_pending()
        await again.settle()
        return count

    assert asyncio.run(next_start()) == 1
    cell = read_board(folder, plan).rows[plan.participants[0].code][0]
    expected = "passed" if task_id == "create_cat_walk" else "failed"
    assert (cell.state, cell.verdict) == ("finished", expected)


def test_a_drag_s_moves_carry_no_button_change_and_are_taken() -> None:
    """A pointermove during a drag carries button -1 (the DOM's "no button changed"); the
    page's own recorder sends it so, and the batch must be taken, while 7 is no button."""
    from studio.services.studies.events import Crafted, check_batch

    now = 1_000_000.0
    drag = [
        {"type": "down", "t": now, "x": 10.0, "y": 20.0, "button": 0},
        {"type": "move", "t": now + 40, "x": 30.0, "y": 20.0, "button": -1},
        {"type": "up", "t": now + 80, "x": 50.0, "y": 20.0, "button": 0},
    ]
    taken = check_batch({"now": now + 100, "events": drag}, server_now_ms=now + 100)
    assert [e["button"] for e in taken] == [0, -1, 0]
    with pytest.raises(Crafted, match="not a mouse button"):
        check_batch({"now": now, "events": [{**drag[0], "button": 7}]}, server_now_ms=now)

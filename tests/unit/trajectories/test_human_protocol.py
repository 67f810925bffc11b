"""The human session protocol (studio.app.human_sessions) without Qt: a fake port stands in
for the window, a fake driver for the participant in a page, a fake clock for time (issue 37,
part C point 2). The recorder is the real one, so what is saved is what a session saves."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from studio.app.human_sessions import HumanSession
from studio.models.agent import EpisodeStatus, StepRecord
from studio.models.evaluation import EvalResult
from studio.services.core import paths
from studio.services.core.store import TaskFolder, load_task
from studio.services.episodes.human.coalesce import HumanAction
from studio.services.episodes.human.live import Evaluate
from studio.services.episodes.human.protocol import ProtocolCard
from studio.services.episodes.human.session import HumanSessionRecorder

from .build import result

WALL = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
FINAL = b"PK final project"


class Port:
    """The window's side, as calls noted in order."""

    def __init__(self, breaches: list[dict[str, str]] | None = None) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.breaches = breaches or []
        self.times: list[tuple[int, int | None, int]] = []
        self.results: list[tuple[EvalResult, bool]] = []

    async def lock(self, what: str) -> None:
        self.calls.append(("lock", what))

    def unlock(self) -> None:
        self.calls.append(("unlock",))

    def show_task(self, entry: TaskFolder, number: int, total: int) -> None:
        self.calls.append(("task", entry.task.id, number, total))

    def show_time(self, spent_s: int, limit_s: int | None, actions: int) -> None:
        self.times.append((spent_s, limit_s, actions))

    def hide_task(self) -> None:
        self.calls.append(("hide",))

    def take_breaches(self) -> list[dict[str, str]]:
        taken, self.breaches = self.breaches, []
        return taken

    def show_result(self, shown: EvalResult, gave_up: bool) -> None:
        self.results.append((shown, gave_up))

    def say(self, text: str) -> None:
        self.calls.append(("say", text))


class Pages:
    """The lender of the editor page: one page, lent at most once at a time."""

    def __init__(self, busy: bool = False) -> None:
        self.busy = busy
        self.lent = 0
        self.released = 0

    async def acquire(self, lend: bool = True) -> tuple[Any, bool]:
        assert not self.busy
        self.busy, self.lent = True, self.lent + 1
        return f"page {self.lent}", False

    async def refresh(self, page: Any) -> None:
        assert self.busy

    def release(self, page: Any) -> None:
        self.busy, self.released = False, self.released + 1


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


Script = Callable[[int, "Driver"], None]  # (poll number, driver)


class Driver:
    """The participant in a page: each poll runs `script`; finish evaluates the final project
    and ends the recording as the real driver does."""

    def __init__(self, page: Any, recorder: HumanSessionRecorder, script: Script) -> None:
        self.page, self.recorder, self.script = page, recorder, script
        self.steps: list[StepRecord] = []
        self.polls = 0
        self.started = False

    async def start(self) -> None:
        self.started = True

    async def poll(self) -> list[StepRecord]:
        self.polls += 1
        self.script(self.polls, self)
        return []

    def click(self) -> None:
        action = HumanAction({"api": "click", "args": {"x": 3, "y": 4}}, 10.0, 20.0)
        self.steps.append(self.recorder.record(action, None, None))

    async def finish(self, status: EpisodeStatus, evaluate: Evaluate) -> EvalResult | None:
        final = await evaluate(FINAL)
        self.recorder.finish(status, sb3=FINAL, result=final)
        return final


class Evaluator:
    def __init__(self) -> None:
        self.calls: list[tuple[str, bytes, str | None]] = []

    async def evaluate(  # type: ignore[no-untyped-def]
        self, entry, project=None, project_name=None, timeout_s=None, clock=None, seed=0
    ) -> EvalResult:
        self.calls.append((entry.task.id, project, project_name))
        return result(entry.task.id, {"works": True})


@pytest.fixture
def tasks(tmp_path: Path) -> list[TaskFolder]:
    sources = [p for p in sorted(paths.BUNDLED_TASKS.iterdir()) if (p / "task.json").is_file()]
    return [load_task(shutil.copytree(p, tmp_path / "lib" / p.name)) for p in sources[:2]]


def _session(
    tmp_path: Path, script: Script, port: Port | None = None, pages: Pages | None = None
) -> tuple[HumanSession, Port, Pages, Evaluator, Clock, list[Driver]]:
    port, pages, evaluator, clock = port or Port(), pages or Pages(), Evaluator(), Clock()
    drivers: list[Driver] = []
    loaded: list[tuple[Any, str]] = []

    async def load(page: Any, entry: TaskFolder) -> None:
        loaded.append((page, entry.task.id))

    async def get_evaluator() -> Evaluator:
        return evaluator

    def make_driver(page: Any, recorder: HumanSessionRecorder) -> Driver:
        assert loaded and loaded[-1][0] == page  # the task is loaded before recording starts
        drivers.append(Driver(page, recorder, script))
        return drivers[-1]

    session = HumanSession(
        port,
        pages,
        load,
        get_evaluator,
        lambda: tmp_path / "sessions",
        driver=make_driver,
        clock=clock,
        wall=lambda: WALL,
        poll_s=0,
    )
    return session, port, pages, evaluator, clock, drivers


def _run(folder: Path) -> dict[str, Any]:
    return dict(json.loads((folder / "run.json").read_text()))


def test_finish_evaluates_the_final_project_and_saves_the_session(
    tmp_path: Path, tasks: list[TaskFolder]
) -> None:
    holder: list[HumanSession] = []

    def solve(poll: int, driver: Driver) -> None:
        driver.click()
        if poll == 2:
            holder[0].end(EpisodeStatus.DONE)  # Finish

    session, port, pages, evaluator, _clock, drivers = _session(tmp_path, solve)
    holder.append(session)
    card = ProtocolCard(participant="P 01", notes="first")
    folder = asyncio.run(session.run(card, tasks[:1]))
    task_id = tasks[0].task.id
    assert folder == tmp_path / "sessions" / "P_01-20260102-030405"
    assert port.calls == [
        ("lock", "the human baseline session of P 01"),
        ("task", task_id, 1, 1),
        ("hide",),
        ("unlock",),
    ]
    assert evaluator.calls == [(task_id, FINAL, "final.sb3")]
    assert [gave_up for _r, gave_up in port.results] == [False]
    run = _run(folder / task_id)
    assert run["agent"] == "human" and run["status"] == "done" and run["eval"]["success"]
    assert run["meta"]["protocol"]["participant"] == "P 01"
    assert "protocol_breaches" not in run["meta"] and "stopped_by" not in run["meta"]
    steps = [json.loads(s) for s in (folder / task_id / "steps.jsonl").read_text().splitlines()]
    assert [s["action"]["api"] for s in steps] == ["click", "click", "done"]
    assert (folder / task_id / "protocol.json").is_file()
    assert (folder / task_id / "final.sb3").read_bytes() == FINAL
    assert drivers[0].started and (pages.lent, pages.released) == (1, 1)
    assert not session.active and not pages.busy


def test_give_up_fails_the_task_whatever_the_program_passes(
    tmp_path: Path, tasks: list[TaskFolder]
) -> None:
    holder: list[HumanSession] = []
    session, port, _pages, _ev, _clock, _drivers = _session(
        tmp_path, lambda poll, d: holder[0].end(EpisodeStatus.FAILED)
    )
    holder.append(session)
    folder = asyncio.run(session.run(ProtocolCard(participant="P02"), tasks[:1]))
    assert folder is not None
    run = _run(folder / tasks[0].task.id)
    assert run["status"] == "failed" and run["eval"]["success"]  # passes, yet failed
    assert [gave_up for _r, gave_up in port.results] == [True]


def test_the_time_limit_ends_the_task_as_failed(tmp_path: Path, tasks: list[TaskFolder]) -> None:
    clocks: list[Clock] = []

    def slow(poll: int, driver: Driver) -> None:
        clocks[0].now += 25  # each poll, 25 s of the participant's time pass
        if poll == 1:
            driver.click()

    session, port, _pages, _ev, clock, drivers = _session(tmp_path, slow)
    clocks.append(clock)
    folder = asyncio.run(session.run(ProtocolCard(participant="P03", time_limit_s=60), tasks[:1]))
    assert folder is not None
    run = _run(folder / tasks[0].task.id)
    assert run["status"] == "failed" and run["meta"]["stopped_by"] == "time limit"
    assert drivers[0].polls == 3  # 25, 50, then 75 s >= 60 s
    assert port.times == [(0, 60, 0), (25, 60, 1), (50, 60, 1), (75, 60, 1)]
    assert [gave_up for _r, gave_up in port.results] == [True]


def test_breaches_seen_during_a_task_are_saved_with_it(
    tmp_path: Path, tasks: list[TaskFolder]
) -> None:
    seen = [{"at": WALL.isoformat(), "what": "the editor was asked to load golden.sb3"}]
    holder: list[HumanSession] = []
    session, _port, _pages, _ev, _clock, _drivers = _session(
        tmp_path, lambda poll, d: holder[0].end(EpisodeStatus.DONE), port=Port(seen)
    )
    holder.append(session)
    folder = asyncio.run(session.run(ProtocolCard(participant="P04"), tasks))
    assert folder is not None
    first, second = (_run(folder / t.task.id) for t in tasks)
    assert first["meta"]["protocol_breaches"] == seen
    assert "protocol_breaches" not in second["meta"]  # taken once, for the task they happened in


def test_a_queue_runs_in_order_lending_the_page_once_per_task(
    tmp_path: Path, tasks: list[TaskFolder]
) -> None:
    holder: list[HumanSession] = []
    session, port, pages, evaluator, _clock, _drivers = _session(
        tmp_path, lambda poll, d: holder[0].end(EpisodeStatus.DONE)
    )
    holder.append(session)
    folder = asyncio.run(session.run(ProtocolCard(participant="P05"), tasks))
    assert folder is not None
    ids = [t.task.id for t in tasks]
    assert [c for c in port.calls if c[0] == "task"] == [
        ("task", ids[0], 1, 2),
        ("task", ids[1], 2, 2),
    ]
    assert [c[0] for c in evaluator.calls] == ids
    assert (pages.lent, pages.released) == (2, 2)
    assert all((folder / i / "run.json").is_file() for i in ids)


def test_refused_while_the_editor_is_lent_elsewhere(
    tmp_path: Path, tasks: list[TaskFolder]
) -> None:
    session, port, pages, _ev, _clock, _drivers = _session(
        tmp_path, lambda poll, d: None, pages=Pages(busy=True)
    )
    assert asyncio.run(session.run(ProtocolCard(participant="P06"), tasks)) is None
    assert port.calls == [("say", "The editor is busy with a live run; stop it first.")]
    assert pages.lent == 0 and not (tmp_path / "sessions").exists()


def test_a_failing_task_still_gives_the_page_and_the_window_back(
    tmp_path: Path, tasks: list[TaskFolder]
) -> None:
    def broken(poll: int, driver: Driver) -> None:
        raise RuntimeError("the page died")

    session, port, pages, _ev, _clock, _drivers = _session(tmp_path, broken)
    with pytest.raises(RuntimeError, match="the page died"):
        asyncio.run(session.run(ProtocolCard(participant="P07"), tasks))
    assert port.calls[-2:] == [("hide",), ("unlock",)]
    assert (pages.lent, pages.released) == (1, 1) and not session.running

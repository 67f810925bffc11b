"""Check and record (studio.app.task_checks): whichever front end checks, the verdict is kept
beside the task and the library's verdict column reads it (issue 37, part C point 1).

A fake evaluator stands in for the browser: the golden project passes, any other fails."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from studio.app.clocks import clock_policy
from studio.app.task_checks import (
    RECORD_FILE,
    CheckRecordError,
    check_and_record,
    check_task_and_record,
    gather_tasks,
    library_verdicts,
    record_check,
)
from studio.models.errors import StudioError
from studio.models.evaluation import Clock, EvalResult, TestDetail
from studio.services.authoring.check_record import is_fresh, load_check
from studio.services.core.store import load_task, scan_library
from studio.services.runtime.clock_agreement import Agreement, AgreementCache
from tests.helpers.tasks import make_task

WHEN = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def _now() -> datetime:
    return WHEN


class _Fake:
    """Passes the golden project (its bytes), fails every other; notes the clocks; `during`
    runs inside each evaluation (to edit files while a check runs)."""

    def __init__(self, during: Any = None) -> None:
        self.clocks: list[Clock] = []
        self.during = during

    async def evaluate(  # type: ignore[no-untyped-def]
        self, entry, project=None, project_name=None, timeout_s=None, clock=Clock.REAL, seed=0
    ) -> EvalResult:
        self.clocks.append(clock)
        if self.during is not None:
            self.during(entry)
        data = project.read_bytes() if isinstance(project, Path) else project
        passed = data == entry.golden_path.read_bytes()
        return EvalResult(
            task_id=entry.task.id,
            project=str(project_name),
            details=[TestDetail(name="t", passed=passed)],
            success=passed,
            passed_tests=int(passed),
            total_tests=1,
            clock=clock,
        )


def _library(tmp_path: Path) -> Path:
    lib = tmp_path / "lib"
    make_task(lib / "good", task_id="good")
    make_task(lib / "debug_ok", task_id="debug_ok", category="debug")
    weak = make_task(lib / "weak", task_id="weak", category="debug")
    (weak / "initial.sb3").write_bytes((weak / "golden.sb3").read_bytes())
    broken = make_task(lib / "broken", task_id="broken")
    (broken / "task.json").write_text("{")
    return lib


def _check(lib: Path, fake: _Fake, record: bool = True, **policy: Any) -> Any:
    tasks = gather_tasks([lib])
    rules = clock_policy(agreement=AgreementCache(lib.parent / "agree.json"), **policy)
    options = rules.options(mutants=0, reruns=1)
    return asyncio.run(check_and_record(fake, tasks, options, rules, None, record, _now))


def test_a_command_line_check_reaches_the_window_verdict_column(tmp_path: Path) -> None:
    lib = _library(tmp_path)
    checked = _check(lib, _Fake())
    assert {t.id: t.verdict.value for t in checked.report.tasks} == {
        "broken": "invalid",
        "good": "valid",
        "debug_ok": "valid",
        "weak": "invalid",  # a debug task whose initial passes: the bug is not caught
    }
    assert set(checked.recorded) == {"good", "debug_ok", "weak"} and not checked.not_recorded
    scan = scan_library(lib)  # as the window reads a library
    assert library_verdicts(scan.tasks) == {
        "good": ("valid", WHEN),
        "debug_ok": ("valid", WHEN),
        "weak": ("invalid", WHEN),
    }
    assert not (lib / "broken" / RECORD_FILE).exists()  # no task.json: nothing to key it by
    good = load_task(lib / "good")
    assert is_fresh(good, load_check(good))


def test_no_record_keeps_nothing(tmp_path: Path) -> None:
    lib = _library(tmp_path)
    checked = _check(lib, _Fake(), record=False)
    assert checked.report.tasks and not checked.recorded
    assert library_verdicts(scan_library(lib).tasks) == {}


def test_files_edited_during_the_check_leave_the_record_stale(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    make_task(lib / "good", task_id="good")

    def edit(entry: Any) -> None:
        (entry.folder / "evaluate.js").write_text("// edited while the check ran\n")

    _check(lib, _Fake(during=edit))
    entry = load_task(lib / "good")
    record = load_check(entry)
    assert record is not None and record.verdict.value == "valid"
    assert not is_fresh(entry, record)


def test_a_record_that_cannot_be_written_is_named_not_a_failed_check(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    make_task(lib / "good", task_id="good")
    (lib / "good" / RECORD_FILE).mkdir()  # stands where the record would go
    checked = _check(lib, _Fake())
    assert checked.report.ok and not checked.recorded
    problem = checked.not_recorded["good"]
    assert str(lib / "good" / RECORD_FILE) in problem and "could not be recorded" in problem


def test_record_check_raises_a_studio_error_naming_the_file(tmp_path: Path) -> None:
    entry = load_task(make_task(tmp_path / "t", task_id="t"))
    (entry.folder / RECORD_FILE).mkdir()
    checked = _check(tmp_path / "t", _Fake(), record=False)
    with pytest.raises(CheckRecordError, match=RECORD_FILE):
        record_check(entry, checked.report.tasks[0], None, _now)


def test_the_window_check_records_one_task_with_its_progress(tmp_path: Path) -> None:
    entry = load_task(make_task(tmp_path / "t", task_id="t", category="debug"))
    policy = clock_policy(agreement=AgreementCache(tmp_path / "agree.json"))
    seen: list[tuple[int, int]] = []
    fake = _Fake()
    recorded = asyncio.run(
        check_task_and_record(
            fake,
            entry,
            policy.options(mutants=0, reruns=2),
            policy,
            lambda done, expected: seen.append((done, expected)),
            _now,
        )
    )
    assert recorded.check.ok and recorded.when == WHEN
    assert recorded.record is not None and load_check(entry) == recorded.record
    assert seen[-1] == (4, 4) and fake.clocks == [Clock.VIRTUAL] * 4
    raw = json.loads((entry.folder / RECORD_FILE).read_text())
    assert raw["verdict"] == "valid" and raw["when"].startswith("2026-01-02T03:04:05")


def test_one_clock_policy_for_checks_and_evaluations(tmp_path: Path) -> None:
    entry = load_task(make_task(tmp_path / "t", task_id="t"))
    cache = AgreementCache(tmp_path / "agree.json")
    assert clock_policy(agreement=cache).clock_for(entry) is Clock.VIRTUAL
    assert clock_policy(realtime=True, agreement=cache).clock_for(entry) is Clock.REAL
    cache.store(entry, Agreement(False, "differs"))  # a comparison found the clocks disagree
    assert clock_policy(agreement=cache).clock_for(entry) is Clock.REAL
    options = clock_policy(True, True, cache).options(mutants=-1, reruns=0, workers=0, seed=4)
    assert (options.mutants, options.reruns, options.workers, options.seed) == (0, 1, 1, 4)
    assert options.realtime and options.compare_clocks
    fake = _Fake()
    _check(tmp_path / "t", fake, realtime=True)
    assert fake.clocks and set(fake.clocks) == {Clock.REAL}


def test_gather_tasks_names_paths_without_tasks(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(StudioError, match="no task folders"):
        gather_tasks([tmp_path / "empty"])


def test_one_evaluation_falls_back_to_real_time_with_the_unsaved_script(tmp_path: Path) -> None:
    """`studio eval` and the window's Evaluate: a virtual run whose script used what the
    virtual clock cannot serve runs again in real time, with the script text given."""
    entry = load_task(make_task(tmp_path / "t", task_id="t"))
    runs: list[tuple[Clock, str | None]] = []

    class Hazardous:
        async def evaluate(  # type: ignore[no-untyped-def]
            self, entry, project=None, project_name=None, timeout_s=None, clock=Clock.REAL,
            seed=0, script=None,
        ) -> EvalResult:  # fmt: skip
            runs.append((clock, script))
            found = EvalResult(task_id="t", project="p", success=True, clock=clock)
            found.clock_hazards = ["a Worker"] if clock is Clock.VIRTUAL else []
            return found

    cache = AgreementCache(tmp_path / "agree.json")
    policy = clock_policy(agreement=cache)
    result = asyncio.run(policy.evaluate(Hazardous(), entry, b"sb3", script="// unsaved"))  # type: ignore[arg-type]
    assert runs == [(Clock.VIRTUAL, "// unsaved"), (Clock.REAL, "// unsaved")]
    assert result.clock is Clock.REAL and "a Worker" in result.clock_note
    assert policy.clock_for(entry) is Clock.REAL  # remembered for the next evaluation

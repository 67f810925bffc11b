"""Classifying runs: flaky tests, clock agreement, mutant verdicts (fakes stand in for pages)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from studio.models.check import TaskCheck
from studio.models.evaluation import Clock, ErrorKind, EvalError, EvalResult, TestDetail
from studio.services.checking.checker import CheckOptions
from studio.services.checking.mutant_trials import MutantRunner, flaky_tests
from studio.services.core.store import TaskFolder, load_task
from studio.services.runtime.clock_agreement import AgreementCache, compare_verdicts
from tests.helpers.tasks import make_task


def _result(*passed: bool, error: ErrorKind | None = None) -> EvalResult:
    details = [TestDetail(name=f"t{i}", passed=p) for i, p in enumerate(passed)]
    r = EvalResult(
        task_id="x",
        project="p",
        details=details,
        success=all(passed) and not error,
        passed_tests=sum(passed),
        total_tests=len(passed),
    )
    if error is not None:
        r.error = EvalError(kind=error, message="boom")
    return r


def test_flaky_tests_found() -> None:
    runs = [_result(True, True), _result(True, False), _result(True, True)]
    flaky = flaky_tests(runs, "golden")
    assert [(f.test, f.passed_runs, f.runs) for f in flaky] == [("t1", 2, 3)]


def test_clock_comparison_names_the_test() -> None:
    same = compare_verdicts({"golden": (_result(True), _result(True))})
    assert same.agree
    differ = compare_verdicts({"golden": (_result(True, True), _result(True, False))})
    assert not differ.agree and "'t1'" in differ.note and "golden" in differ.note


def test_agreement_cache_round_trip(tmp_path: Path) -> None:
    entry = load_task(make_task(tmp_path / "t"))
    cache = AgreementCache(tmp_path / "agree.json")
    assert cache.lookup(entry) is None
    cache.store(entry, compare_verdicts({"golden": (_result(True), _result(False))}))
    hit = cache.lookup(entry)
    assert hit is not None and not hit.agree
    (entry.folder / "evaluate.js").write_text("module.exports = () => true;")
    assert cache.lookup(entry) is None  # an edit invalidates the cached comparison


def _runner(
    table: dict[str, list[EvalResult]], entry: TaskFolder, golden_runs: list[EvalResult]
) -> MutantRunner:
    """Four mutants whose runs are answered from a table: operator -> results per rerun."""

    async def runs(
        _entry: TaskFolder, _data: bytes | Path, name: str, _clock: Clock
    ) -> list[EvalResult]:
        operator = name.split("-", 1)[0]
        return table.get(operator, [_result(True), _result(True)])

    return MutantRunner(runs, entry, Clock.VIRTUAL, golden_runs, count=4, seed=0)


def test_mutant_classification(tmp_path: Path) -> None:
    entry = load_task(make_task(tmp_path / "t"))
    golden_runs = [_result(True), _result(True)]
    table = {
        "SBD": [_result(False), _result(False)],  # killed
        "SDM": [_result(False), _result(True)],  # flaky
        "CNT": [_result(error=ErrorKind.PROJECT), _result(error=ErrorKind.PROJECT)],  # invalid
    }
    runner = _runner(table, entry, golden_runs)
    check = TaskCheck(id="t", folder=str(entry.folder))
    asyncio.run(runner.run_into(check))
    status = {m.operator: m.status for m in check.mutants}
    assert status.get("SBD") in (None, "killed")
    if "CNT" in status:
        assert status["CNT"] == "invalid" and check.mutants_invalid >= 1
    assert check.mutants_killed == sum(s == "killed" for s in status.values())
    assert all(s.operator in {"SDM"} or not s.flaky for s in check.survivors)


def test_crash_on_mutant_is_no_kill_when_golden_failed_too(tmp_path: Path) -> None:
    entry = load_task(make_task(tmp_path / "t"))
    golden_runs = [_result(False), _result(False)]  # golden fails in these conditions
    table = {
        op: [_result(error=ErrorKind.SCRIPT), _result(error=ErrorKind.SCRIPT)]
        for op in ("SBD", "SDM", "CNT", "ROR", "MIR", "KRM", "AOR")
    }
    runner = _runner(table, entry, golden_runs)
    check = TaskCheck(id="t", folder=str(entry.folder))
    asyncio.run(runner.run_into(check))
    assert check.mutants_killed == 0


# ---- which clock a check uses ---------------------------------------------------------------


class _ClockFake:
    """Stands in for the Evaluator: passes everything, notes each clock used; virtual runs
    report `hazards` (what the page would name)."""

    def __init__(self, hazards: list[str] | None = None) -> None:
        self.clocks: list[Clock] = []
        self.hazards = hazards or []

    async def evaluate(self, entry, project, project_name=None, clock=Clock.REAL, seed=0):  # type: ignore[no-untyped-def]
        self.clocks.append(clock)
        passes = "golden" in str(project_name) or str(project_name).endswith("golden.sb3")
        result = _result(passes)
        result.clock = clock
        if clock is Clock.VIRTUAL:
            result.clock_hazards = list(self.hazards)
        return result


def _check(fake: _ClockFake, cache: AgreementCache, tmp_path: Path, **options: object) -> TaskCheck:
    from studio.services.checking.checker import TaskChecker

    entry = load_task(make_task(tmp_path / "t", category="debug"))
    checker = TaskChecker(fake, CheckOptions(mutants=0, reruns=1, **options), cache)  # type: ignore[arg-type]
    return asyncio.run(checker.check(entry))


def test_first_check_runs_nothing_in_real_time(tmp_path: Path) -> None:
    fake = _ClockFake()
    check = _check(fake, AgreementCache(tmp_path / "c.json"), tmp_path)
    assert fake.clocks == [Clock.VIRTUAL, Clock.VIRTUAL] and check.clock == "virtual"
    assert check.ok, check.errors


def test_a_named_hazard_sends_the_task_to_real_time_and_is_remembered(tmp_path: Path) -> None:
    cache = AgreementCache(tmp_path / "c.json")
    fake = _ClockFake(hazards=["Worker (timers inside a worker run on real time)"])
    check = _check(fake, cache, tmp_path)
    assert fake.clocks == [Clock.VIRTUAL] * 2 + [Clock.REAL] * 2 and check.clock == "real"
    assert check.clock_note.startswith("fell back to real time: the script uses Worker")
    again = _ClockFake()
    assert _check(again, cache, tmp_path).clock == "real" and again.clocks == [Clock.REAL] * 2


def test_clocks_are_compared_only_when_asked_and_once(tmp_path: Path) -> None:
    cache = AgreementCache(tmp_path / "c.json")
    fake = _ClockFake()
    check = _check(fake, cache, tmp_path, compare_clocks=True)
    assert sorted(fake.clocks).count(Clock.REAL) == 2 and len(fake.clocks) == 6
    assert check.clock == "virtual" and check.clock_note.startswith("compared: virtual and real")
    again = _ClockFake()
    _check(again, cache, tmp_path, compare_clocks=True)
    assert again.clocks == [Clock.VIRTUAL] * 2


def test_an_equivalence_mark_made_with_the_command_is_honoured_by_the_next_check(
    tmp_path: Path,
) -> None:
    """`studio equivalent` (run in tests/e2e/test_check_mutants.py on a real check's survivor)
    marks a survivor; the next check of the task lists it as equivalent, with the reason, and
    counts it, while the other survivors stay unmarked."""
    from studio import cli
    from studio.services.checking.checker import TaskChecker

    class AllPass(_ClockFake):  # a script no mutant can fail
        async def evaluate(self, entry, project, project_name=None, clock=Clock.REAL, seed=0):  # type: ignore[no-untyped-def]
            result = _result(True)
            result.clock = clock
            return result

    folder = make_task(tmp_path / "weak", task_id="weak")

    def check() -> TaskCheck:
        options = CheckOptions(mutants=3, reruns=1)
        checker = TaskChecker(AllPass(), options, AgreementCache(tmp_path / "c.json"))  # type: ignore[arg-type]
        return asyncio.run(checker.check(load_task(folder)))

    first = check()
    assert first.verdict.value == "weak" and first.mutants_equivalent == 0
    assert len(first.survivors) == 3 and all(s.equivalent_reason is None for s in first.survivors)
    marked = first.survivors[1].id
    argv = ["equivalent", str(folder), marked, "--reason", "only position differs", "--by", "me"]
    assert cli.main(argv) == 0
    again = check()
    reasons = {s.id: s.equivalent_reason for s in again.survivors}
    assert reasons == {s.id: None for s in first.survivors} | {marked: "only position differs"}
    assert again.mutants_equivalent == 1 and again.verdict.value == "weak"


def test_the_command_records_which_mutant_it_marked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`studio equivalent` finds the mutant again as the check made it (a check of 3 mutants
    with seed 0 lists the first of the 10 the command makes by default) and records its
    operator, block id and description, as the window's mark does; an id the check would not
    make is refused, naming the folder, and so is an empty reason; marking it again replaces
    the mark; --undo takes the mark back."""
    from studio import cli
    from studio.services.checking.mutation.engine import generate_mutants
    from studio.services.core.sb3 import read_project_json

    folder = make_task(tmp_path / "weak", task_id="weak")
    entry = load_task(folder)
    assert entry.golden_path is not None
    golden = read_project_json(entry.golden_path.read_bytes(), entry.golden_path)
    initial = read_project_json(entry.initial_path.read_bytes(), entry.initial_path)
    mutant = generate_mutants(golden, initial, 3, 0)[2]
    argv = ["equivalent", str(folder), mutant.id, "--reason", "same output", "--by", "me"]
    assert cli.main(argv) == 0
    (saved,) = load_task(folder).task.equivalent_mutants
    assert (saved.mutant_id, saved.reason, saved.by) == (mutant.id, "same output", "me")
    assert (saved.operator, saved.block_id, saved.description) == (
        mutant.operator,
        mutant.block_id,
        mutant.description,
    )
    assert saved.operator and saved.block_id and saved.description and saved.at is not None
    assert cli.main([*argv[:3], "--reason", "  same picture "]) == 0  # a new mark replaces it
    assert [m.reason for m in load_task(folder).task.equivalent_mutants] == ["same picture"]
    assert cli.main([*argv[:3], "--reason", " "]) == 2
    assert "give a reason" in capsys.readouterr().err

    assert cli.main(["equivalent", str(folder), "no-such-mutant", "--reason", "r"]) == 2
    err = capsys.readouterr().err
    assert str(folder) in err and "no mutant 'no-such-mutant'" in err and "--seed" in err
    assert cli.main(["equivalent", str(folder), mutant.id, "--reason", "-", "--undo"]) == 0
    assert load_task(folder).task.equivalent_mutants == []


def test_gated_runs_keep_the_bound_and_each_subjects_seed_order() -> None:
    """`run_gated` (the checker's and propose's way to run golden, initial and mutants) never
    runs more evaluations at once than its gate allows, answers per subject in seed order, and
    counts an evaluation that raised as ended."""
    from studio.services.checking.mutant_trials import Subject, run_gated

    running, peak, ended = 0, 0, []

    async def evaluate(project: bytes | Path, name: str, seed: int) -> str:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0)  # let the other evaluations in, if the gate allows them
        running -= 1
        if name == "bad":
            raise ValueError("broken page")
        return f"{name}@{seed}"

    subjects = [
        Subject(b"g", "golden", (5, 6, 7), "golden"),
        Subject(b"i", "initial", (5,), "initial"),
        Subject(b"m", "m1", (5, 6), "mutants"),
    ]
    results = asyncio.run(run_gated(evaluate, subjects, asyncio.Semaphore(2), ended.append))
    assert results == [["golden@5", "golden@6", "golden@7"], ["initial@5"], ["m1@5", "m1@6"]]
    assert peak == 2 and [s.label for s in ended].count("golden") == 3 and len(ended) == 6
    ended.clear()
    bad = [Subject(b"x", "bad", (1,), "mutants")]
    with pytest.raises(ValueError, match="broken page"):
        asyncio.run(run_gated(evaluate, bad, asyncio.Semaphore(1), ended.append))
    assert [s.name for s in ended] == ["bad"]


def test_weakest_scripts_lowest_kill_rate_first() -> None:
    from studio.services.checking.checker import weakest_scripts

    def task(tid: str, killed: int, total: int, invalid: int = 0) -> TaskCheck:
        return TaskCheck(
            id=tid, folder=tid, mutants_total=total, mutants_killed=killed, mutants_invalid=invalid
        )

    checks = [task("a", 9, 10), task("b", 2, 10, invalid=2), task("c", 5, 5), task("d", 0, 0)]
    assert [c.kill_rate for c in checks] == [0.9, 0.25, 1.0, None]
    weak = weakest_scripts(checks)
    assert [(w.id, w.mutants_killed, w.mutants_ran) for w in weak] == [("b", 2, 8), ("a", 9, 10)]


def test_phase_means_land_in_their_own_fields(tmp_path: Path) -> None:
    from studio.models.evaluation import Timings
    from studio.services.checking.checker import check_tasks

    class Timed(_ClockFake):
        async def evaluate(self, *args, **kw):  # type: ignore[no-untyped-def]
            result = await super().evaluate(*args, **kw)
            result.timings = Timings(
                page_ready_s=1.0, page_wait_s=2.0, project_load_s=3.0, script_s=4.0, total_s=5.0
            )
            return result

    entry = load_task(make_task(tmp_path / "t", category="debug"))
    options = CheckOptions(mutants=0, reruns=1)
    report = asyncio.run(
        check_tasks(
            Timed(), [entry], options=options, agreement=AgreementCache(tmp_path / "c.json")
        )  # type: ignore[arg-type]
    )
    phases = report.summary.phases
    assert (phases.page_ready_s, phases.page_wait_s, phases.project_load_s) == (1.0, 2.0, 3.0)
    assert (phases.script_s, phases.total_s) == (4.0, 5.0)


def test_check_progress_counts_only_the_evaluations_it_will_make(tmp_path: Path) -> None:
    """Issue 31 (smaller): asked for more mutants than the task offers, the progress total
    shrinks as soon as that is known, so the count never jumps from 25/36 to done."""
    from studio.services.checking.checker import TaskChecker

    folder = make_task(tmp_path / "t", task_id="t")
    seen: list[tuple[int, int]] = []
    checker = TaskChecker(_ClockFake(), CheckOptions(mutants=400, reruns=2), None)  # type: ignore[arg-type]
    checker.progress = lambda done, total: seen.append((done, total))
    check = asyncio.run(checker.check(load_task(folder)))
    made = check.mutants_total - check.mutants_invalid
    assert made < 400
    assert seen[-1] == (checker.finished, checker.finished)
    last_before_done = seen[-2]
    assert last_before_done[1] == seen[-1][1]  # the total was right before the end

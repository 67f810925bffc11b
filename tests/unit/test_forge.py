"""The forge's inject-and-validate loop with a fake evaluator, its mechanisms and its writer.

The fake evaluator judges a project by its blocks (the real one runs it in a page: see
tests/e2e/test_forge_e2e.py): test 'starts at 0' fails without the go-to block, test 'moves
once' fails with two green-flag scripts. The golden (the Cat of tests.helpers.tasks) gives the
forge two candidates: MIR (the go-to removed) and EHC (the flag script duplicated).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from studio.models.evaluation import ErrorKind, EvalError, EvalResult, TestDetail
from studio.models.forge import BugRecord
from studio.services.checking.mutation import get_operator
from studio.services.core import atomic
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import TaskFolder, load_task
from studio.services.forge import mechanisms, writer
from studio.services.forge.pipeline import ForgeOptions, forge_golden
from tests.helpers.project_checks import rich_project
from tests.helpers.tasks import make_task

Rule = Callable[[dict[str, Any], int], dict[str, bool]]


def cat_rule(project: dict[str, Any], seed: int) -> dict[str, bool]:
    blocks = [b for t in project["targets"] for b in t.get("blocks", {}).values()]
    flags = sum(b["opcode"] == "event_whenflagclicked" for b in blocks)
    return {
        "starts at 0": any(b["opcode"] == "motion_gotoxy" for b in blocks),
        "moves once": flags == 1,
    }


class FakeEvaluator:
    def __init__(self, rule: Rule, error: ErrorKind | None = None) -> None:
        self.rule, self.error, self.calls = rule, error, 0

    async def evaluate(
        self,
        entry: TaskFolder,
        project: Any = None,
        project_name: Any = None,
        timeout_s: Any = None,
        clock: Any = None,
        seed: int = 0,
    ) -> EvalResult:
        self.calls += 1
        data = project if isinstance(project, bytes) else Path(project).read_bytes()
        name = project_name or "p.sb3"
        if self.error is not None:
            return EvalResult(
                task_id=entry.task.id,
                project=name,
                error=EvalError(kind=self.error, message="boom", line=3),
            )
        verdicts = self.rule(read_project_json(data, name), seed)
        details = [
            TestDetail(name=n, passed=ok, error=None if ok else f"{n} failed")
            for n, ok in verdicts.items()
        ]
        return EvalResult(
            task_id=entry.task.id,
            project=name,
            seed=seed,
            success=all(verdicts.values()),
            details=details,
        )


def _forge(tmp_path: Path, rule: Rule, **kw: Any) -> tuple[Any, Path, FakeEvaluator]:
    error = kw.pop("error", None)
    golden = load_task(kw.pop("golden", None) or make_task(tmp_path / "golden"))
    library = tmp_path / "out"
    ev = FakeEvaluator(rule, error)
    opts = ForgeOptions(reruns=5, per_golden=kw.pop("per_golden", 3), derive=False, **kw)
    out = asyncio.run(forge_golden(ev, golden, library, opts))  # type: ignore[arg-type]
    return out, library, ev


def test_caught_bugs_become_whole_debug_tasks_with_their_bug_record(tmp_path: Path) -> None:
    out, library, ev = _forge(tmp_path, cat_rule)
    assert out.error is None and out.kept == 2 and out.tried == 2, out
    mechs = sorted(r.mechanism for r in out.records.values())
    assert mechs == ["event_handler_conflict", "missing_initialization"]
    for tid, record in out.records.items():
        entry = load_task(library / tid)
        assert entry.task.category.value == "debug" and entry.task.review.state.value == "draft"
        assert record.report.symptom in entry.task.instruction
        stored = BugRecord.model_validate_json((library / tid / "bug.json").read_text())
        assert stored == record and stored.inverse_patch and stored.failing_tests
        assert stored.golden_pass_rate == 1.0 and stored.bugged_pass_rate == 0.0
        bugged = read_project_json((library / tid / "initial.sb3").read_bytes(), "initial")
        assert not all(cat_rule(bugged, 0).values())
    # golden and both candidates, 5 reruns each, then all three again on 5 fresh seeds
    assert ev.calls == 5 * 3 * 2
    again, _, ev2 = _forge(tmp_path, cat_rule)
    assert (again.kept, again.kept_before, ev2.calls) == (0, 2, 5)  # a rerun repeats nothing


def test_bugs_the_tests_miss_flaky_bugs_and_unwanted_mechanisms_are_rejected(
    tmp_path: Path,
) -> None:
    def misses_ehc(project: dict[str, Any], seed: int) -> dict[str, bool]:
        return {"starts at 0": cat_rule(project, seed)["starts at 0"]}

    out, _, _ = _forge(tmp_path / "a", misses_ehc)
    assert out.kept == 1 and out.rejected == {"not caught by the tests": 1}

    def flaky(project: dict[str, Any], seed: int) -> dict[str, bool]:
        v = cat_rule(project, seed)
        return {k: ok or seed == 2 for k, ok in v.items()}  # the bugs pass on 1 run of 5

    out, _, _ = _forge(tmp_path / "b", flaky)
    assert out.kept == 0 and out.rejected == {"not caught by the tests": 2}
    out, _, _ = _forge(tmp_path / "c", cat_rule, mechanisms=["event_handler_conflict"])
    assert out.kept == 1 and out.rejected == {"mechanism not wanted": 1}


def test_a_bug_whose_other_test_flips_between_reruns_is_rejected(tmp_path: Path) -> None:
    """The bug is caught, but another test gives the bugged program different verdicts on
    different seeds (a sound that plays in some runs, say): `studio check` would call the
    forged task's reruns flaky, so the forge does not keep it."""

    def noisy(project: dict[str, Any], seed: int) -> dict[str, bool]:
        v = cat_rule(project, seed)
        whole = all(v.values())
        return {**v, "a sound plays": whole or seed % 3 == 0}  # golden: always

    out, library, _ = _forge(tmp_path, noisy)
    assert out.kept == 0, out
    assert out.rejected == {"a test's verdict differs between reruns": 2}, out
    assert not library.exists() or not list(library.iterdir())


def test_a_bug_caught_on_the_forge_s_seeds_only_is_rejected(tmp_path: Path) -> None:
    """Tests that hold on seeds 0-4 only (a random end state, say) do not make a task that an
    independent check with other seeds would call invalid."""

    def seed_bound(project: dict[str, Any], seed: int) -> dict[str, bool]:
        v = cat_rule(project, seed)
        return {"starts at 0": v["starts at 0"], "moves once": v["moves once"] or seed >= 5}

    out, library, _ = _forge(tmp_path, seed_bound)
    assert out.kept == 1 and out.rejected == {"not caught on fresh seeds": 1}, out
    (record,) = out.records.values()
    assert record.mechanism == "missing_initialization"
    assert [p.name for p in library.iterdir()] == list(out.records)
    assert out.phases["confirm"] > 0


def test_a_bug_failing_exactly_like_a_kept_one_is_equivalent(tmp_path: Path) -> None:
    def one_test(project: dict[str, Any], seed: int) -> dict[str, bool]:
        return {"all good": all(cat_rule(project, seed).values())}

    out, _, _ = _forge(tmp_path, one_test)
    assert out.kept == 1 and out.rejected == {"equivalent to a bug kept before": 1}


def test_a_golden_that_fails_or_whose_script_cannot_run_is_named(tmp_path: Path) -> None:
    def flaky_golden(project: dict[str, Any], seed: int) -> dict[str, bool]:
        return {"t": seed != 3}

    out, library, _ = _forge(tmp_path / "a", flaky_golden)
    assert "fails its own tests (passes 4 of 5 runs)" in (out.error or "")
    assert out.kept == 0 and not list(library.glob("*/task.json"))
    out, _, _ = _forge(tmp_path / "b", cat_rule, error=ErrorKind.SYNTAX)
    assert "evaluate.js: the script cannot run (syntax error line 3): boom" in (out.error or "")


def test_a_golden_with_nothing_to_mutate_is_named(tmp_path: Path) -> None:
    folder = make_task(tmp_path / "golden")
    from tests.helpers.sample_task import project_json, sb3_bytes

    (folder / "golden.sb3").write_bytes(sb3_bytes(project_json({})))
    out, _, _ = _forge(tmp_path, lambda p, s: {"t": True}, golden=folder)
    assert "nothing to mutate" in (out.error or "")


def test_a_task_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch: Any) -> None:
    golden = load_task(make_task(tmp_path / "golden"))
    out, _, _ = _forge(tmp_path / "ok", cat_rule)
    record = next(iter(out.records.values()))
    real = atomic.write_text

    def dies_on_bug_json(path: Path, text: str) -> None:
        if path.name == "bug.json":
            raise KeyboardInterrupt
        real(path, text)

    monkeypatch.setattr(atomic, "write_text", dies_on_bug_json)
    lib = tmp_path / "lib"
    with pytest.raises(KeyboardInterrupt):
        writer.write_task(lib, "t1", golden, b"bugged", record, None)
    assert list(lib.iterdir()) == []
    (lib / ".forge-t2-dead").mkdir()  # what a kill would leave
    writer.clean_leftovers(lib)
    assert list(lib.iterdir()) == []


def test_mechanisms_of_operators_and_loop_thresholds() -> None:
    golden = rich_project()
    assert mechanisms.mechanism_of("MIR", golden, "Cat", "c-goto") == "missing_initialization"
    assert mechanisms.mechanism_of("CNT", golden, "Cat", "c-repeat") == "non_terminating_loop"
    assert mechanisms.mechanism_of("CNT", golden, "Cat", "c-gt") == "incorrect_conditional_logic"
    assert mechanisms.mechanism_of("SBD", golden, "Cat", "c-goto") is None
    assert mechanisms.triggers_of(golden, "Cat", "c-move") == ["key:right arrow"]
    assert mechanisms.triggers_of(golden, "Cat", "c-lt") == ["broadcast:start"]
    assert mechanisms.trigger_words(["green_flag", "key:space"]) == (
        "click the green flag; press the space key"
    )


def test_coverage_order_lets_mechanisms_take_turns_fewest_kept_first(tmp_path: Path) -> None:
    from studio.services.checking.mutation.engine import generate_mutants

    golden = rich_project()
    mutants = generate_mutants(golden, None, 40, 0, operators=["MIR", "EHC"])
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "bug.json").write_text(json.dumps({"mechanism": "event_handler_conflict"}))
    ordered = mechanisms.coverage_order(mutants, golden, tmp_path)
    assert [m.operator for m in ordered[:4]] == ["MIR", "EHC", "MIR", "EHC"]


def test_ehc_duplicates_an_event_script_with_fresh_ids() -> None:
    golden = rich_project()
    op = get_operator("EHC")
    site = next(s for s in op.candidates(golden) if s.block_id == "c-key")
    bug = op.apply(golden, site)
    from studio.services.core.blocks import find_target
    from tests.helpers.project_checks import assert_valid_project

    assert_valid_project(bug)
    cat = find_target(bug, "Cat")["blocks"]
    copies = [b for b, blk in cat.items() if b.startswith("ehc-")]
    assert len(copies) == 2 and {cat[b]["opcode"] for b in copies} == {
        "event_whenkeypressed",
        "motion_changexby",
    }
    assert "duplicated the 'when right arrow key pressed' script" in op.describe(golden, site)


def test_the_command_refuses_paths_without_a_golden_before_a_browser_starts(
    tmp_path: Path, capsys: Any
) -> None:
    from studio.cli import main

    assert main(["forge", str(tmp_path), "--out", str(tmp_path / "out")]) == 2
    assert "no task with a golden project to forge from" in capsys.readouterr().err


def test_a_crashed_or_stalled_page_is_no_verdict_and_runs_again(tmp_path: Path) -> None:
    class Stalling(FakeEvaluator):
        """Every other evaluation (or every one) ends on a page that stopped answering."""

        def __init__(self, always: bool) -> None:
            super().__init__(cat_rule)
            self.always = always

        async def evaluate(self, entry: TaskFolder, *args: Any, **kw: Any) -> EvalResult:
            result = await super().evaluate(entry, *args, **kw)
            if self.always or self.calls % 2:
                error = EvalError(kind=ErrorKind.STALLED, message="no page got ready")
                return EvalResult(task_id=entry.task.id, project="p", error=error)
            return result

    golden = load_task(make_task(tmp_path / "golden"))
    opts = ForgeOptions(reruns=5, per_golden=3, derive=False)
    flaky = Stalling(always=False)
    out = asyncio.run(forge_golden(flaky, golden, tmp_path / "a", opts))  # type: ignore[arg-type]
    assert out.error is None and out.kept == 2, out
    assert out.evaluations == flaky.calls == 2 * 5 * 3 * 2  # each one twice
    dead = Stalling(always=True)
    out = asyncio.run(forge_golden(dead, golden, tmp_path / "b", opts))  # type: ignore[arg-type]
    assert "could not be evaluated in 5 of 5 runs, even on fresh pages (stalled" in (
        out.error or ""
    )
    assert dead.calls == 5 * 3  # three attempts per run

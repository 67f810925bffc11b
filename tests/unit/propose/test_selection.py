"""Keeping tests: usable on every golden run, a greedy cover of mutants and the initial program."""

from __future__ import annotations

from studio.models.evaluation import ErrorKind, EvalError, EvalResult, TestDetail
from studio.services.propose.model import Proposal
from studio.services.propose.selection import select, verdicts


def _p(name: str, kind: str = "end", mentioned: bool = False) -> Proposal:
    return Proposal(id=name, kind=kind, scenario="flag", key="k", expected=1, words=name,
                    mentioned=mentioned)  # fmt: skip


def _v(**passed: bool) -> dict[str, bool]:
    return dict(passed)


def test_greedy_cover_keeps_the_fewest_tests_that_kill_every_killable_mutant() -> None:
    props = [_p("a"), _p("b"), _p("c"), _p("flaky")]
    golden = [_v(a=True, b=True, c=True, flaky=True), _v(a=True, b=True, c=True, flaky=False)]
    initial = _v(a=True, b=False, c=True, flaky=False)
    mutants = {
        "m1": _v(a=False, b=False, c=True, flaky=False),
        "m2": _v(a=False, b=True, c=False, flaky=False),
        "m3": _v(a=True, b=True, c=True, flaky=False),
        "broken": None,
    }
    sel = select(props, golden, initial, mutants)
    assert [p.words for p in sel.kept] == ["a", "b"]
    assert sel.usable == 3  # 'flaky' failed one golden run
    assert (sel.mutants_total, sel.mutants_killed, sel.survivors) == (3, 2, ["m3"])
    assert sel.initial_failed
    assert sel.killed_nothing == []
    assert sel.kept[0].kills == ["m1", "m2"]


def test_ties_prefer_what_the_instruction_mentions_then_simpler_checks() -> None:
    props = [_p("seq", "sequence"), _p("end", "end"), _p("named", "period", mentioned=True)]
    golden = [_v(seq=True, end=True, named=True)]
    mutants = {"m": _v(seq=False, end=False, named=False)}
    sel = select(props, golden, _v(seq=True, end=True, named=True), mutants)
    assert [p.words for p in sel.kept] == ["named"]
    sel = select(props[:2], golden, None, mutants)
    assert [p.words for p in sel.kept] == ["end"]


def test_without_mutants_the_initial_decides_and_else_end_states_are_kept() -> None:
    props = [_p("a"), _p("b", "sequence")]
    sel = select(props, [_v(a=True, b=True)], _v(a=True, b=False), {})
    assert [p.words for p in sel.kept] == ["b"]
    assert sel.killed_nothing == ["b"] and sel.initial_failed
    sel = select(props, [_v(a=True, b=True)], _v(a=True, b=True), {})
    assert [p.words for p in sel.kept] == ["a"] and not sel.initial_failed


def test_verdicts_of_broken_and_failed_evaluations() -> None:
    ok = EvalResult(task_id="t", project="p", details=[TestDetail(name="a", passed=True)])
    assert verdicts(ok) == {"a": True}
    ok.error = EvalError(kind=ErrorKind.TIMEOUT, message="blocked")
    assert verdicts(ok) == {}  # every test fails: the mutant is killed
    ok.error = EvalError(kind=ErrorKind.PROJECT, message="cannot load")
    assert verdicts(ok) is None  # no verdict: never a kill

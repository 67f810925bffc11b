"""Keeping the proposed tests that matter: a greedy set cover over mutants and the initial program.

Every candidate test ran in one script on the golden program (one run per seed), the initial
program and each mutant of the golden. A test is usable when it passed on every golden run. A
usable test kills a mutant when it failed on it (an evaluation that failed as a whole, other
than a mutant the VM cannot load, fails every test), and catches the initial program when it
failed there. The kept set is built greedily: the test that kills the most of what is not yet
killed (the initial program counts as one more item), ties broken by what the instruction
mentions, then by the simpler kind of check. When nothing is killed at all, the usable tests
that the initial program fails are kept, or else the first end-state tests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from studio.models.evaluation import ErrorKind, EvalResult
from studio.services.propose.model import Proposal
from studio.services.propose.proposals import KIND_RANK

__all__ = ["FALLBACK_TESTS", "INITIAL", "Selection", "Verdicts", "mark_kills", "select", "verdicts"]

INITIAL = "<initial>"
FALLBACK_TESTS = 3

Verdicts = dict[str, bool]  # test name -> passed


def verdicts(result: EvalResult) -> Verdicts | None:
    """What each test gave; None for a program the VM cannot load (no verdict at all)."""
    if result.error is not None:
        return None if result.error.kind is ErrorKind.PROJECT else {}
    return {d.name: d.passed for d in result.details}


@dataclass
class Selection:
    """The kept tests and what they leave: survivors, kept tests that killed nothing."""

    kept: list[Proposal]
    usable: int
    mutants_total: int
    mutants_killed: int
    survivors: list[str] = field(default_factory=list)
    killed_nothing: list[str] = field(default_factory=list)
    initial_failed: bool = False


def mark_kills(
    proposals: Sequence[Proposal],
    golden: Sequence[Verdicts | None],
    initial: Verdicts | None,
    mutants: Mapping[str, Verdicts | None],
) -> list[Proposal]:
    """The usable proposals, each with its kills and whether the initial program fails it."""
    usable = [p for p in proposals if all(g is not None and g.get(p.words) for g in golden)]
    for p in usable:
        p.kills = [m for m, v in mutants.items() if v is not None and not v.get(p.words, False)]
        p.fails_initial = initial is not None and not initial.get(p.words, False)
    return usable


def _items(p: Proposal) -> set[str]:
    return set(p.kills) | ({INITIAL} if p.fails_initial else set())


def _preference(p: Proposal) -> tuple[int, int, str]:
    return (-int(p.mentioned), KIND_RANK.get(p.kind, 9), p.id)


def select(
    proposals: Sequence[Proposal],
    golden: Sequence[Verdicts | None],
    initial: Verdicts | None,
    mutants: Mapping[str, Verdicts | None],
) -> Selection:
    usable = mark_kills(proposals, golden, initial, mutants)
    uncovered = set().union(*(_items(p) for p in usable)) if usable else set()
    kept: list[Proposal] = []
    while uncovered:
        best = min(usable, key=lambda p: (-len(_items(p) & uncovered), _preference(p)))
        gain = _items(best) & uncovered
        if not gain:
            break
        kept.append(best)
        uncovered -= gain
    if not kept:
        kept = _fallback(usable)
    valid = [m for m, v in mutants.items() if v is not None]
    killed = set().union(*(set(p.kills) for p in kept)) if kept else set()
    return Selection(
        kept=sorted(kept, key=lambda p: p.id),
        usable=len(usable),
        mutants_total=len(valid),
        mutants_killed=len(killed),
        survivors=[m for m in valid if m not in killed],
        killed_nothing=[p.words for p in kept if not p.kills],
        initial_failed=any(p.fails_initial for p in kept),
    )


def _fallback(usable: Sequence[Proposal]) -> list[Proposal]:
    catching = [p for p in usable if p.fails_initial]
    pool = catching or [p for p in usable if p.kind == "end"] or list(usable)
    return sorted(pool, key=_preference)[:FALLBACK_TESTS]

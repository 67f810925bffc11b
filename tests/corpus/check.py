"""Running one conformance case on both clocks and comparing verdicts (used by
tests/e2e/test_conformance*.py, two modules so that pytest-xdist spreads them over workers)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from studio.models.evaluation import Clock, EvalResult
from tests.corpus.case import Case, Variant

CLOCKS = (Clock.VIRTUAL, Clock.REAL)


def verdicts(result: EvalResult) -> tuple[tuple[str, bool], ...]:
    return tuple((d.name, d.passed) for d in result.details)


def describe(result: EvalResult) -> str:
    """One clock's outcome: its verdicts with each failure's message, or the page's error."""
    lines = [f"  {result.clock.value} clock:"]
    if result.error is not None:
        lines.append(f"    error ({result.error.kind.value}): {result.error.message}")
    for d in result.details:
        mark = "pass" if d.passed else "FAIL"
        lines.append(f"    {mark} {d.name}" + (f" -- {d.error}" if d.error else ""))
    return "\n".join(lines)


def check_case(case: Case, variant: Variant, folder: Path, evaluate: Callable[..., Any]) -> None:
    """Evaluate `variant` with the case's script on the virtual and the real clock; the two
    verdict lists must be equal (a real-clock disagreement confirmed by a second real run),
    and equal to the variant's expected verdicts."""
    entry = case.write_task(folder)
    project = variant.build().build()
    results = [evaluate(entry, project, clock=clock) for clock in CLOCKS]
    expected = "\n".join(f"    {'pass' if ok else 'FAIL'} {name}" for name, ok in variant.expected)
    report = "\n".join([f"{case.id} / {variant.name}", *map(describe, results)])
    report += f"\n  expected:\n{expected}"
    virtual, real = (verdicts(r) for r in results)
    if virtual != real:
        # The real clock is the noisy reference: a page starved of frames by other work on the
        # machine (other test workers, two cores) misses a timing window that it meets when it
        # gets them. A disagreement counts when a second real run confirms it.
        again = evaluate(entry, project, clock=Clock.REAL)
        report += "\n  real clock, run again:\n" + describe(again).split("\n", 1)[1]
        real = verdicts(again)
    assert virtual == real, "the clocks disagree\n" + report
    assert virtual == variant.expected, "unexpected verdicts\n" + report

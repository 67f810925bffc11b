"""Pass rates of reruns and the tests that tell a bug (the R/θ rule of the forge): the
arithmetic `pipeline` judges candidates with, without a browser."""

from __future__ import annotations

from collections.abc import Sequence

from studio.models.evaluation import EvalResult
from studio.models.forge import FailingTest

__all__ = ["failing_tests", "failure_message", "outcome_signature", "pass_rate", "test_rates"]


def pass_rate(results: Sequence[EvalResult]) -> float:
    """The share of `results` that passed (0 for none)."""
    return sum(r.success for r in results) / max(1, len(results))


def test_rates(results: Sequence[EvalResult]) -> dict[str, float]:
    """Per test name seen in `results`, the share of results in which it passed."""
    names: list[str] = []
    for r in results:
        names += [d.name for d in r.details if d.name not in names]
    return {
        n: sum(any(d.name == n and d.passed for d in r.details) for r in results)
        / max(1, len(results))
        for n in names
    }


def failing_tests(
    golden: Sequence[EvalResult],
    bugged: Sequence[EvalResult],
    theta_pass: float,
    theta_fail: float,
) -> list[FailingTest]:
    """The tests that tell the bug: passed in at least `theta_pass` of the golden's runs and in
    at most `theta_fail` of the bugged program's, each with a message a bugged run gave."""
    g, b = test_rates(golden), test_rates(bugged)
    out = []
    for name, rate in g.items():
        if rate >= theta_pass and b.get(name, 0.0) <= theta_fail:
            out.append(
                FailingTest(
                    name=name,
                    message=failure_message(bugged, name),
                    golden_pass_rate=rate,
                    bugged_pass_rate=b.get(name, 0.0),
                )
            )
    return out


def failure_message(results: Sequence[EvalResult], name: str) -> str:
    """The first error test `name` gave in `results` (at most 500 characters), else ''."""
    found = (d.error for r in results for d in r.details if d.name == name and d.error)
    return next(found, "")[:500]


def outcome_signature(bugged: Sequence[EvalResult]) -> tuple:
    """What the bugged runs showed, run by run (error kind, each test's verdict and error):
    two bugs with the same signature are taken as equivalent."""
    return tuple(
        (
            r.error.kind.value if r.error else "",
            tuple(sorted((d.name, d.passed, d.error or "") for d in r.details)),
        )
        for r in bugged
    )

"""The exact McNemar test against p-values computed by hand, and `report --compare`."""

from __future__ import annotations

from fractions import Fraction

import pytest

from studio.models.errors import StudioError
from studio.models.report import ReportRow, RunReport, TaskStats
from studio.services.core.mcnemar import binomial_cdf_half, mcnemar_exact
from studio.services.runs.compare import compare_rows, format_paired


@pytest.mark.parametrize(
    ("b", "c", "p"),
    [
        (0, 0, 1.0),  # no discordant pair
        (0, 5, 2 / 32),  # 2 * C(5,0) / 2^5
        (5, 0, 2 / 32),  # symmetric
        (1, 9, 2 * (1 + 10) / 1024),  # 2 * (C(10,0) + C(10,1)) / 2^10 = 0.021484375
        (2, 8, 2 * (1 + 10 + 45) / 1024),  # 0.109375
        (3, 3, 1.0),  # 2 * 42/64 > 1, capped
        (0, 1, 1.0),  # 2 * 1/2
    ],
)
def test_exact_mcnemar_p_values_computed_by_hand(b: int, c: int, p: float) -> None:
    assert mcnemar_exact(b, c) == pytest.approx(p, abs=1e-12)


def test_binomial_cdf_half_is_exact() -> None:
    assert binomial_cdf_half(2, 4) == Fraction(11, 16)  # (1 + 4 + 6) / 16
    assert binomial_cdf_half(-1, 4) == 0 and binomial_cdf_half(9, 4) == 1
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 2)


def _row(agent: str, outcomes: dict[str, tuple[str, int, int]]) -> ReportRow:
    tasks = [
        TaskStats(task_id=t, category=cat, runs=n, sr=s / n, psr=0.0, successes=s)
        for t, (cat, s, n) in outcomes.items()
    ]
    return ReportRow(agent=agent, mode="composite", categories={}, overall={}, tasks=tasks)  # type: ignore[arg-type]


def test_compare_counts_discordant_tasks_per_category_and_overall() -> None:
    a = _row(
        "A",
        {
            "t1": ("debug", 1, 1),
            "t2": ("debug", 1, 1),
            "t3": ("create", 0, 1),
            "t4": ("create", 2, 2),
            "t5": ("debug", 1, 2),
            "only-a": ("debug", 1, 1),
        },
    )
    b = _row(
        "B",
        {
            "t1": ("debug", 0, 1),
            "t2": ("debug", 0, 1),
            "t3": ("create", 1, 1),
            "t4": ("create", 2, 2),
            "t5": ("debug", 0, 2),
        },
    )
    report = RunReport(root="", rows=[a, b])
    c = compare_rows(report, "A", "B/composite")
    cells = {cell.category: cell for cell in c.cells}
    assert (cells["debug"].a_only, cells["debug"].b_only, cells["debug"].tasks) == (3, 0, 3)
    assert cells["debug"].p_value == pytest.approx(0.25)  # 2 * 1/8
    assert (cells["create"].a_only, cells["create"].b_only, cells["create"].both) == (0, 1, 1)
    assert (cells["overall"].a_only, cells["overall"].b_only) == (3, 1)
    assert cells["overall"].p_value == pytest.approx(2 * 5 / 16)  # 0.625
    assert c.unpaired == ["only-a"]
    assert "only-a" in format_paired(c)
    with pytest.raises(StudioError, match="no runs of 'C'"):
        compare_rows(report, "A", "C")

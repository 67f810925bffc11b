"""The statistics module against values computed by hand (and checked against tables)."""

from __future__ import annotations

import pytest

from studio.services.core import stats


def test_wilson_interval_of_8_out_of_10_and_of_0_out_of_10() -> None:
    # p = 0.8, z^2 = 3.8415: centre 0.99207 / 1.38415 = 0.71673, half 0.31362 / 1.38415 = 0.22658
    low, high = stats.wilson(8, 10)  # type: ignore[misc]
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    # 0/10: the upper bound is z^2 / (n + z^2) = 3.8415 / 13.8415
    assert stats.wilson(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert stats.wilson(0, 0) is None
    with pytest.raises(ValueError):
        stats.wilson(3, 2)


@pytest.mark.parametrize(
    ("df", "expected"), [(1, 12.7062), (2, 4.3027), (4, 2.7764), (10, 2.2281), (30, 2.0423)]
)
def test_t_quantile_matches_the_printed_tables(df: int, expected: float) -> None:
    assert stats.t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)


def test_cluster_t_interval_over_task_means() -> None:
    # mean 0.6, s = 0.1, s / sqrt(3) = 0.057735, t(0.975, 2) = 4.3027: half width 0.24841
    low, high = stats.cluster_t_interval([0.5, 0.6, 0.7])  # type: ignore[misc]
    assert low == pytest.approx(0.35159, abs=1e-4) and high == pytest.approx(0.84841, abs=1e-4)
    assert stats.cluster_t_interval([0.5]) is None
    assert stats.cluster_t_interval([0.2, 0.2]) == (0.2, 0.2)
    assert stats.cluster_t_interval([0.0, 0.1, 0.9])[0] == 0.0  # type: ignore[index]


def test_pass_at_k_and_pass_hat_k_by_hand() -> None:
    # n = 5 episodes, c = 2 successes: pass@2 = 1 - C(3,2)/C(5,2) = 1 - 3/10; pass^2 = 1/10
    assert stats.pass_at_k(5, 2, 2) == pytest.approx(0.7)
    assert stats.pass_hat_k(5, 2, 2) == pytest.approx(0.1)
    assert stats.pass_at_k(5, 2, 1) == pytest.approx(0.4) == stats.pass_hat_k(5, 2, 1)
    assert stats.pass_at_k(3, 2, 2) == 1.0  # fewer failures than draws
    assert stats.pass_at_k(3, 0, 3) == 0.0 and stats.pass_hat_k(3, 3, 3) == 1.0
    with pytest.raises(ValueError):
        stats.pass_at_k(2, 1, 3)


def test_pass_at_k_averaged_over_tasks_up_to_the_fewest_epochs() -> None:
    # task A 1/3, task B 3/4: k goes to 3; pass@2 = ((1 - 1/3) + 1) / 2, pass^2 = (0 + 1/2) / 2
    at = stats.mean_over_tasks([(3, 1), (4, 3)])
    hat = stats.mean_over_tasks([(3, 1), (4, 3)], hat=True)
    assert list(at) == [1, 2, 3]
    assert at[1] == pytest.approx((1 / 3 + 3 / 4) / 2)
    assert at[2] == pytest.approx((2 / 3 + 1) / 2)
    assert hat[2] == pytest.approx((0 + 3 / 6) / 2)
    assert at[3] == pytest.approx(1.0) and hat[3] == pytest.approx((0 + 1 / 4) / 2)
    assert stats.mean_over_tasks([]) == {}


def test_sample_variance() -> None:
    assert stats.sample_variance([1.0, 0.0, 1.0, 0.0]) == pytest.approx(1 / 3)
    assert stats.sample_variance([1.0]) is None

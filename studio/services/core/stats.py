"""Statistics of repeated episodes: confidence intervals, pass@k and pass^k. Plain math, no I/O.

- `wilson(successes, n)`: the Wilson score interval of a proportion at 95 % (z = 1.959964).
  Used for SR over episodes, drag Pass@k and QA accuracies over items.
- `cluster_t_interval(values)`: a t interval of a mean over clusters. PSR is averaged per task
  first (its epochs are one cluster: they share a task, so they are not independent), then the
  interval is mean +- t(0.975, T - 1) * s / sqrt(T) over the T task means (s: their sample
  standard deviation). One task gives no interval (None); identical task means give [m, m].
- `pass_at_k(n, c, k)`: the unbiased estimator of Chen et al. 2021, 1 - C(n-c, k) / C(n, k):
  the chance that at least one of k episodes drawn without replacement from the n played
  (c of them successful) succeeds. `pass_hat_k(n, c, k)` = C(c, k) / C(n, k): all k succeed.
  Both are averaged over tasks by `mean_over_tasks`, for k up to the fewest epochs of a task.
- `sample_variance(values)`: with n - 1 in the denominator; None below two values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = [
    "Z95", "cluster_t_interval", "mean_over_tasks", "pass_at_k", "pass_hat_k", "sample_variance",
    "t_cdf", "t_quantile", "wilson",
]  # fmt: skip

Z95 = 1.959963984540054  # the standard normal's 0.975 quantile


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of `successes` out of `n` (None when n is 0)."""
    if n <= 0:
        return None
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def sample_variance(values: Sequence[float]) -> float | None:
    """The unbiased sample variance; None for fewer than two values."""
    if len(values) < 2:
        return None
    m = sum(values) / len(values)
    return sum((v - m) ** 2 for v in values) / (len(values) - 1)


def cluster_t_interval(cluster_means: Sequence[float]) -> tuple[float, float] | None:
    """95 % t interval of the mean of `cluster_means` (one value per task), clipped to [0, 1]."""
    var = sample_variance(cluster_means)
    if var is None:
        return None
    n = len(cluster_means)
    m = sum(cluster_means) / n
    half = t_quantile(0.975, n - 1) * math.sqrt(var / n)
    return max(0.0, m - half), min(1.0, m + half)


def pass_at_k(n: int, c: int, k: int) -> float:
    """1 - C(n-c, k) / C(n, k): at least one success among k of the n episodes."""
    _check(n, c, k)
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """C(c, k) / C(n, k): every one of k episodes drawn from the n succeeds."""
    _check(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def _check(n: int, c: int, k: int) -> None:
    if not (0 <= c <= n and 1 <= k <= n):
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")


def mean_over_tasks(counts: Sequence[tuple[int, int]], hat: bool = False) -> dict[int, float]:
    """pass@k (or pass^k with `hat`) for k = 1 .. min n, averaged over tasks' (n, c)."""
    if not counts:
        return {}
    kmax = min(n for n, _ in counts)
    fn = pass_hat_k if hat else pass_at_k
    return {k: sum(fn(n, c, k) for n, c in counts) / len(counts) for k in range(1, kmax + 1)}


# ---- Student's t quantile (no scipy in the dependencies) ----------------------------------
def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with `df` degrees of freedom."""
    x = df / (df + t * t)
    tail = 0.5 * _betainc(df / 2, 0.5, x)
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: int) -> float:
    """The `p` quantile (0.5 < p < 1) of Student's t, by bisection on `t_cdf`."""
    if df < 1 or not 0.5 < p < 1:
        raise ValueError(f"need df >= 1 and 0.5 < p < 1 (df={df}, p={p})")
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (continued fraction, Lentz)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    ln_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(ln_front + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1) / (a + b + 2):
        return 1.0 - front * _beta_cf(b, a, 1 - x) / b
    return front * _beta_cf(a, b, x) / a


def _beta_cf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h

"""The exact McNemar test on paired outcomes (two agents, or modes, on the same tasks).

Of the pairs, only the discordant ones count: `b` tasks the first solved and the second did not,
`c` the other way round. Under the null hypothesis (both equally good) each discordant pair
falls either way with probability 1/2, so min(b, c) is binomial(b + c, 1/2). The exact
two-sided p-value is min(1, 2 * P[X <= min(b, c)]); with no discordant pair it is 1. Plain
integer arithmetic (`math.comb`), no approximation and no I/O.
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = ["binomial_cdf_half", "mcnemar_exact"]


def binomial_cdf_half(k: int, n: int) -> Fraction:
    """P[X <= k] for X ~ binomial(n, 1/2), exactly."""
    if n < 0:
        raise ValueError(f"n must be at least 0, not {n}")
    if k < 0:
        return Fraction(0)
    k = min(k, n)
    return Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2**n)


def mcnemar_exact(b: int, c: int) -> float:
    """The exact two-sided McNemar p-value for discordant counts `b` and `c`."""
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be at least 0, not {b} and {c}")
    n = b + c
    if n == 0:
        return 1.0
    return float(min(Fraction(1), 2 * binomial_cdf_half(min(b, c), n)))

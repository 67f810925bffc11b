"""Numeric flags checked by their parser: a value out of range is refused with the range.

`integer(low, high)` and `seconds()` are argparse `type=` callables. A bad value ends the
command at parsing (exit code 2) with argparse's own line, which names the flag, e.g.
`studio check: error: argument --reruns: must be a whole number of at least 1, not '0'`,
before any browser starts.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = ["PORT", "integer", "seconds"]


def integer(low: int, high: int | None = None) -> Callable[[str], int]:
    """A whole number from `low` to `high` (no upper bound when None)."""
    span = f"of at least {low}" if high is None else f"from {low} to {high}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be a whole number {span}, not {text!r}"
            ) from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be a whole number {span}, not {text!r}")
        return value

    parse.__name__ = "integer"  # argparse names the type in some messages
    return parse


def seconds() -> Callable[[str], float]:
    """A finite number of seconds greater than 0."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value <= 0:
            raise argparse.ArgumentTypeError(
                f"must be a number of seconds greater than 0, not {text!r}"
            )
        return value

    parse.__name__ = "seconds"
    return parse


PORT = integer(0, 65535)  # 0: a free port

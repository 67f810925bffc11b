"""Semantic drift on hand-made recordings: 0 for the same behaviour, computed values else."""

from __future__ import annotations

import pytest

from studio.services.propose.drift import discrepancy, recording_drift, trace_drift
from studio.services.propose.model import Recording


def _rec(x: list[tuple[int, float]], end_x: float, says: str = "hi") -> Recording:
    return Recording(changes={"Cat.x": x}, end={"Cat.x": end_x}, says=[(0, "Cat", says)])


def test_the_same_behaviour_has_no_drift() -> None:
    a = _rec([(0, 0.0), (200, 10.0)], 10.0)
    assert recording_drift(a, a) == 0.0
    assert trace_drift({"flag": a}, {"flag": a}) == 0.0


def test_drift_is_the_mean_discrepancy_over_checkpoints_signals_and_scenarios() -> None:
    golden = _rec([(0, 0.0), (200, 10.0)], 10.0)
    late = _rec([(0, 0.0), (300, 10.0)], 10.0)
    # checkpoints 0, 100, 200, 300 and the end of Cat.x: only t=200 differs (10 vs 0: 1.0),
    # says and broadcasts agree: 1 / (5 + 2)
    assert recording_drift(golden, late) == pytest.approx(1 / 7)
    half = _rec([(0, 0.0), (200, 5.0)], 5.0, says="bye")
    # t=200, t=300(no: end is 200) -> checkpoints 0,100,200 + end: 0.5 at 200 and end; says 1
    assert recording_drift(golden, half) == pytest.approx((0.5 + 0.5 + 1.0) / 6)
    assert trace_drift({"a": golden, "b": golden}, {"a": golden}) == pytest.approx(0.5)


def test_discrepancy_of_values() -> None:
    assert discrepancy(3.0, 3.0) == 0.0
    assert discrepancy(0.0, 0.5) == pytest.approx(0.5)
    assert discrepancy(100.0, 50.0) == pytest.approx(0.5)
    assert discrepancy(0.0, 1000.0) == 1.0
    assert discrepancy("red", "blue") == 1.0 and discrepancy(True, False) == 1.0

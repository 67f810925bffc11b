"""The boundary scan finds the exact region with fewer drags than exhaustive verification."""

from __future__ import annotations

import math

import pytest

from studio.services.diagnostics.drag.grid import (
    BoundaryScan,
    best_axis,
    brush,
    disc,
    distance,
    inside,
    iou,
    runs,
    window_points,
)

STEP = 5


def scan_with(truth: set[tuple[int, int]], predicted: set[tuple[int, int]], **kw: object):
    scan = BoundaryScan(predicted, STEP, best_axis(predicted), **kw)  # type: ignore[arg-type]
    asked = 0
    while need := scan.needed():
        asked += len(need)
        scan.record({p: p in truth for p in need})
    return scan, asked


def blob(cx: int, cy: int, r: float) -> set[tuple[int, int]]:
    return disc((cx, cy), r, STEP)


def test_exact_prediction_is_verified_with_few_drags() -> None:
    truth = blob(300, 300, 32)
    scan, asked = scan_with(truth, set(truth))
    assert scan.region() == truth
    assert asked < len(truth)
    assert scan.evidence()["implied"] > 0


@pytest.mark.parametrize("shift", [(10, 0), (0, -10), (15, 15)])
def test_shifted_prediction_converges_to_the_truth(shift: tuple[int, int]) -> None:
    truth = blob(300, 300, 32)
    predicted = {(x + shift[0], y + shift[1]) for x, y in truth}
    scan, _ = scan_with(truth, predicted)
    assert iou(scan.region(), truth) >= 0.95


def test_a_predicted_hole_is_verified_and_a_wrong_edge_is_cut() -> None:
    box = set(window_points(200, 100, 300, 130, STEP))
    holed = {(x, y) for x, y in box if not 240 <= x <= 255}
    scan, _ = scan_with(holed, holed)  # a reporter inside a block: the prediction knows
    assert scan.region() == holed
    cut = {(x, y) for x, y in box if x <= 270}
    scan, _ = scan_with(cut, box)  # the region ends earlier than predicted
    assert scan.region() == cut


def test_every_reported_point_is_dragged_or_between_verified_ends() -> None:
    truth = blob(400, 200, 30) - blob(420, 180, 12)
    scan, _ = scan_with(truth, blob(400, 200, 30))
    region = scan.region()
    for y in {p[1] for p in region}:
        for a, b in runs([p[0] for p in region if p[1] == y], STEP):
            assert scan.verified[(a, y)] and scan.verified[(b, y)]
            assert scan.verified.get((a - STEP, y)) is False
            assert scan.verified.get((b + STEP, y)) is False
    assert region <= truth


def test_resume_reuses_verdicts() -> None:
    truth = blob(300, 300, 25)
    first, _ = scan_with(truth, set(truth))
    again, asked_again = scan_with(truth, set(truth), verified=dict(first.verified))
    assert asked_again == 0 and again.region() == truth


def test_bounds_keep_the_scan_in_view() -> None:
    truth = {p for p in blob(10, 300, 30) if p[0] >= 0}
    scan, _ = scan_with(truth, truth, bounds=(0, 0, 1279, 719))
    assert all(p[0] >= 0 for p in scan.verified)


def test_inside_distance_brush() -> None:
    region = {(100, 100), (105, 100)}
    assert inside((102.4, 101), region, STEP)
    assert not inside((111, 100), region, STEP)
    assert distance((105, 110), region) == pytest.approx(10.0)
    assert distance((0, 0), set()) is None
    grown = brush(region, (120, 100), 5, STEP, add=True)
    assert {(115, 100), (120, 100), (125, 100)} <= grown
    assert brush(grown, (120, 100), 5, STEP, add=False) == region
    assert math.isclose(iou(region, grown), 2 / len(grown))

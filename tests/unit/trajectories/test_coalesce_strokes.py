"""A human's drag path kept as a stroke when it is not a straight drag (issue 42 point 7)."""

from __future__ import annotations

import math

from studio.services.episodes.human.coalesce import MAX_STROKE_POINTS, coalesce
from tests.unit.trajectories.test_coalesce import actions, ev


def test_a_curved_path_is_a_stroke_through_the_points_the_pointer_passed() -> None:
    events = [
        ev(0, "down", x=100, y=100, button=0),
        ev(100, "move", x=150, y=40),  # 60 px above the line from press to release
        ev(150, "move", x=151, y=40.5),  # under 2 px from the last point kept: left out
        ev(200, "move", x=200, y=100),
        ev(300, "move", x=250, y=160),
        ev(800, "up", x=300, y=100, button=0),
    ]
    assert actions(coalesce(events)) == [
        {
            "api": "stroke",
            "args": {
                "points": [[100, 100], [150, 40], [200, 100], [250, 160], [300, 100]],
                "duration": 0.8,
            },
        }
    ]


def test_a_near_straight_path_stays_a_drag_and_drop() -> None:
    events = [
        ev(0, "down", x=0, y=0, button=0),
        ev(100, "move", x=100, y=20),  # 20 px off the line: within the tolerance
        ev(200, "up", x=200, y=0, button=0),
    ]
    (found,) = actions(coalesce(events))
    assert found["api"] == "drag_and_drop"


def test_a_long_path_is_thinned_to_the_schemas_bound_keeping_its_ends() -> None:
    events = [ev(0, "down", x=640, y=360, button=0)]
    for n in range(1, 1200):  # a circle of radius 200 drawn with many small moves
        angle = 2 * math.pi * n / 1200
        x, y = 640 + 200 * math.sin(angle), 360 - 200 * (1 - math.cos(angle))
        events.append(ev(n, "move", x=x, y=y))
    events.append(ev(1300, "up", x=645, y=360, button=0))
    (found,) = actions(coalesce(events))
    points = found["args"]["points"]
    assert found["api"] == "stroke" and len(points) == MAX_STROKE_POINTS
    assert points[0] == [640, 360] and points[-1] == [645, 360]

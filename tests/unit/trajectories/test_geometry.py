"""action_point: where a recorded action acted, for drawing it on the screenshot."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.models.agent import Element, Observation
from studio.services.runs.trajectories.view import ActionGeometry, action_point, load_view

from .build import observation, step, write_trajectory

ELEMENTS = [
    Element(index=0, type="button", x=10, y=20, w=30, h=40),  # centre (25, 40)
    Element(index=1, type="blocks", x=100, y=200, w=50, h=10),  # centre (125, 205)
    Element(index=2, type="canvas", x=300, y=100, w=600, h=400),  # centre (600, 300)
]
OBS = observation(1, ELEMENTS)


def test_click_at_coordinates_and_by_index() -> None:
    geo = action_point(step(1, "click", x=12.5, y=7), None)
    assert geo == ActionGeometry("click", points=[(12.5, 7.0)])
    geo = action_point(step(1, "click", index=1, button="right"), OBS)
    assert geo.points == [(125.0, 205.0)] and geo.element_index == 1
    geo = action_point({"api": "double_click", "args": {"index": 0}}, OBS)
    assert geo.kind == "double_click" and geo.points == [(25.0, 40.0)]


def test_drag_mixes_index_and_coordinates() -> None:
    geo = action_point(step(1, "drag_and_drop", start_index=1, end_x=700, end_y=50), OBS)
    assert geo.points == [(125.0, 205.0), (700.0, 50.0)]
    assert geo.element_index == 1 and geo.end_element_index is None
    geo = action_point(step(1, "drag_and_drop", start_x=1, start_y=2, end_index=2), OBS)
    assert geo.points == [(1.0, 2.0), (600.0, 300.0)] and geo.end_element_index == 2


def test_scroll_point_direction_and_the_canvas_default() -> None:
    geo = action_point(step(1, "scroll", direction="up", amount=2, x=5, y=6), OBS)
    assert (geo.points, geo.direction, geo.amount) == ([(5.0, 6.0)], "up", 2.0)
    geo = action_point(step(1, "scroll", direction="down"), OBS)
    assert geo.points == [(600.0, 300.0)] and geo.element_index == 2 and geo.amount == 3.0
    geo = action_point(step(1, "scroll", direction="down"), None)
    assert geo.points == [] and "no canvas" in geo.unresolved[0]


def test_text_and_keys() -> None:
    assert action_point(step(1, "type", text="hi"), None).text == "hi"
    assert action_point(step(1, "key", key="Enter"), None).keys == ["Enter"]
    assert action_point(step(1, "hotkey", keys=["Control", "z"]), None).keys == ["Control", "z"]
    done = action_point(step(1, "done"), None)
    assert done.points == [] and done.unresolved == []


@pytest.mark.parametrize(
    ("obs", "message"),
    [(None, "no observation recorded"), (OBS, "not among the 3 observed elements")],
)
def test_an_index_that_cannot_be_resolved_is_named(obs: Observation | None, message: str) -> None:
    geo = action_point(step(1, "drag_and_drop", start_index=9, end_x=1, end_y=1), obs)
    assert geo.points == [(1.0, 1.0)]
    assert len(geo.unresolved) == 1 and geo.unresolved[0].startswith("start: start_index 9")
    assert message in geo.unresolved[0]


def test_a_step_view_resolves_against_its_own_observation(tmp_path: Path) -> None:
    folder = write_trajectory(tmp_path / "t", [step(1, "click", index=1)], observations={1: OBS})
    assert load_view(folder).steps[0].geometry().points == [(125.0, 205.0)]

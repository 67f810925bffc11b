"""Primitive-mode actions on a fake page: index resolution, bounds, drags, scrolls and keys."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from studio.models.action_parse import parse_action
from studio.models.agent import ActionError, Element, Mode
from studio.services.episodes.modes import ActionOutcome
from studio.services.episodes.primitive import (
    MIN_DRAG_STEPS,
    PrimitiveMode,
    check_point,
    element_centre,
    normalize_key,
)
from tests.helpers.primitive_fakes import FakePage, dom

ELEMENTS = [
    dom("blocks", "motion_movesteps", 70, 120, 100, 40),
    dom("canvas", "code area", 313, 93, 470, 627),
]


def _observed(elements: list[dict[str, Any]] | None = None) -> tuple[PrimitiveMode, FakePage]:
    mode, page = PrimitiveMode(ocr=False), FakePage(ELEMENTS if elements is None else elements)
    asyncio.run(mode.setup(page))
    asyncio.run(mode.observe(page, 0))
    page.log.clear()
    return mode, page


def _act(mode: PrimitiveMode, page: FakePage, raw: dict[str, Any]) -> ActionOutcome:
    return asyncio.run(mode.execute(page, parse_action(raw, Mode.PRIMITIVE)))


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("enter", "Enter"),
        ("Return", "Enter"),
        ("backspace", "Backspace"),
        ("space", "Space"),
        (" ", "Space"),
        ("esc", "Escape"),
        ("up", "ArrowUp"),
        ("ArrowUp", "ArrowUp"),
        ("ctrl", "Control"),
        ("cmd", "Meta"),
        ("f5", "F5"),
        ("ctrl+a", "Control+a"),
        ("a", "a"),
        ("+", "+"),
        ("KeyA", "KeyA"),
    ],
)
def test_key_names(name: str, key: str) -> None:
    assert normalize_key(name) == key


def test_index_resolves_to_the_centre_of_the_last_observation() -> None:
    elements = [Element(index=0, type="blocks", text="b", x=70, y=120, w=100, h=40)]
    assert element_centre(elements, 0, observed=True) == (120, 140)
    with pytest.raises(ActionError, match="no observation yet"):
        element_centre([], 0, observed=False)
    with pytest.raises(ActionError, match=r"index 1 does not exist.*1 elements \(indexes 0-0\)"):
        element_centre(elements, 1, observed=True)
    with pytest.raises(ActionError, match=r"index -1 does not exist"):
        element_centre(elements, -1, observed=True)
    with pytest.raises(ActionError, match=r"0 elements \(indexes none\)"):
        element_centre([], 3, observed=True)


@pytest.mark.parametrize(("x", "y"), [(-1, 10), (1280, 10), (10, 720), (10, -0.5)])
def test_points_outside_the_viewport(x: float, y: float) -> None:
    with pytest.raises(ActionError, match=r"outside the 1280x720 viewport; use 0 <= x < 1280"):
        check_point(x, y, 1280, 720)
    check_point(1279.9, 719, 1280, 720)


def test_click_by_index_presses_the_centre_and_names_the_target() -> None:
    mode, page = _observed()
    out = _act(mode, page, {"api": "click", "args": {"index": 0, "button": "right"}})
    assert page.input() == [("click", 120.0, 140.0, "right")]
    assert out.target == "hit: 120,140"
    assert out.detail == {"x": 120.0, "y": 140.0, "button": "right"}
    _act(mode, page, {"api": "double_click", "args": {"x": 5, "y": 6}})
    assert page.input()[-1] == ("dblclick", 5.0, 6.0)


def test_acting_before_observing_or_with_a_stale_index_fails_cleanly() -> None:
    mode, page = PrimitiveMode(ocr=False), FakePage(ELEMENTS)
    asyncio.run(mode.setup(page))
    with pytest.raises(ActionError, match="observe"):
        _act(mode, page, {"api": "click", "args": {"index": 0}})
    asyncio.run(mode.observe(page, 0))
    with pytest.raises(ActionError, match="index 2 does not exist"):
        _act(
            mode, page, {"api": "drag_and_drop", "args": {"start_index": 2, "end_x": 1, "end_y": 1}}
        )
    with pytest.raises(ActionError, match="drag end"):
        _act(
            mode,
            page,
            {"api": "drag_and_drop", "args": {"start_index": 0, "end_x": 1, "end_y": 721}},
        )
    assert page.input() == []  # nothing was pressed


def test_drag_moves_presses_moves_in_steps_and_releases() -> None:
    mode, page = _observed()
    out = _act(mode, page, {"api": "drag_and_drop", "args": {"start_index": 0, "end_index": 1}})
    end = (313 + 235, 93 + 313.5)
    assert page.input() == [
        ("move", 120.0, 140.0, 1),
        ("down",),
        ("move", *end, MIN_DRAG_STEPS),
        ("up",),
    ]
    assert MIN_DRAG_STEPS >= 10
    assert out.target == "hit: 120,140 drag"
    assert out.detail["end_target"] == "hit: 548,406.5 drag"
    assert out.detail["start"] == [120.0, 140.0] and out.detail["end"] == list(end)


def test_drag_with_a_duration_spreads_the_moves() -> None:
    mode, page = _observed()
    out = _act(
        mode,
        page,
        {
            "api": "drag_and_drop",
            "args": {"start_x": 0, "start_y": 0, "end_x": 300, "end_y": 30, "duration": 0.3},
        },
    )
    moves = [e for e in page.input() if e[0] == "move"]
    assert out.detail["steps"] == 18 and len(moves) == 19
    assert moves[-1] == ("move", 300.0, 30.0, 1) and page.input()[-1] == ("up",)


def test_scroll_directions_and_default_point() -> None:
    mode, page = _observed()
    out = _act(mode, page, {"api": "scroll", "args": {"direction": "down"}})
    assert page.input() == [("move", 548.0, 406.5, 1), ("wheel", 0.0, 300.0)]
    assert out.target == "hit: 548,406.5"
    page.log.clear()
    _act(mode, page, {"api": "scroll", "args": {"direction": "left", "amount": 2, "index": 0}})
    assert page.input() == [("move", 120.0, 140.0, 1), ("wheel", -200.0, 0.0)]


def test_scroll_without_a_canvas_in_the_observation_asks_the_page() -> None:
    mode, page = _observed([])
    _act(mode, page, {"api": "scroll", "args": {"direction": "up", "amount": 1}})
    assert page.input() == [("move", 548.0, 406.5, 1), ("wheel", 0.0, -100.0)]


def test_type_key_and_hotkey() -> None:
    mode, page = _observed()
    out = _act(mode, page, {"api": "type", "args": {"text": "25"}})
    assert out.target == "inputs: focused" and page.input() == [("type", "25")]
    out = _act(mode, page, {"api": "key", "args": {"key": "enter"}})
    assert out.detail == {"key": "Enter"} and page.input()[-1] == ("press", "Enter")
    page.log.clear()
    out = _act(mode, page, {"api": "hotkey", "args": {"keys": ["ctrl", "shift", "a"]}})
    assert out.detail == {"keys": ["Control", "Shift", "a"]}
    assert page.input() == [
        ("keydown", "Control"),
        ("keydown", "Shift"),
        ("keydown", "a"),
        ("keyup", "a"),
        ("keyup", "Shift"),
        ("keyup", "Control"),
    ]


def test_unknown_keys_are_action_errors_and_release_what_was_pressed() -> None:
    mode, page = _observed()
    with pytest.raises(ActionError, match=r"key 'Hyper' is not a key name \(Unknown key"):
        _act(mode, page, {"api": "key", "args": {"key": "Hyper"}})
    with pytest.raises(ActionError, match=r"hotkey.*'Hyper' is not a key name"):
        _act(mode, page, {"api": "hotkey", "args": {"keys": ["ctrl", "Hyper"]}})
    assert page.input() == [("keydown", "Control"), ("keyup", "Control")]


def test_done_and_failed_do_nothing_on_the_page() -> None:
    mode, page = _observed()
    assert _act(mode, page, {"api": "done"}) == ActionOutcome()
    assert page.input() == []


def test_without_the_element_list_the_agent_sees_none_and_acts_by_coordinates() -> None:
    mode, page = PrimitiveMode(element_list=False), FakePage(ELEMENTS)
    assert mode.ocr is False  # nothing read from the screenshot for an agent that sees no list
    asyncio.run(mode.setup(page))
    obs = asyncio.run(mode.observe(page, 0))
    assert obs.elements == [] and obs.text and "x and y" in obs.text
    with pytest.raises(ActionError, match="index 0: this episode has no element list"):
        _act(mode, page, {"api": "click", "args": {"index": 0}})
    with pytest.raises(ActionError, match="drag start: index 0: this episode has no element"):
        _act(mode, page, {"api": "drag_and_drop", "args": {"start_index": 0, "end_x": 5,
                                                           "end_y": 5}})  # fmt: skip
    page.log.clear()
    _act(mode, page, {"api": "click", "args": {"x": 120, "y": 140}})
    assert page.input() == [("click", 120.0, 140.0, "left")]
    _act(mode, page, {"api": "scroll", "args": {"direction": "down"}})  # still at the code area
    assert page.input()[-1][0] == "wheel"


def test_a_stroke_presses_moves_through_its_points_and_releases() -> None:
    mode, page = _observed()
    points = [[100, 200], [150, 260], [220, 240], [300, 200]]
    out = _act(mode, page, {"api": "stroke", "args": {"points": points}})
    assert page.input() == [
        ("move", 100.0, 200.0, 1),
        ("down",),
        ("move", 150.0, 260.0, MIN_DRAG_STEPS),
        ("move", 220.0, 240.0, MIN_DRAG_STEPS),
        ("move", 300.0, 200.0, MIN_DRAG_STEPS),
        ("up",),
    ]
    assert out.detail == {
        "points": [[100.0, 200.0], [150.0, 260.0], [220.0, 240.0], [300.0, 200.0]]
    }
    page.log.clear()
    with pytest.raises(ActionError, match=r"stroke point 3 \(10, 900\) is outside"):
        _act(mode, page, {"api": "stroke", "args": {"points": [[1, 1], [5, 5], [10, 900]]}})
    assert page.input() == []  # nothing pressed for a stroke that leaves the screen


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        ({"points": []}, "at least 2"),
        ({"points": [[1, 2]]}, "at least 2"),
        ({}, "points"),
        ({"points": [[1, 2], [3]]}, "points.1"),
    ],
)
def test_a_stroke_without_a_path_is_refused_by_name(args: dict[str, Any], problem: str) -> None:
    with pytest.raises(ActionError, match=problem):
        parse_action({"api": "stroke", "args": args}, Mode.PRIMITIVE)

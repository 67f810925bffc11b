"""EventCoalescer: raw DOM input events -> primitive actions, incrementally."""

from __future__ import annotations

from typing import Any

from studio.models.action_parse import parse_action
from studio.models.agent import Mode
from studio.services.episodes.human.coalesce import EventCoalescer, HumanAction, coalesce


def ev(t: float, type_: str, **kw: Any) -> dict[str, Any]:
    return {"t": t, "type": type_, **kw}


def click(t: float, x: float, y: float, button: int = 0) -> list[dict[str, Any]]:
    return [ev(t, "down", x=x, y=y, button=button), ev(t + 80, "up", x=x + 1, y=y, button=button)]


def key(t: float, k: str, **mods: bool) -> dict[str, Any]:
    return ev(t, "keydown", key=k, **mods)


def actions(found: list[HumanAction]) -> list[dict[str, Any]]:
    for a in found:
        parse_action(a.action, Mode.PRIMITIVE)  # every action is valid for the agents
    return [a.action for a in found]


def test_a_small_press_is_a_click_and_a_right_press_a_right_click() -> None:
    found = coalesce([*click(0, 100, 50), *click(2000, 30, 40, button=2)])
    assert actions(found) == [
        {"api": "click", "args": {"x": 100, "y": 50}},
        {"api": "click", "args": {"x": 30, "y": 40, "button": "right"}},
    ]
    assert (found[0].started_ms, found[0].ended_ms, found[0].duration_ms) == (0, 80, 80)


def test_a_press_moved_further_than_5_px_is_a_drag_with_its_duration() -> None:
    events = [
        ev(0, "down", x=10, y=10, button=0),
        ev(100, "move", x=50, y=40),
        ev(200, "move", x=200, y=300),
        ev(1500, "up", x=200.04, y=300, button=0),
    ]
    assert actions(coalesce(events)) == [
        {
            "api": "drag_and_drop",
            "args": {"start_x": 10, "start_y": 10, "end_x": 200, "end_y": 300, "duration": 1.5},
        }
    ]


def test_a_dblclick_replaces_its_two_clicks() -> None:
    events = [*click(0, 100, 100), *click(150, 101, 100), ev(230, "dblclick", x=101, y=100)]
    found = coalesce([*click(-2000, 5, 5), *events])
    assert actions(found) == [
        {"api": "click", "args": {"x": 5, "y": 5}},
        {"api": "double_click", "args": {"x": 100, "y": 100}},
    ]
    assert (found[1].started_ms, found[1].ended_ms) == (0, 230)


def test_a_click_waits_for_a_possible_double_click_then_is_released() -> None:
    c = EventCoalescer()
    c.feed_all(click(0, 10, 10))
    assert c.pop_ready(200) == []  # a second click may still come
    c.feed_all(click(300, 10, 10))
    assert c.pop_ready(400) == []
    c.feed(ev(380, "dblclick", x=10, y=10))
    assert actions(c.pop_ready(400)) == [{"api": "double_click", "args": {"x": 10, "y": 10}}]
    c.feed_all(click(5000, 1, 1))
    assert c.pop_ready(5100) == []
    assert actions(c.pop_ready(5700)) == [{"api": "click", "args": {"x": 1, "y": 1}}]
    assert c.flush() == []


def test_a_press_held_down_keeps_nothing_open_forever() -> None:
    c = EventCoalescer()
    c.feed(ev(0, "down", x=1, y=1, button=0))
    assert c.pop_ready(60_000) == []
    c.feed(ev(100, "move", x=80, y=90))
    assert actions(c.flush()) == [
        {
            "api": "drag_and_drop",
            "args": {"start_x": 1, "start_y": 1, "end_x": 80, "end_y": 90, "duration": 0.1},
        }
    ]


def test_wheel_events_merge_by_direction_point_and_time() -> None:
    wheel = [
        ev(0, "wheel", x=400, y=300, dx=0, dy=100),
        ev(50, "wheel", x=401, y=300, dx=0, dy=100),
        ev(400, "wheel", x=401, y=301, dx=0, dy=120),  # 350 ms after the last: merges
        ev(500, "wheel", x=401, y=301, dx=0, dy=-30),  # other direction
        ev(1200, "wheel", x=401, y=301, dx=0, dy=-100),  # too late to merge
        ev(1300, "wheel", x=600, y=301, dx=-250, dy=0),  # elsewhere, sideways
    ]
    assert actions(coalesce(wheel)) == [
        {"api": "scroll", "args": {"direction": "down", "amount": 3, "x": 400, "y": 300}},
        {"api": "scroll", "args": {"direction": "up", "amount": 1, "x": 401, "y": 301}},
        {"api": "scroll", "args": {"direction": "up", "amount": 1, "x": 401, "y": 301}},
        {"api": "scroll", "args": {"direction": "left", "amount": 2, "x": 600, "y": 301}},
    ]


def test_typing_merges_until_a_pause_or_another_kind_of_input() -> None:
    events = [
        key(0, "H", shift=True),
        key(100, "i"),
        key(200, " "),
        key(300, "Shift"),  # a modifier alone changes nothing
        key(350, "!", shift=True),
        key(2000, "x"),  # after a 1.65 s pause: a new type
        key(2100, "Backspace"),
        key(2200, "y"),
    ]
    found = coalesce(events)
    assert actions(found) == [
        {"api": "type", "args": {"text": "Hi !"}},
        {"api": "type", "args": {"text": "x"}},
        {"api": "key", "args": {"key": "Backspace"}},
        {"api": "type", "args": {"text": "y"}},
    ]
    assert (found[0].started_ms, found[0].ended_ms) == (0, 350)


def test_typing_is_released_after_the_pause_when_polling() -> None:
    c = EventCoalescer()
    c.feed_all([key(0, "a"), key(100, "b")])
    assert c.pop_ready(1000) == []
    assert actions(c.pop_ready(1700)) == [{"api": "type", "args": {"text": "ab"}}]


def test_named_keys_and_hotkeys() -> None:
    events = [
        key(0, "Enter"),
        key(100, "Escape"),
        key(200, "Esc"),
        key(300, "ArrowLeft"),
        key(400, "Control"),
        key(450, "z", ctrl=True),
        key(500, "Z", ctrl=True, shift=True),
        key(600, "Tab", shift=True),
        key(700, "a", meta=True),
        key(800, "Dead"),
    ]
    assert actions(coalesce(events)) == [
        {"api": "key", "args": {"key": "Enter"}},
        {"api": "key", "args": {"key": "Escape"}},
        {"api": "key", "args": {"key": "Escape"}},
        {"api": "key", "args": {"key": "ArrowLeft"}},
        {"api": "hotkey", "args": {"keys": ["Control", "z"]}},
        {"api": "hotkey", "args": {"keys": ["Control", "Shift", "z"]}},
        {"api": "hotkey", "args": {"keys": ["Shift", "Tab"]}},
        {"api": "hotkey", "args": {"keys": ["Meta", "a"]}},
    ]


def test_kinds_interleave_in_order_and_bad_events_are_dropped() -> None:
    events = [
        key(0, "a"),
        *click(100, 5, 5),
        ev(200, "wheel", x=5, y=5, dx=0, dy=100),
        key(300, "b"),
        ev(350, "up", x=1, y=1),  # a release without a press
        ev(360, "nonsense"),
        {"type": "down", "x": 1, "y": 1},  # no time
    ]
    c = EventCoalescer()
    c.feed_all(events)
    assert [a["api"] for a in actions(c.flush())] == ["type", "click", "scroll", "type"]
    assert c.dropped == 2


def test_other_buttons_are_dropped_and_keys_typed_during_a_press_come_first() -> None:
    events = [
        ev(0, "down", x=1, y=1, button=3),  # the "back" button
        ev(50, "up", x=1, y=1, button=3),
        ev(100, "down", x=10, y=10, button=0),
        key(150, "a"),
        ev(200, "up", x=60, y=10, button=0),
    ]
    c = EventCoalescer()
    c.feed_all(events)
    found = actions(c.flush())
    assert [a["api"] for a in found] == ["type", "drag_and_drop"]
    assert c.dropped == 1

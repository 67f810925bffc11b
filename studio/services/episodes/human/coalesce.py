"""Raw DOM input events of a human participant -> primitive-mode agent actions.

Events are dicts as the page's capture script sends them: `t` (ms), `type` ("down", "up",
"move", "dblclick", "wheel", "keydown"), `x`, `y` (CSS px in the page), `button` (0 left,
1 middle, 2 right), `key` (KeyboardEvent.key), `dx`, `dy` (wheel deltas in px) and the
modifier flags `ctrl`, `shift`, `alt`, `meta`.

Rules: a press released within 5 px of where it started is a click (at the press point), further
away a drag_and_drop (left button only; the schema has no other drag), or a `stroke` through the
pointer's path when that path leaves the straight line from press to release by more than
STROKE_DEVIATION_PX anywhere (a curve drawn in the paint editor, a drag around something: the
human's path is kept, also when it ends back where it started; points closer than
STROKE_STEP_PX to the last one kept are left out, and a longer path is thinned evenly to the
schema's MAX_STROKE_POINTS); a `dblclick` after two
left clicks replaces them with one double_click. Wheel events in the same direction at the same
point less than 400 ms apart merge into one scroll of |delta| / 100 notches (at least 1).
Printable characters typed without Control/Alt/Meta merge into one `type` until another kind of
input or a 1.5 s pause; other keys become `key`, and a key pressed with a modifier held a
`hotkey` (["Control", "z"]). Key names are Playwright's, as the primitive mode expects.

The coalescer is incremental: `feed` events as they arrive, `pop_ready(now_ms)` returns the
actions that can no longer change (a click waits up to 500 ms for a possible double click),
`flush()` returns the rest at the end of the session. Every action validates with
`parse_action(action, Mode.PRIMITIVE)`; one that would not is dropped and counted in `dropped`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from studio.models.action_parse import parse_action
from studio.models.agent import ActionError, Mode

__all__ = [
    "BUTTONS", "CLICK_SLOP_PX", "DOUBLE_CLICK_MS", "EVENT_TYPES", "IGNORED_KEYS", "KEY_NAMES",
    "MAX_DRAG_S", "MAX_SCROLL_NOTCHES", "MAX_STROKE_POINTS", "MODIFIER_KEYS", "STROKE_DEVIATION_PX",
    "STROKE_STEP_PX", "TYPE_PAUSE_MS", "WHEEL_MERGE_MS", "WHEEL_PX_PER_NOTCH", "EventCoalescer",
    "HumanAction", "coalesce",
]  # fmt: skip

CLICK_SLOP_PX = 5.0
DOUBLE_CLICK_MS = 500.0
TYPE_PAUSE_MS = 1500.0
WHEEL_MERGE_MS = 400.0
WHEEL_PX_PER_NOTCH = 100.0
MAX_SCROLL_NOTCHES = 50
MAX_DRAG_S = 10.0
STROKE_DEVIATION_PX = 25.0  # a drag whose path strays further from its line is a stroke
STROKE_STEP_PX = 2.0
MAX_STROKE_POINTS = 500  # the action schema's bound (models.agent.StrokeArgs)

EVENT_TYPES = ("down", "up", "move", "dblclick", "wheel", "keydown")
BUTTONS = {0: "left", 1: "middle", 2: "right"}
_MODIFIER_FLAGS = (("Control", "ctrl"), ("Alt", "alt"), ("Meta", "meta"))
_MODIFIER_ORDER = ["Control", "Alt", "Shift", "Meta"]
MODIFIER_KEYS = {"Control", "Shift", "Alt", "Meta", "AltGraph", "OS", "Hyper", "Super"}
IGNORED_KEYS = {"Dead", "Unidentified", "Process", "CapsLock", "NumLock", "ScrollLock", "Fn"}
# Old browser names of KeyboardEvent.key -> the names Playwright (and primitive mode) use.
KEY_NAMES = {
    " ": "Space",
    "Spacebar": "Space",
    "Esc": "Escape",
    "Del": "Delete",
    "Up": "ArrowUp",
    "Down": "ArrowDown",
    "Left": "ArrowLeft",
    "Right": "ArrowRight",
    "Win": "Meta",
}


@dataclass
class HumanAction:
    """One agent-schema action a human performed, with when it started and ended (event ms)."""

    action: dict[str, Any]
    started_ms: float
    ended_ms: float

    @property
    def duration_ms(self) -> float:
        return max(0.0, self.ended_ms - self.started_ms)


@dataclass
class _Press:
    t: float
    x: float
    y: float
    button: int
    last_t: float
    last_x: float
    last_y: float
    path: list[tuple[float, float]] = field(default_factory=list)  # where the pointer went


@dataclass
class _Typing:
    text: str
    started: float
    last: float


@dataclass
class _Scroll:
    direction: str
    px: float
    x: float
    y: float
    started: float
    last: float


class EventCoalescer:
    """Turns a stream of raw input events into primitive actions, incrementally."""

    def __init__(self) -> None:
        self._ready: list[HumanAction] = []
        self._clicks: list[HumanAction] = []  # left clicks a dblclick may still merge
        self._press: _Press | None = None
        self._typing: _Typing | None = None
        self._scroll: _Scroll | None = None
        self.dropped = 0  # events or actions that could not be used

    # ---- public ----------------------------------------------------------------------------
    def feed(self, event: dict[str, Any]) -> None:
        """Take one raw event (in time order)."""
        kind = event.get("type")
        handler = getattr(self, f"_on_{kind}") if kind in EVENT_TYPES else None
        t = _num(event.get("t"))
        if handler is None or t is None:
            self.dropped += 1
            return
        handler(event, t)

    def feed_all(self, events: Iterable[dict[str, Any]]) -> None:
        for event in events:
            self.feed(event)

    def pop_ready(self, now_ms: float) -> list[HumanAction]:
        """The actions that later events can no longer change, in order; removed from here."""
        if self._typing and now_ms - self._typing.last > TYPE_PAUSE_MS:
            self._close_typing()
        if self._scroll and now_ms - self._scroll.last > WHEEL_MERGE_MS:
            self._close_scroll()
        if self._clicks:
            last_end = self._clicks[-1].ended_ms
            since = (self._press.t if self._press else now_ms) - last_end
            if since > DOUBLE_CLICK_MS:
                self._close_clicks()
        ready, self._ready = self._ready, []
        return ready

    def flush(self) -> list[HumanAction]:
        """End of input: close whatever is open (a press without release ends where it was)."""
        if self._press is not None:
            p = self._press
            self._finish_press(p.last_x, p.last_y, p.last_t)
        self._close_all_but_press()
        ready, self._ready = self._ready, []
        return ready

    # ---- mouse -----------------------------------------------------------------------------
    def _on_move(self, event: dict[str, Any], t: float) -> None:
        point = _point(event)
        if self._press is not None and point is not None:
            self._press.last_t, (self._press.last_x, self._press.last_y) = t, point
            path = self._press.path
            if not path or math.dist(path[-1], point) >= STROKE_STEP_PX:
                path.append(point)

    def _on_down(self, event: dict[str, Any], t: float) -> None:
        point = _point(event)
        if point is None:
            self.dropped += 1
            return
        self._close_typing()
        self._close_scroll()
        if self._press is not None:  # its release was lost: it ended where it last was
            p = self._press
            self._finish_press(p.last_x, p.last_y, p.last_t)
        button = event.get("button", 0)
        if button not in BUTTONS:  # back/forward buttons: nothing the schema can express
            self.dropped += 1
            return
        self._press = _Press(t, *point, button, t, *point, [point])

    def _on_up(self, event: dict[str, Any], t: float) -> None:
        p = self._press
        if p is None or event.get("button", p.button) != p.button:
            return  # a release whose press happened before recording started, or was dropped
        x, y = _point(event) or (p.last_x, p.last_y)
        self._finish_press(x, y, t)

    def _finish_press(self, x: float, y: float, t: float) -> None:
        p, self._press = self._press, None
        assert p is not None
        self._close_typing()  # keys typed while the button was held come first
        self._close_scroll()
        moved = math.hypot(x - p.x, y - p.y) > CLICK_SLOP_PX
        if p.button == 0 and (moved or _deviation([*p.path, (x, y)]) > STROKE_DEVIATION_PX):
            self._drag(p, x, y, t)  # a closed shape drawn back to its start is no click
        elif p.button != 0:
            args = {"x": _r(p.x), "y": _r(p.y), "button": BUTTONS[p.button]}
            self._close_clicks()
            self._emit({"api": "click", "args": args}, p.t, t)
        else:
            self._left_click(p, t)

    def _drag(self, p: _Press, x: float, y: float, t: float) -> None:
        path = [*p.path, (x, y)] if p.path else [(p.x, p.y), (x, y)]
        duration = round(min(MAX_DRAG_S, max(0.0, t - p.t) / 1000), 3)
        if _deviation(path) > STROKE_DEVIATION_PX:
            points = [[_r(px), _r(py)] for px, py in _thinned(path)]
            self._close_clicks()
            self._emit({"api": "stroke", "args": {"points": points, "duration": duration}}, p.t, t)
            return
        args = {
            "start_x": _r(p.x),
            "start_y": _r(p.y),
            "end_x": _r(x),
            "end_y": _r(y),
            "duration": duration,
        }
        self._close_clicks()
        self._emit({"api": "drag_and_drop", "args": args}, p.t, t)

    def _left_click(self, p: _Press, t: float) -> None:
        """Keep the click pending: with the one before it, a dblclick may make it a double."""
        click = HumanAction({"api": "click", "args": {"x": _r(p.x), "y": _r(p.y)}}, p.t, t)
        if self._clicks and p.t - self._clicks[-1].ended_ms > DOUBLE_CLICK_MS:
            self._close_clicks()
        self._clicks.append(click)
        if len(self._clicks) > 2:
            self._ready.append(self._clicks.pop(0))

    def _on_dblclick(self, event: dict[str, Any], t: float) -> None:
        if len(self._clicks) < 2:
            return  # its first click was already released (or not recorded): keep the clicks
        first, second = self._clicks[-2], self._clicks[-1]
        self._ready.extend(self._clicks[:-2])
        self._clicks = []
        self._emit(
            {"api": "double_click", "args": dict(first.action["args"])},
            first.started_ms,
            max(second.ended_ms, t),
        )

    def _on_wheel(self, event: dict[str, Any], t: float) -> None:
        dx, dy = _num(event.get("dx")) or 0.0, _num(event.get("dy")) or 0.0
        point = _point(event)
        if (dx == 0 and dy == 0) or point is None:
            self.dropped += 1
            return
        if abs(dy) >= abs(dx):
            direction, px = ("down" if dy > 0 else "up"), abs(dy)
        else:
            direction, px = ("right" if dx > 0 else "left"), abs(dx)
        self._close_typing()
        self._close_clicks()
        s = self._scroll
        near = s is not None and math.hypot(point[0] - s.x, point[1] - s.y) <= CLICK_SLOP_PX
        if s is not None and near and s.direction == direction and t - s.last <= WHEEL_MERGE_MS:
            s.px, s.last = s.px + px, t
            return
        self._close_scroll()
        self._scroll = _Scroll(direction, px, *point, t, t)

    # ---- keys ------------------------------------------------------------------------------
    def _on_keydown(self, event: dict[str, Any], t: float) -> None:
        key = event.get("key")
        if not isinstance(key, str) or not key or key in MODIFIER_KEYS or key in IGNORED_KEYS:
            return  # a modifier alone does nothing; it shows up on the key it modifies
        held = [m for m, flag in _MODIFIER_FLAGS if event.get(flag)]
        printable = len(key) == 1
        if printable and not held:
            self._type(key, t)
            return
        name = KEY_NAMES.get(key, key)
        self._close_all_but_press()
        if held or event.get("shift"):
            keys = held + (["Shift"] if event.get("shift") else [])
            keys.sort(key=_MODIFIER_ORDER.index)
            last = name.lower() if len(name) == 1 else name
            self._emit({"api": "hotkey", "args": {"keys": [*keys, last]}}, t, t)
        else:
            self._emit({"api": "key", "args": {"key": name}}, t, t)

    def _type(self, char: str, t: float) -> None:
        self._close_scroll()
        self._close_clicks()
        if self._typing is not None and t - self._typing.last <= TYPE_PAUSE_MS:
            self._typing.text += char
            self._typing.last = t
            return
        self._close_typing()
        self._typing = _Typing(char, t, t)

    # ---- closing open actions --------------------------------------------------------------
    def _close_typing(self) -> None:
        if self._typing is not None:
            typing, self._typing = self._typing, None
            self._emit({"api": "type", "args": {"text": typing.text}}, typing.started, typing.last)

    def _close_scroll(self) -> None:
        if self._scroll is not None:
            s, self._scroll = self._scroll, None
            notches = min(MAX_SCROLL_NOTCHES, max(1, round(s.px / WHEEL_PX_PER_NOTCH)))
            args = {"direction": s.direction, "amount": notches, "x": _r(s.x), "y": _r(s.y)}
            self._emit({"api": "scroll", "args": args}, s.started, s.last)

    def _close_clicks(self) -> None:
        self._ready.extend(self._clicks)
        self._clicks = []

    def _close_all_but_press(self) -> None:
        self._close_clicks()
        self._close_typing()
        self._close_scroll()

    def _emit(self, action: dict[str, Any], started: float, ended: float) -> None:
        try:
            parse_action(action, Mode.PRIMITIVE)
        except ActionError:
            self.dropped += 1
            return
        self._ready.append(HumanAction(action, started, ended))


def coalesce(events: Iterable[dict[str, Any]]) -> list[HumanAction]:
    """All actions of a finished stream of events."""
    coalescer = EventCoalescer()
    coalescer.feed_all(events)
    return coalescer.flush()


def _deviation(path: list[tuple[float, float]]) -> float:
    """How far (px) the path strays at most from the straight line from its first point to
    its last."""
    (x0, y0), (x1, y1) = path[0], path[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return max(math.hypot(x - x0, y - y0) for x, y in path)
    return max(abs((x1 - x0) * (y0 - y) - (x0 - x) * (y1 - y0)) / length for x, y in path)


def _thinned(path: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """At most MAX_STROKE_POINTS of the path, evenly chosen, its first and last kept."""
    if len(path) <= MAX_STROKE_POINTS:
        return path
    last = len(path) - 1
    picks = {round(i * last / (MAX_STROKE_POINTS - 1)) for i in range(MAX_STROKE_POINTS)}
    return [path[i] for i in sorted(picks)]


def _point(event: dict[str, Any]) -> tuple[float, float] | None:
    x, y = _num(event.get("x")), _num(event.get("y"))
    return (x, y) if x is not None and y is not None else None


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _r(value: float) -> float:
    return round(value, 1)

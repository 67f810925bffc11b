"""What a participant page may send, checked before anything of it is used.

A batch of input events is `{"now": page Date.now() ms, "events": [event, ...]}` with at most
`MAX_EVENTS` events, each in the format `episodes.human.coalesce` reads: `type` one of its
`EVENT_TYPES`, `t` a page time, `x`/`y` CSS px relative to the editor, `button`, `key`,
`dx`/`dy`, and the modifier flags. A field that is not one of those, of the wrong type, out of
range, or an event time far from the batch's `now`, makes the whole batch refused: `check_batch`
raises `Crafted` naming the event and the field, and nothing of the batch is recorded. Times
come back shifted onto the server's clock (the page's clock may be wrong).
"""

from __future__ import annotations

import math
import time
from typing import Any

from studio.models.errors import StudioError
from studio.services.episodes.human.coalesce import EVENT_TYPES

__all__ = [
    "MAX_BATCH_BYTES", "MAX_COORD", "MAX_EVENTS", "MAX_KEY_CHARS", "MAX_PROJECT_BYTES",
    "MAX_SKEW_MS", "Crafted", "check_batch",
]  # fmt: skip

MAX_EVENTS = 500
MAX_BATCH_BYTES = 256 * 1024
MAX_PROJECT_BYTES = 16 * 1024 * 1024
MAX_COORD = 20000.0
MAX_KEY_CHARS = 32
MAX_SKEW_MS = 10 * 60 * 1000  # an event may be this much older than its batch
_FLAGS = ("ctrl", "shift", "alt", "meta")
_NUMBERS = {"x": MAX_COORD, "y": MAX_COORD, "dx": MAX_COORD, "dy": MAX_COORD}


class Crafted(StudioError):
    """A request no participant page sends; the message says what was wrong."""


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _check_event(i: int, event: Any, now: float) -> dict[str, Any]:
    where = f"event {i}"
    if not isinstance(event, dict):
        raise Crafted(f"{where}: not an object")
    if event.get("type") not in EVENT_TYPES:
        raise Crafted(f"{where}: field 'type': not one of {', '.join(EVENT_TYPES)}")
    t = _number(event.get("t"))
    if t is None or not now - MAX_SKEW_MS <= t <= now + 5000:
        raise Crafted(f"{where}: field 't': not a time of this batch")
    clean: dict[str, Any] = {"type": event["type"], "t": t}
    for key, value in event.items():
        if key in ("type", "t"):
            continue
        if key in _NUMBERS:
            number = _number(value)
            if number is None or abs(number) > _NUMBERS[key]:
                raise Crafted(f"{where}: field '{key}': not a coordinate")
            clean[key] = number
        elif key == "button":
            # -1: no button changed, what every pointermove of a drag carries (DOM spec)
            if isinstance(value, bool) or value not in (-1, 0, 1, 2, 3, 4):
                raise Crafted(f"{where}: field 'button': not a mouse button")
            clean[key] = value
        elif key == "key":
            if not isinstance(value, str) or not 0 < len(value) <= MAX_KEY_CHARS:
                raise Crafted(f"{where}: field 'key': not a key name")
            clean[key] = value
        elif key in _FLAGS:
            if not isinstance(value, bool):
                raise Crafted(f"{where}: field '{key}': not true or false")
            clean[key] = value
        else:
            raise Crafted(f"{where}: unknown field '{key}'")
    return clean


def check_batch(body: Any, server_now_ms: float | None = None) -> list[dict[str, Any]]:
    """The batch's events, checked and on the server's clock; `Crafted` otherwise."""
    if not isinstance(body, dict) or set(body) - {"now", "events", "tab"}:
        raise Crafted("the batch must be {now, events}")
    now = _number(body.get("now"))
    events = body.get("events")
    if now is None or not isinstance(events, list):
        raise Crafted("the batch must be {now: a time, events: a list}")
    if len(events) > MAX_EVENTS:
        raise Crafted(f"the batch holds {len(events)} events; at most {MAX_EVENTS} are taken")
    shift = (time.time() * 1000 if server_now_ms is None else server_now_ms) - now
    checked = [_check_event(i, e, now) for i, e in enumerate(events, 1)]
    for event in checked:
        event["t"] += shift
    return checked

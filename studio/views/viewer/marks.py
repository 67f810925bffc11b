"""From a step's action (and the observation it was chosen on) to the `Mark` drawn on it."""

from __future__ import annotations

from typing import Any

from studio.models.agent import Element, Observation
from studio.views.viewer.overlay import Mark
from studio.views.viewer.steps import ViewerStep, hit_element


def _point(
    args: dict[str, Any], elements: list[Element], prefix: str = ""
) -> tuple[float, float] | None:
    x, y = args.get(f"{prefix}x"), args.get(f"{prefix}y")
    if isinstance(x, int | float) and isinstance(y, int | float):
        return float(x), float(y)
    index = args.get(f"{prefix}index")
    if isinstance(index, int) and 0 <= index < len(elements):
        e = elements[index]
        return e.x + e.w / 2, e.y + e.h / 2
    return None


def mark_for(step: ViewerStep) -> Mark:
    """What to draw for `step`: its points resolved against the observation's elements."""
    action = step.record.action
    api = str(action.get("api", "?"))
    args = action.get("args") or {}
    if not isinstance(args, dict):
        args = {}
    obs: Observation | None = step.observation()
    elements = obs.elements if obs is not None else []
    mark = Mark(kind=api)
    if api in {"click", "double_click"}:
        point = _point(args, elements)
        mark.points = [point] if point else []
        mark.button = str(args.get("button", "left"))
    elif api == "drag_and_drop":
        mark.kind = "drag"
        start, end = _point(args, elements, "start_"), _point(args, elements, "end_")
        mark.points = [p for p in (start, end) if p is not None]
        if len(mark.points) < 2:
            mark.text = "drag (points not resolvable)"
    elif api == "scroll":
        point = _point(args, elements)
        mark.points = [point] if point else []
        mark.direction = str(args.get("direction", "down"))
        mark.text = f"scroll {mark.direction} ×{args.get('amount', 3)}"
    elif api == "type":
        mark.text = f"type “{args.get('text', '')}”"
    elif api == "key":
        mark.text = f"key {args.get('key', '')}"
    elif api == "hotkey":
        mark.text = "hotkey " + "+".join(str(k) for k in args.get("keys", []))
    else:
        mark.text = caption(api, args)
    if mark.points:
        hit = hit_element(elements, *mark.points[0])
        if hit is not None:
            mark.box = (hit.x, hit.y, hit.w, hit.h)
    return mark


def caption(api: str, args: dict[str, Any]) -> str:
    """One line for an action without a place on screen (composite actions, done, failed)."""
    inner = ", ".join(f"{k}={v}" for k, v in args.items() if v is not None)
    return f"{api}({inner})" if inner else api


def hit_index(step: ViewerStep) -> int | None:
    """Index of the element the action acted on, for highlighting the element list."""
    args = step.record.action.get("args") or {}
    if not isinstance(args, dict):
        return None
    for key in ("index", "start_index"):
        if isinstance(args.get(key), int):
            return int(args[key])
    obs = step.observation()
    mark = mark_for(step)
    if obs is None or not mark.points:
        return None
    hit = hit_element(obs.elements, *mark.points[0])
    return hit.index if hit is not None else None

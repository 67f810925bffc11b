"""From a step's action (and the observation it was chosen on) to the `Mark` drawn on it.

Where the action acted comes from `trajectories.geometry.action_point`, which resolves an
element index exactly as the primitive mode does when executing it.
"""

from __future__ import annotations

from typing import Any

from studio.services.runs.trajectories.geometry import action_point
from studio.views.viewer.overlay import Mark
from studio.views.viewer.steps import ViewerStep, hit_element

_KINDS = {"drag_and_drop": "drag", "stroke": "drag"}  # a stroke is drawn as its path


def mark_for(step: ViewerStep) -> Mark:
    """What to draw for `step`: its points resolved against the observation's elements."""
    obs = step.observation()
    geo = action_point(step.record, obs)
    args = step.record.action.get("args") or {}
    args = args if isinstance(args, dict) else {}
    mark = Mark(kind=_KINDS.get(geo.kind, geo.kind), points=list(geo.points))
    mark.button = str(args.get("button", "left"))
    mark.direction = geo.direction or ""
    if geo.kind == "scroll":
        mark.text = f"scroll {geo.direction} ×{geo.amount:g}" if geo.amount else ""
    elif geo.kind == "type":
        mark.text = f"type “{geo.text or ''}”"
    elif geo.kind in ("key", "hotkey"):
        mark.text = f"{geo.kind} " + "+".join(geo.keys)
    elif geo.kind not in ("click", "double_click", "drag_and_drop", "stroke"):
        mark.text = caption(geo.kind, args)
    needed = 2 if geo.kind in ("drag_and_drop", "stroke") else 1
    if (geo.unresolved or geo.kind == "stroke") and len(mark.points) < needed:
        mark.text = f"{geo.kind}: {'; '.join(geo.unresolved)}"
        mark.kind = "caption"
    if mark.points and obs is not None:
        hit = hit_element(obs.elements, *mark.points[0])
        if hit is not None:
            mark.box = (hit.x, hit.y, hit.w, hit.h)
    return mark


def caption(api: str, args: dict[str, Any]) -> str:
    """One line for an action without a place on screen (composite actions, done, failed)."""
    inner = ", ".join(f"{k}={v}" for k, v in args.items() if v is not None)
    return f"{api}({inner})" if inner else api


def hit_index(step: ViewerStep) -> int | None:
    """Index of the element the action acted on, for highlighting the element list."""
    obs = step.observation()
    geo = action_point(step.record, obs)
    if geo.element_index is not None:
        return geo.element_index
    if obs is None or not geo.points:
        return None
    hit = hit_element(obs.elements, *geo.points[0])
    return hit.index if hit is not None else None

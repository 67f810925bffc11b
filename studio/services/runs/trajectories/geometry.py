"""Where a recorded primitive action acted, in page pixels, for drawing it on its screenshot.

An action given by element `index` resolves to the centre of that element in the observation
the actor saw before the step (elements are `x, y` top-left plus `w, h`), exactly as the
primitive mode resolves it when executing (`studio.services.episodes.primitive.element_centre`).
A scroll without a point acted at the centre of the "canvas" element. What cannot be resolved
(no observation, index out of range) is named in `ActionGeometry.unresolved`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.models.agent import Element, Observation, StepRecord

__all__ = ["ActionGeometry", "Point", "action_point"]

Point = tuple[float, float]


@dataclass
class ActionGeometry:
    """The drawable part of an action.

    `kind` is the action's api. `points`: one point for click, double_click and scroll, start
    and end for drag_and_drop, the path of a stroke (a point that could not be resolved is
    left out). `text` is the typed text; `keys` the key or hotkey keys; `direction` and
    `amount` describe a scroll; `element_index` (and `end_element_index` for a drag's end) the
    element the action named.
    """

    kind: str
    points: list[Point] = field(default_factory=list)
    text: str | None = None
    keys: list[str] = field(default_factory=list)
    direction: str | None = None
    amount: float | None = None
    element_index: int | None = None
    end_element_index: int | None = None
    unresolved: list[str] = field(default_factory=list)


def action_point(
    step: StepRecord | dict[str, Any], observation: Observation | None
) -> ActionGeometry:
    """Resolve the action of `step` (a StepRecord or an action dict) against `observation`."""
    action = step.action if isinstance(step, StepRecord) else step
    kind = str(action.get("api", ""))
    args = action.get("args") or {}
    if not isinstance(args, dict):
        return ActionGeometry(kind, unresolved=["args are not an object"])
    elements = observation.elements if observation is not None else None
    geo = ActionGeometry(kind)
    if kind in ("click", "double_click"):
        _add_point(geo, args, "x", "y", "index", elements, "point")
        geo.element_index = _int(args.get("index"))
    elif kind == "drag_and_drop":
        _add_point(geo, args, "start_x", "start_y", "start_index", elements, "start")
        _add_point(geo, args, "end_x", "end_y", "end_index", elements, "end")
        geo.element_index = _int(args.get("start_index"))
        geo.end_element_index = _int(args.get("end_index"))
    elif kind == "stroke":
        points = args.get("points")
        for point in points if isinstance(points, list) else []:
            if isinstance(point, list | tuple) and len(point) == 2:
                geo.points.append((float(point[0]), float(point[1])))
    elif kind == "scroll":
        _scroll(geo, args, elements)
    elif kind == "type":
        geo.text = str(args.get("text", ""))
    elif kind == "key":
        geo.keys = [str(args.get("key", ""))]
    elif kind == "hotkey":
        keys = args.get("keys")
        geo.keys = [str(k) for k in keys] if isinstance(keys, list) else []
    return geo


def _scroll(geo: ActionGeometry, args: dict[str, Any], elements: list[Element] | None) -> None:
    geo.direction = str(args.get("direction", "")) or None
    amount = args.get("amount", 3)
    geo.amount = float(amount) if isinstance(amount, int | float) else None
    if any(args.get(k) is not None for k in ("x", "y", "index")):
        _add_point(geo, args, "x", "y", "index", elements, "point")
        geo.element_index = _int(args.get("index"))
        return
    canvas = next((e for e in elements or [] if e.type == "canvas"), None)
    if canvas is None:
        geo.unresolved.append("point: no point given and no canvas element observed")
    else:
        geo.points.append(_centre(canvas))
        geo.element_index = canvas.index


def _add_point(
    geo: ActionGeometry,
    args: dict[str, Any],
    xkey: str,
    ykey: str,
    ikey: str,
    elements: list[Element] | None,
    what: str,
) -> None:
    x, y, index = _float(args.get(xkey)), _float(args.get(ykey)), _int(args.get(ikey))
    if x is not None and y is not None:
        geo.points.append((x, y))
        return
    if index is None:
        geo.unresolved.append(f"{what}: neither {xkey}/{ykey} nor {ikey} given")
        return
    if elements is None:
        geo.unresolved.append(f"{what}: {ikey} {index} but no observation recorded")
        return
    element = _element(elements, index)
    if element is None:
        geo.unresolved.append(
            f"{what}: {ikey} {index} is not among the {len(elements)} observed elements"
        )
        return
    geo.points.append(_centre(element))


def _element(elements: list[Element], index: int) -> Element | None:
    """The element at position `index` (how the executor resolves it), checked by its index."""
    if 0 <= index < len(elements) and elements[index].index == index:
        return elements[index]
    return next((e for e in elements if e.index == index), None)


def _centre(element: Element) -> Point:
    return (element.x + element.w / 2, element.y + element.h / 2)


def _float(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None

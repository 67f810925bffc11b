"""The primitive oracle's drawings: strokes drawn with the paint editor's brush on a costume.

A task whose golden costume was drawn by hand gives that drawing in `task.json`
`metadata.drawing`: `{"SPRITE": [[[fx, fy], [fx, fy], ...], ...]}`, for each sprite its strokes,
each a path of at least two points in fractions of the paint editor's canvas ([0, 0] its
top-left corner, [1, 1] its bottom-right one). `parse_drawing` reads it (a StudioError names
the sprite, the stroke and what is wrong).

`paint_steps(strokes)` is the plan the primitive oracle follows for one sprite (already
selected), as a generator of actions that is sent the observation after each: open the
Costumes tab, pick the Brush, draw each stroke as one `stroke` action (press at its first
point, move through the others, release at the last), then go back to the Code tab. It sees
only the element list: the canvas is the box between the paint tools (right of the Eraser and
Reshape buttons, from the top of the Select button), the zoom buttons (its right edge) and the
Convert button under it (`canvas_box`), less `INSET` px on each side.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from studio.models.agent import Element, Observation
from studio.models.errors import StudioError

__all__ = ["INSET", "Drawing", "PaintStuck", "canvas_box", "paint_steps", "parse_drawing"]

INSET = 8  # px kept clear of the canvas's edges (its scroll bars)
Drawing = dict[str, list[list[tuple[float, float]]]]
Action = dict[str, Any]


class PaintStuck(Exception):
    """The paint editor is not where the plan expects it; the message says what is missing."""


def parse_drawing(raw: Any, where: str = "metadata.drawing") -> Drawing:
    """The drawing a task gives (see the module docstring); {} for None."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise StudioError(f"{where} must map sprite names to lists of strokes")
    drawing: Drawing = {}
    for sprite, strokes in raw.items():
        if not isinstance(strokes, list) or not strokes:
            raise StudioError(f"{where}.{sprite} must be a non-empty list of strokes")
        paths = []
        for n, stroke in enumerate(strokes, 1):
            name = f"{where}.{sprite} stroke {n}"
            if not isinstance(stroke, list) or len(stroke) < 2:
                raise StudioError(f"{name} must be a list of at least two [x, y] points")
            path = []
            for point in stroke:
                ok = isinstance(point, list) and len(point) == 2
                ok = ok and all(
                    isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1
                    for v in point
                )
                if not ok:
                    raise StudioError(
                        f"{name}: {point!r} is not an [x, y] pair of fractions from 0 to 1"
                    )
                path.append((float(point[0]), float(point[1])))
            paths.append(path)
        drawing[str(sprite)] = paths
    return drawing


def _button(obs: Observation, text: str) -> Element | None:
    return next((e for e in obs.elements if e.type == "buttons" and e.text == text), None)


def canvas_box(obs: Observation) -> tuple[float, float, float, float]:
    """The paint canvas's (left, top, right, bottom) on the screen, less INSET."""
    found = {
        text: _button(obs, text)
        for text in ("Select", "Reshape", "Eraser", "Zoom In", "Convert to Bitmap")
    }
    convert = found["Convert to Bitmap"] or _button(obs, "Convert to Vector")
    missing = [t for t, e in found.items() if e is None and t != "Convert to Bitmap"]
    if missing or convert is None:
        names = ", ".join(missing + ([] if convert else ["Convert to Bitmap/Vector"]))
        raise PaintStuck(f"the paint editor does not show {names}")
    select, reshape, eraser, zoom = (found[t] for t in ("Select", "Reshape", "Eraser", "Zoom In"))
    assert select and reshape and eraser and zoom
    left = max(reshape.x + reshape.w, eraser.x + eraser.w)
    box = (left + INSET, select.y + INSET, zoom.x + zoom.w - INSET, convert.y - INSET)
    if box[2] - box[0] < 50 or box[3] - box[1] < 50:
        raise PaintStuck(f"the paint canvas found is too small: {box}")
    return box


def _click(el: Element) -> Action:
    return {"api": "click", "args": {"index": el.index}}


def paint_steps(
    strokes: list[list[tuple[float, float]]], obs: Observation
) -> Generator[tuple[Action, str], Observation, None]:
    """The plan for one selected sprite from observation `obs` (see the module docstring);
    each item is the action and why, and the observation after it is sent back."""
    tab = _button(obs, "Costumes")
    if tab is None:
        raise PaintStuck("there is no Costumes tab")
    if not tab.meta.get("selected"):
        obs = yield _click(tab), "Open the Costumes tab to draw on the costume."
    brush = _button(obs, "Brush")
    if brush is None:
        raise PaintStuck("the paint editor shows no Brush")
    obs = yield _click(brush), "Pick the Brush."
    for n, stroke in enumerate(strokes, 1):
        left, top, right, bottom = canvas_box(obs)
        points = [
            [round(left + fx * (right - left)), round(top + fy * (bottom - top))]
            for fx, fy in stroke
        ]
        why = f"Draw stroke {n} of {len(strokes)} with the brush."
        obs = yield {"api": "stroke", "args": {"points": points}}, why
    code = _button(obs, "Code")
    if code is None:
        raise PaintStuck("there is no Code tab")
    yield _click(code), "Back to the Code tab."

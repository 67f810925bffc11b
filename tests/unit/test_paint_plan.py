"""The primitive oracle's drawing plan without a browser: a task's `metadata.drawing` read (bad
ones refused, naming the stroke), the paint canvas found from the element list the real
editor shows on its Costumes tab, and the plan's actions (tab, brush, one stroke per path,
back to Code). The real paint editor: tests/e2e/test_paint_strokes.py."""

from __future__ import annotations

from typing import Any

import pytest

from studio.models.agent import Element, Mode, Observation
from studio.models.errors import StudioError
from studio.services.episodes.agents.paint_plan import (
    INSET,
    PaintStuck,
    canvas_box,
    paint_steps,
    parse_drawing,
)

# what the current editor's element list holds on the Costumes tab at 1280x720 (recorded from
# a real episode of create_cat_walk): the canvas lies right of the tools, above "Convert"
BUTTONS = {
    "Code": (0, 58, 95, 35), "Costumes": (87, 53, 120, 40), "Select": (168, 239, 40, 40),
    "Reshape": (240, 239, 40, 40), "Brush": (168, 287, 40, 40), "Eraser": (240, 287, 40, 40),
    "Convert to Bitmap": (292, 671, 148, 36), "Zoom In": (725, 672, 32, 33),
}  # fmt: skip


def _obs(selected: str = "Costumes", drop: str = "") -> Observation:
    elements = [
        Element(index=i, type="buttons", text=text, x=x, y=y, w=w, h=h,
                meta={"selected": text == selected} if text in ("Code", "Costumes") else {})
        for i, (text, (x, y, w, h)) in enumerate(BUTTONS.items())
        if text != drop
    ]  # fmt: skip
    return Observation(mode=Mode.PRIMITIVE, step=0, elements=elements)


def test_a_drawing_is_read_and_bad_ones_are_named() -> None:
    assert parse_drawing(None) == {}
    assert parse_drawing({"Cat": [[[0, 0.5], [1, 0.25]]]}) == {"Cat": [[(0.0, 0.5), (1.0, 0.25)]]}
    bad: list[tuple[Any, str]] = [
        ([1], "must map sprite names"),
        ({"Cat": []}, "Cat must be a non-empty list"),
        ({"Cat": [[[0, 0]]]}, "Cat stroke 1 must be a list of at least two"),
        ({"Cat": [[[0, 0], [1.5, 0]]]}, r"Cat stroke 1: \[1.5, 0\] is not an \[x, y\] pair"),
        ({"Cat": [[[0, 0], [True, 0]]]}, "is not an"),
    ]
    for raw, message in bad:
        with pytest.raises(StudioError, match=message):
            parse_drawing(raw)


def test_the_canvas_is_found_between_the_tools_the_zoom_and_convert() -> None:
    assert canvas_box(_obs()) == (280 + INSET, 239 + INSET, 757 - INSET, 671 - INSET)
    with pytest.raises(PaintStuck, match="does not show Eraser"):
        canvas_box(_obs(drop="Eraser"))


def test_the_plan_opens_the_tab_picks_the_brush_strokes_and_goes_back() -> None:
    plan = paint_steps([[(0.0, 0.0), (0.5, 1.0)], [(1.0, 0.5), (0.25, 0.25)]], _obs("Code"))
    actions = [next(plan)[0]]
    try:
        while True:
            actions.append(plan.send(_obs())[0])
    except StopIteration:
        pass
    left, top, right, bottom = canvas_box(_obs())
    index = {text: i for i, text in enumerate(BUTTONS)}
    assert actions == [
        {"api": "click", "args": {"index": index["Costumes"]}},
        {"api": "click", "args": {"index": index["Brush"]}},
        {"api": "stroke", "args": {"points": [[left, top], [round((left + right) / 2), bottom]]}},
        {"api": "stroke", "args": {"points": [
            [right, round((top + bottom) / 2)],
            [round(left + (right - left) / 4), round(top + (bottom - top) / 4)],
        ]}},
        {"api": "click", "args": {"index": index["Code"]}},
    ]  # fmt: skip
    already = paint_steps([[(0.0, 0.0), (1.0, 1.0)]], _obs("Costumes"))
    assert next(already)[0] == {"api": "click", "args": {"index": index["Brush"]}}

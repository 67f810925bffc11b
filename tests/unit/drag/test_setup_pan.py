"""A published item's `pan_canvas_actions` are set-up steps: each custom_js pan is replayed with
its own function and payload after the pre-actions (before the workspace restore), and a pan
that cannot be replayed names its step."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from studio.models.drag_item import ConnectionType, DragItem, EvaluationConfig
from studio.services.diagnostics.drag.item import DragItemError
from studio.services.diagnostics.drag.setup import published_setup, run_setup
from tests.helpers.script_page import ScriptHost

PAN_FN = "async ({ws, payload}) => { ws.getCanvas().setAttribute('transform', payload.transform); }"


class _Page(ScriptHost):
    """Records the set-up's calls in order; a pan answers as the page's `pan` would."""

    def __init__(self, pan_reply: dict[str, Any]) -> None:
        super().__init__()
        self.calls: list[tuple[str, list[Any]]] = []
        self.pan_reply = pan_reply
        self.mouse = self

    async def click(self, x: float, y: float) -> None:
        self.calls.append(("click", [x, y]))

    async def move(self, x: float, y: float) -> None:
        self.calls.append(("move", [x, y]))

    async def answer(self, name: str, function: str, args: list[Any]) -> Any:
        if function == "paletteTop":
            self.calls.append(("paletteTop", args))
            return True
        if function in ("clickSmallStage", "smallStageShown", "still"):
            return True
        if function == "hitAt":
            return "a sprite tile"
        if function == "editingSprite":
            return "Ball"
        if function == "pan":
            self.calls.append(("pan", args))
            return self.pan_reply
        raise AssertionError(f"unexpected call {name}.{function}({args})")


def _item(pan: list[Any]) -> DragItem:
    cfg = EvaluationConfig(
        target_block_opcode="motion_changexby",
        target_block_id="S-1",
        reference_block_id="R-1",
        reference_block_opcode="looks_show",
        connection_type=ConnectionType.NEXT,
        switch_sprite_actions=[{"api": "click", "args": {"x": 900, "y": 600}}],
        pan_canvas_actions=pan,
    )
    return DragItem(id="T1_009", category="T1", instruction="Drag.", evaluation_config=cfg)


def test_a_pan_is_replayed_with_its_function_and_payload_after_the_pre_actions() -> None:
    payload = {"dx": -60, "dy": 25, "transform": "translate(-140,35) scale(0.675)"}
    setup = published_setup(
        _item([{"api": "custom_js", "args": {"fn": PAN_FN, "payload": payload}}])
    )
    assert setup is not None
    assert [s.name for s in setup.steps] == ["switch_sprite_actions[0]", "pan_canvas_actions[0]"]
    page = _Page({"ok": True, "value": None})
    asyncio.run(run_setup(page, setup, "T1_009"))
    # first as a fresh page: the mouse hovering nothing, the palette at its top
    assert page.calls == [
        ("move", [0, 0]),
        ("paletteTop", []),
        ("click", [900, 600]),
        ("pan", [PAN_FN, payload]),
    ]


def test_a_pan_that_cannot_be_replayed_names_its_step() -> None:
    setup = published_setup(_item([{"api": "custom_js", "args": {"fn": "nope(", "payload": {}}}]))
    assert setup is not None
    page = _Page({"ok": False, "code": "INVALID_JS_FN", "message": "not a function"})
    with pytest.raises(
        DragItemError,
        match=r"item T1_009: pan_canvas_actions\[0\]: the pan function INVALID_JS_FN: not a",
    ):
        asyncio.run(run_setup(page, setup, "T1_009"))
    with pytest.raises(
        DragItemError,
        match=r"T1_009: pan_canvas_actions\[0\]: a pan is a custom_js call with a function",
    ):
        published_setup(_item([{"api": "click", "args": {"x": 1, "y": 2}}]))


def test_a_pan_that_throws_is_a_warning_naming_its_step_as_for_the_published_client() -> None:
    setup = published_setup(_item([{"api": "custom_js", "args": {"fn": PAN_FN, "payload": {}}}]))
    assert setup is not None
    page = _Page({"ok": False, "code": "CUSTOM_JS_ERROR", "message": "no contentLeft"})
    asyncio.run(run_setup(page, setup, "T1_009"))
    assert setup.warnings == [
        "item T1_009: pan_canvas_actions[0]: the pan function CUSTOM_JS_ERROR: no contentLeft "
        "(the set-up goes on, as published)"
    ]

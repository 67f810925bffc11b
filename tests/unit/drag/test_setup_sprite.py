"""A published item's `sprite` is a label: the set-up compares it case-insensitively and a
difference is a warning, never a failed set-up (SCRATCHWORLD_API.md section 11)."""

from __future__ import annotations

import asyncio
from typing import Any

from studio.services.diagnostics.drag.setup import PublishedSetup, run_setup
from tests.helpers.script_page import ScriptHost


class _Page(ScriptHost):
    """Answers what run_setup asks: small stage switched, the edited sprite's name."""

    def __init__(self, editing: str) -> None:
        super().__init__()
        self.editing = editing
        self.mouse = self

    async def move(self, x: float, y: float) -> None:
        """The set-up's first move (to hover nothing, as a fresh page)."""

    async def answer(self, name: str, function: str, args: list[Any]) -> Any:
        if function == "editingSprite":
            return self.editing
        if function in ("paletteTop", "clickSmallStage", "smallStageShown", "still"):
            return True
        raise AssertionError(f"unexpected call {name}.{function}({args})")


def test_a_sprite_label_in_another_case_is_the_edited_sprite() -> None:
    setup = PublishedSetup(sprite="battery")
    asyncio.run(run_setup(_Page("Battery"), setup, "T1_001"))
    assert setup.warnings == []


def test_a_different_sprite_label_is_a_warning_not_an_error() -> None:
    setup = PublishedSetup(sprite="goal")
    asyncio.run(run_setup(_Page("Sprite1"), setup, "T1_002"))
    assert setup.warnings == [
        "item T1_002: with no pre-actions: the editor edits 'Sprite1', the item's sprite "
        "label says 'goal'"
    ]

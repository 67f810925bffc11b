"""describe_action: one short line per action, for timelines and comparisons."""

from __future__ import annotations

from typing import Any

import pytest

from studio.services.runs.trajectories.text import describe_action


@pytest.mark.parametrize(
    ("api", "args", "text"),
    [
        ("click", {"x": 3, "y": 4.5}, "click (3, 4.5)"),
        ("click", {"index": 7, "button": "right"}, "click right #7"),
        ("drag_and_drop", {"start_index": 1, "end_x": 5, "end_y": 6}, "drag #1 -> (5, 6)"),
        ("scroll", {"direction": "down"}, "scroll down 3"),
        ("scroll", {"direction": "up", "amount": 2, "x": 1, "y": 2}, "scroll up 2 at (1, 2)"),
        ("type", {"text": 'say "hi"'}, 'type "say \\"hi\\""'),
        ("hotkey", {"keys": ["Control", "z"]}, "hotkey Control+z"),
        (
            "add_block",
            {"blockType": "data_variable", "creation": {"variableName": "n"}},
            "add_block data_variable n",
        ),
        (
            "connect_blocks",
            {
                "sourceBlockIndex": 2,
                "targetBlockIndex": 1,
                "placement": {"kind": "statement_into", "inputName": "SUBSTACK"},
            },
            "connect #2 -> #1 statement_into SUBSTACK",
        ),
        (
            "set_block_field",
            {"blockIndex": 4, "fieldName": "STEPS", "value": 10},
            "set #4 STEPS=10",
        ),
        ("add_variable", {"name": "score", "scope": "sprite"}, "add_variable score (sprite)"),
        ("done", {}, "done"),
    ],
)
def test_describe_action(api: str, args: dict[str, Any], text: str) -> None:
    assert describe_action({"api": api, "args": args}) == text

"""Index resolution and stale-index refusal of the composite handler (no browser)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from studio.models.action_parse import parse_action
from studio.models.agent import ActionError, BlockInfo, Mode
from studio.services.episodes.catalog import CATALOG, OPCODES, catalog_text, check_opcode
from studio.services.episodes.composite import CompositeMode, IndexMap
from tests.helpers.script_page import ScriptHost


def _blocks(*opcodes: str) -> list[BlockInfo]:
    return [BlockInfo(index=i, id=f"id{i}", opcode=op) for i, op in enumerate(opcodes, 1)]


def _action(api: str, **args: Any) -> Any:
    return parse_action({"api": api, "args": args}, Mode.COMPOSITE)


def test_indexes_need_an_observation_first() -> None:
    with pytest.raises(ActionError, match="observe first"):
        IndexMap().resolve(1)


def test_unknown_index_names_the_range_shown() -> None:
    m = IndexMap()
    m.update(4, _blocks("event_whenflagclicked", "motion_movesteps"))
    assert m.resolve(2) == "id2"
    with pytest.raises(ActionError, match=r"no block #3 .* #1 to #2"):
        m.resolve(3)
    m.update(5, [])
    with pytest.raises(ActionError, match="showed no blocks"):
        m.resolve(1)


def test_index_actions_carry_ids_and_the_observed_version() -> None:
    mode = CompositeMode()
    mode.indexes.update(7, _blocks("event_whenflagclicked", "motion_movesteps"))
    placement = {"kind": "stack_after"}
    request, label = mode.request(
        _action("connect_blocks", sourceBlockIndex=2, targetBlockIndex=1, placement=placement)
    )
    assert request == {
        "api": "connect_blocks",
        "args": {"sourceId": "id2", "targetId": "id1", "placement": {"kind": "stack_after"}},
        "expectVersion": 7,
    }
    assert label == "#2 motion_movesteps"
    request, _ = mode.request(_action("set_block_field", blockIndex=2, fieldName="STEPS", value=5))
    assert request["args"] == {"blockId": "id2", "fieldName": "STEPS", "value": 5}


def test_actions_without_indexes_are_never_stale() -> None:
    request, label = CompositeMode().request(_action("add_block", blockType="looks_show"))
    assert "expectVersion" not in request and label is None
    request, _ = CompositeMode().request(_action("select_sprite", name="Cat"))
    assert request == {"api": "select_sprite", "args": {"name": "Cat"}}


class _StalePage(ScriptHost):
    """Answers like composite.js does when the program changed since the observation."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[dict[str, Any]] = []

    async def answer(self, name: str, function: str, args: list[Any]) -> Any:
        assert (name, function) == ("studioComposite", "run")
        arg = args[0]
        self.requests.append(arg)
        if arg.get("expectVersion") not in (None, 3):
            return {
                "ok": False,
                "stale": True,
                "error": "the program changed since your last observation; observe again",
            }
        return {"ok": True, "detail": {"blockId": "id1"}}


def test_a_stale_index_is_refused_until_a_fresh_observation() -> None:
    mode = CompositeMode()
    page = _StalePage()
    mode.indexes.update(2, _blocks("motion_movesteps"))
    action = _action("delete_block", blockIndex=1)
    with pytest.raises(ActionError, match="observe again"):
        asyncio.run(mode.execute(page, action))
    mode.indexes.update(3, _blocks("motion_movesteps"))
    outcome = asyncio.run(mode.execute(page, action))
    assert outcome.target == "#1 motion_movesteps (id1)"


def test_unknown_block_types_are_refused_with_a_suggestion() -> None:
    with pytest.raises(ActionError, match="did you mean motion_movesteps"):
        CompositeMode().request(_action("add_block", blockType="motion_movestep"))
    assert "Pen" in (check_opcode("pen_clear") or "")
    assert check_opcode("control_if") is None


def test_the_catalog_covers_the_eight_categories() -> None:
    assert list(CATALOG) == [
        "Motion",
        "Looks",
        "Sound",
        "Events",
        "Control",
        "Sensing",
        "Operators",
        "Variables",
    ]
    assert 115 <= len(OPCODES) <= 130
    assert catalog_text().splitlines()[0].startswith("Motion: motion_movesteps,")

"""The primitive oracle's build plan: block order, slots left to right, connections."""

from __future__ import annotations

from pathlib import Path

from studio.services.core import paths
from studio.services.core.blocks import find_target
from studio.services.core.sb3 import load_sb3
from studio.services.episodes.agents.primitive_plan import (
    Place,
    SetSlot,
    build_plan,
    category_of,
    menu_label,
    slots,
)


def _golden_blocks(task_id: str, sprite: str) -> dict:  # type: ignore[type-arg]
    project = load_sb3(Path(paths.BUNDLED_TASKS / task_id / "golden.sb3"))[1]
    return find_target(project, sprite)["blocks"]


def _describe(step: Place | SetSlot, blocks: dict) -> str:  # type: ignore[type-arg]
    if isinstance(step, SetSlot):
        return f"set {blocks[step.gid]['opcode']}[{step.slot}]={step.value}"
    parent = blocks[step.parent]["opcode"] if step.parent in blocks else step.parent
    return f"{step.opcode} {step.where}" + (f" {parent}" if parent else "")


def test_cat_walk_is_built_top_down_with_its_values() -> None:
    blocks = _golden_blocks("create_cat_walk", "Cat")
    (script,) = build_plan(blocks)
    assert [_describe(s, blocks) for s in script] == [
        "event_whenflagclicked script",
        "motion_gotoxy next event_whenflagclicked",
        "set motion_gotoxy[0]=-100",
        "set motion_gotoxy[1]=0",
        "control_repeat next motion_gotoxy",
        "set control_repeat[0]=10",
        "motion_movesteps substack control_repeat",
        "set motion_movesteps[0]=15",
        "control_wait next motion_movesteps",
        "set control_wait[0]=0.1",
    ]
    nested = {s.opcode: s.nested for s in script if isinstance(s, Place)}
    assert nested == {
        "event_whenflagclicked": False,
        "motion_gotoxy": False,
        "control_repeat": False,
        "motion_movesteps": True,
        "control_wait": True,
    }


def test_scripts_come_in_screen_order_and_keys_are_dropdowns() -> None:
    blocks = _golden_blocks("create_arrow_keys", "Ball")
    plans = build_plan(blocks)
    keys = [s.value for p in plans for s in p if isinstance(s, SetSlot) and s.kind == "dropdown"]
    assert keys == ["right arrow", "left arrow", "up arrow", "down arrow"]


def test_reporters_fill_slots_counted_among_the_slots_still_shown() -> None:
    blocks = _golden_blocks("compute_count_vowels", "Robot")
    steps = [s for plan in build_plan(blocks) for s in plan]
    text = [_describe(s, blocks) for s in steps]
    # letter (index) of (answer): both slots take reporters; once the first is covered the
    # second is the first slot still shown
    i = text.index("operator_letter_of slot operator_contains")
    assert text[i + 1 : i + 3] == [
        "data_variable slot operator_letter_of",
        "sensing_answer slot operator_letter_of",
    ]
    slot_places = [s for s in steps if isinstance(s, Place) and s.where == "slot"]
    letter = [
        s
        for s in slot_places
        if blocks.get(s.parent or "", {}).get("opcode") == "operator_letter_of"
    ]
    assert [s.slot for s in letter] == [0, 0]
    assert [s.name for s in letter] == ["index", None]
    # the if's condition has no oval to drop on: it is placed by the C-block's geometry
    assert "operator_contains condition control_if" in text
    assert "set data_setvariableto[0]=vowels" in text  # the variable menu comes first


def test_slot_order_follows_the_editor_not_the_json() -> None:
    blocks = {
        "a": {
            "opcode": "data_setvariableto",
            "inputs": {"VALUE": [1, [10, "0"]]},
            "fields": {"VARIABLE": ["score", "id1"]},
            "next": None,
            "parent": None,
            "topLevel": True,
        }
    }
    assert [(s.name, s.kind, s.value) for s in slots(blocks, "a")] == [
        ("VARIABLE", "dropdown", "score"),
        ("VALUE", "text", "0"),
    ]


def test_categories_and_menu_words() -> None:
    assert category_of("event_whenflagclicked") == "events"
    assert category_of("operator_add") == "operators"
    assert category_of("data_setvariableto") == "variables"
    assert menu_label("_mouse_") == "mouse-pointer"
    assert menu_label("pressed") == "pressed"

"""The composite observation text: sections, numbering, nesting, literals, empty slots."""

from __future__ import annotations

from typing import Any

from studio.services.episodes.composite_view import render_blocks, render_observation


def _field(name: str, value: Any, choices: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "kind": "dropdown" if choices else "text", "value": value}
    if choices is not None:
        out["choices"] = choices
    return out


def _num(name: str, value: str, opcode: str = "math_number") -> dict[str, Any]:
    shadow = {"opcode": opcode, "fields": [_field("NUM", value)]}
    return {"name": name, "kind": "value", "block": None, "shadow": shadow}


def _block(
    opcode: str,
    next_: str | None = None,
    inputs: list[dict[str, Any]] | None = None,
    fields: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {"opcode": opcode, "next": next_, "inputs": inputs or [], "fields": fields or []}


FIGURE_5 = {
    "version": 3,
    "target": "Sprite1",
    "targets": ["Stage", "Sprite1"],
    "variables": [{"name": "my variable", "scope": "all"}],
    "lists": [],
    "tops": ["a"],
    "blocks": {
        "a": _block("event_whenflagclicked", "b"),
        "b": _block(
            "motion_setrotationstyle",
            "c",
            fields=[_field("STYLE", "left-right", ["left-right", "don't rotate", "all around"])],
        ),
        "c": _block(
            "control_forever",
            "e",
            inputs=[{"name": "SUBSTACK", "kind": "statement", "block": "d", "shadow": None}],
        ),
        "d": _block("motion_movesteps", inputs=[_num("STEPS", "10")]),
        "e": _block("motion_ifonedgebounce"),
    },
}


def test_figure_5_of_the_paper() -> None:
    text, blocks = render_observation(FIGURE_5)
    assert text == (
        "## Current Editing Target\n"
        "Sprite1\n"
        "\n"
        "## Target Variables In Scope\n"
        "name: my variable, scope: all\n"
        "\n"
        "## Target Lists In Scope\n"
        "None\n"
        "\n"
        "## All Available Targets\n"
        "Stage, Sprite1\n"
        "\n"
        "## Blocks Pseudocode\n"
        "#1 [top] event_whenflagclicked\n"
        "#2 motion_setrotationstyle\n"
        '- field STYLE: "left-right" {choices: ["left-right", "don\'t rotate", "all around"]}\n'
        "#3 control_forever\n"
        "- SUBSTACK:\n"
        "  #4 motion_movesteps\n"
        "  - input STEPS: 10 (math_number)\n"
        "#5 motion_ifonedgebounce\n"
    )
    assert [(b.index, b.id, b.parent, b.slot) for b in blocks] == [
        (1, "a", None, "top"),
        (2, "b", 1, "next"),
        (3, "c", 2, "next"),
        (4, "d", 3, "SUBSTACK"),
        (5, "e", 3, "next"),
    ]
    assert blocks[3].inputs == {"STEPS": "10"}
    assert blocks[1].fields == {"STYLE": "left-right"}


def test_reporters_nest_and_empty_slots_show() -> None:
    snapshot = {
        "tops": ["if", "loose"],
        "blocks": {
            "if": _block(
                "control_if_else",
                inputs=[
                    {"name": "CONDITION", "kind": "value", "block": "eq", "shadow": None},
                    {"name": "SUBSTACK", "kind": "statement", "block": None, "shadow": None},
                    {"name": "SUBSTACK2", "kind": "statement", "block": None, "shadow": None},
                ],
            ),
            "eq": _block(
                "operator_equals",
                inputs=[
                    {"name": "OPERAND1", "kind": "value", "block": "var", "shadow": None},
                    {
                        "name": "OPERAND2",
                        "kind": "value",
                        "block": None,
                        "shadow": {"opcode": "text", "fields": [_field("TEXT", "0")]},
                    },
                ],
            ),
            "var": _block("data_variable", fields=[_field("VARIABLE", "lives", ["lives"])]),
            "loose": _block(
                "operator_and",
                inputs=[
                    {"name": "OPERAND1", "kind": "value", "block": None, "shadow": None},
                    {"name": "OPERAND2", "kind": "value", "block": None, "shadow": None},
                ],
            ),
        },
    }
    lines, blocks = render_blocks(snapshot)
    assert lines == [
        "#1 [top] control_if_else",
        "- input CONDITION:",
        "  #2 operator_equals",
        "  - input OPERAND1:",
        "    #3 data_variable",
        '    - field VARIABLE: "lives" {choices: ["lives"]}',
        '  - input OPERAND2: "0" (text)',
        "- SUBSTACK: empty",
        "- SUBSTACK2: empty",
        "",
        "#4 [top] operator_and",
        "- input OPERAND1: empty",
        "- input OPERAND2: empty",
    ]
    assert (blocks[1].parent, blocks[1].slot) == (1, "CONDITION")
    assert (blocks[2].parent, blocks[2].slot) == (2, "OPERAND1")
    assert blocks[3].parent is None


def test_menu_inputs_show_their_choices_and_odd_numbers_are_quoted() -> None:
    menu = {
        "opcode": "motion_goto_menu",
        "fields": [_field("TO", "_random_", ["_random_", "_mouse_", "Cat"])],
    }
    snapshot = {
        "tops": ["g", "m"],
        "blocks": {
            "g": _block(
                "motion_goto",
                inputs=[{"name": "TO", "kind": "value", "block": None, "shadow": menu}],
            ),
            "m": _block("motion_movesteps", inputs=[_num("STEPS", "")]),
        },
    }
    lines, _ = render_blocks(snapshot)
    assert (
        lines[1]
        == '- input TO: "_random_" (motion_goto_menu) {choices: ["_random_", "_mouse_", "Cat"]}'
    )
    assert lines[-1] == '- input STEPS: "" (math_number)'


def test_an_empty_workspace_and_no_data() -> None:
    text, blocks = render_observation({"target": "Stage", "targets": ["Stage"], "tops": []})
    assert blocks == []
    assert "## Blocks Pseudocode\nNone\n" in text
    assert "## Target Variables In Scope\nNone\n" in text


def test_sprite_variables_show_their_scope() -> None:
    snapshot = {
        "target": "Cat",
        "variables": [{"name": "score", "scope": "all"}, {"name": "speed", "scope": "sprite"}],
        "lists": [{"name": "items", "scope": "sprite"}],
    }
    text, _ = render_observation(snapshot)
    assert "name: score, scope: all\nname: speed, scope: sprite\n" in text
    assert "## Target Lists In Scope\nname: items, scope: sprite\n" in text

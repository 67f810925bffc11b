"""Block-level diff: atomic edits, matching by content when ids differ, d_edit, pseudocode."""

from __future__ import annotations

import copy
import json
from typing import Any

from studio.models.diff import ChangeKind, EditKind
from studio.services.core.blocks import find_target
from studio.services.core.diff import (
    block_types_used,
    blocks_changed,
    changed_block_ids,
    diff_projects,
    distance,
    edit_distance,
)
from studio.services.core.render import block_label, render_project, render_script
from tests.helpers.project_checks import B, rich_project

Project = dict[str, Any]


def _cat(project: Project) -> dict[str, Any]:
    return find_target(project, "Cat")["blocks"]


def _rename_ids(project: Project, prefix: str) -> Project:
    """The same project with every block id of every target replaced (references too)."""
    text = json.dumps(project)
    for target in project["targets"]:
        for bid in target["blocks"]:
            text = text.replace(f'"{bid}"', f'"{prefix}{bid}"')
    return json.loads(text)


def test_identical_projects_have_no_edits() -> None:
    diff = diff_projects(rich_project(), rich_project())
    assert diff.edits == [] and diff.distance == 0


def test_changed_field_is_one_modify() -> None:
    new = rich_project()
    _cat(new)["c-key"]["fields"]["KEY_OPTION"] = ["space", None]
    diff = diff_projects(rich_project(), new)
    assert diff.distance == 1
    edit = diff.edits[0]
    assert (edit.kind, edit.sprite, edit.block_id, edit.base_id) == (
        EditKind.MODIFY, "Cat", "c-key", "c-key",
    )  # fmt: skip
    (change,) = edit.changes
    assert (change.kind, change.name, change.before, change.after) == (
        ChangeKind.FIELD, "KEY_OPTION", "right arrow", "space",
    )  # fmt: skip
    assert str(change) == "field KEY_OPTION: right arrow -> space"


def test_changed_literal_and_menu_are_input_modifies() -> None:
    new = rich_project()
    _cat(new)["c-move"]["inputs"]["DX"] = [1, [4, "20"]]
    _cat(new)["c-costume-menu"]["fields"]["COSTUME"] = ["cat2", None]
    edits = {e.block_id: e for e in diff_projects(rich_project(), new).edits}
    assert set(edits) == {"c-move", "c-costume"}  # the menu shadow belongs to its block
    assert str(edits["c-move"].changes[0]) == "input DX: 10 -> 20"
    assert str(edits["c-costume"].changes[0]) == "input COSTUME: cat -> cat2"


def test_added_script_gives_one_add_per_block() -> None:
    new = rich_project()
    _cat(new)["n-hat"] = B("event_whenthisspriteclicked", nxt="n-say", x=600)
    _cat(new)["n-say"] = B("looks_say", "n-hat", inputs={"MESSAGE": [1, [10, "hi"]]})
    diff = diff_projects(rich_project(), new)
    assert [(e.kind, e.block_id) for e in diff.edits] == [
        (EditKind.ADD, "n-hat"),
        (EditKind.ADD, "n-say"),
    ]
    assert diff.edits[1].text == "say [hi]"
    assert changed_block_ids(rich_project(), new) == {"n-hat", "n-say"}


def test_renamed_ids_of_identical_blocks_are_no_edits() -> None:
    renamed = _rename_ids(rich_project(), "zz-")
    assert "zz-c-flag" in _cat(renamed)
    assert diff_projects(rich_project(), renamed).edits == []


def test_insertion_with_renumbered_ids_is_one_add() -> None:
    """Projects built from source number blocks by position: an insert shifts later ids."""
    new = rich_project()
    blocks = _cat(new)
    blocks["c-wait2"] = B("control_wait", "c-goto", "c-show", inputs={"DURATION": [1, [5, "1"]]})
    blocks["c-goto"]["next"] = "c-wait2"
    blocks["c-show"]["parent"] = "c-wait2"
    new = _rename_ids(new, "n")
    diff = diff_projects(rich_project(), new)
    assert [(e.kind, e.opcode) for e in diff.edits] == [(EditKind.ADD, "control_wait")]


def test_removed_middle_block_does_not_move_its_neighbours() -> None:
    new = rich_project()
    blocks = _cat(new)
    blocks["c-goto"]["next"] = "c-costume"
    blocks["c-costume"]["parent"] = "c-goto"
    del blocks["c-show"]
    diff = diff_projects(rich_project(), new)
    assert [(e.kind, e.block_id) for e in diff.edits] == [(EditKind.REMOVE, "c-show")]


def test_block_moved_to_another_script_is_one_modify() -> None:
    new = rich_project()
    blocks = _cat(new)
    blocks["c-key"]["next"] = None
    blocks["c-move"]["parent"] = "c-dy"
    blocks["c-dy"]["next"] = "c-move"
    blocks["c-move"]["next"] = "c-delete"
    blocks["c-delete"]["parent"] = "c-move"
    (edit,) = diff_projects(rich_project(), new).edits
    assert edit.kind is EditKind.MODIFY and edit.block_id == "c-move"
    (change,) = edit.changes
    assert change.kind is ChangeKind.MOVED
    assert change.before == "after 'when right arrow key pressed'"
    assert change.after == "after 'change y by (10)'"


def test_opcode_change_is_one_modify() -> None:
    new = rich_project()
    _cat(new)["c-add"]["opcode"] = "operator_subtract"
    (edit,) = diff_projects(rich_project(), new).edits
    assert str(edit.changes[0]) == "opcode opcode: operator_add -> operator_subtract"


def test_sprite_missing_on_one_side_adds_or_removes_everything() -> None:
    old = rich_project()
    new = copy.deepcopy(old)
    new["targets"] = [t for t in new["targets"] if t["name"] != "Cat"]
    diff = diff_projects(old, new)
    real = [b for b, blk in _cat(old).items() if not blk["shadow"]]
    assert {e.kind for e in diff.edits} == {EditKind.REMOVE}
    assert sorted(e.block_id for e in diff.edits) == sorted(real)
    assert distance(new, old) == len(real)


def test_edit_distance_is_the_symmetric_difference() -> None:
    """Two fixes of one buggy project: same edits -> 0, an extra edit -> 1, another add -> 2."""
    buggy = rich_project()
    del _cat(buggy)["c-show"]
    _cat(buggy)["c-goto"]["next"] = "c-costume"
    _cat(buggy)["c-costume"]["parent"] = "c-goto"
    gold = diff_projects(buggy, rich_project())
    same = diff_projects(buggy, _rename_ids(rich_project(), "agent-"))
    assert gold.distance == 1 and edit_distance(gold, same) == 0
    extra = rich_project()
    _cat(extra)["c-move"]["inputs"]["DX"] = [1, [4, "11"]]
    assert edit_distance(gold, diff_projects(buggy, extra)) == 1
    other = rich_project()
    _cat(other)["c-show"]["opcode"] = "looks_hide"
    assert edit_distance(gold, diff_projects(buggy, other)) == 2


def test_blocks_changed_and_block_types_used() -> None:
    new = rich_project()
    _cat(new)["c-move"]["inputs"]["DX"] = [1, [4, "20"]]
    _cat(new)["c-add"]["opcode"] = "operator_multiply"
    assert blocks_changed(rich_project(), new) == 2
    used = block_types_used(rich_project())
    assert used == sorted(used)
    assert {"event_whenflagclicked", "operator_add", "data_variable"} <= set(used)
    assert "looks_costume" not in used and "sensing_keyoptions" not in used


def test_render_script_indents_substacks() -> None:
    blocks = _cat(rich_project())
    assert render_script(blocks, "c-recv").splitlines() == [
        "when I receive start",
        "repeat (3) {",
        "  if <<key space pressed?> and <(lives) < [1]>> then {",
        "    create clone of myself",
        "  }",
        "}",
    ]
    assert block_label(blocks, "c-setx") == "set x to ((speed) + (5))"
    assert render_project(rich_project())["Stage"].splitlines()[1] == "broadcast start and wait"


def test_render_if_else_and_unknown_opcodes() -> None:
    blocks = {
        "h": B("event_whenflagclicked", nxt="ie"),
        "ie": B("control_if_else", "h", "odd",
                inputs={"SUBSTACK": [2, "s1"], "SUBSTACK2": [2, "s2"]}),
        "s1": B("looks_show", "ie"),
        "s2": B("looks_hide", "ie"),
        "odd": B("pen_setPenColorToColor", "ie", inputs={"COLOR": [1, [9, "#ff0000"]]}),
    }  # fmt: skip
    assert render_script(blocks, "h").splitlines() == [
        "when flag clicked",
        "if <> then {",
        "  show",
        "} else {",
        "  hide",
        "}",
        "pen_setPenColorToColor (#ff0000)",
    ]


def test_swapped_statements_count_as_one_move() -> None:
    new = rich_project()
    blocks = _cat(new)  # flag -> init -> goto -> show  becomes  flag -> goto -> init -> show
    blocks["c-flag"]["next"] = "c-goto"
    blocks["c-goto"].update(parent="c-flag", next="c-init")
    blocks["c-init"].update(parent="c-goto", next="c-show")
    blocks["c-show"]["parent"] = "c-init"
    (edit,) = diff_projects(rich_project(), new).edits
    assert edit.kind is EditKind.MODIFY and edit.changes[0].kind is ChangeKind.MOVED


def test_render_custom_blocks() -> None:
    proto_mutation = {"proccode": "jump %s times", "argumentids": '["a1"]'}
    proto_mutation["argumentnames"] = '["n"]'
    blocks = {
        "d": B("procedures_definition", nxt="s", inputs={"custom_block": [1, "p"]}),
        "p": B("procedures_prototype", "d", shadow=True, mutation=proto_mutation),
        "s": B("motion_changeyby", "d", inputs={"DY": [3, "r", [4, "10"]]}),
        "r": B("argument_reporter_string_number", "s", fields={"VALUE": ["n", None]}),
        "h": B("event_whenflagclicked", nxt="c"),
        "c": B("procedures_call", "h", inputs={"a1": [1, [10, "3"]]},
               mutation={"proccode": "jump %s times", "argumentids": '["a1"]'}),
    }  # fmt: skip
    assert render_script(blocks, "d") == "define jump (n) times\nchange y by (n)"
    assert render_script(blocks, "h") == "when flag clicked\njump [3] times"

"""Repair patches on hand-made projects: apply (all or nothing), the minimal patch, d_edit."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from studio.models.patch import AddEdit, ChangeEdit, PatchError, RemoveEdit
from studio.services.checking.mutation import get_operator
from studio.services.core.blocks import find_target
from studio.services.core.patch import (
    apply_patch,
    d_edit,
    parse_patch,
    patch_between,
    same_code,
)
from studio.services.forge.mechanisms import FORGE_OPERATORS
from tests.helpers.project_checks import assert_valid_project, rich_project


def _cat(project: dict[str, Any]) -> dict[str, Any]:
    return find_target(project, "Cat")["blocks"]


@pytest.mark.parametrize("name", FORGE_OPERATORS)
def test_every_forge_bug_has_an_inverse_patch_that_gives_the_golden_back(name: str) -> None:
    golden = rich_project()
    op = get_operator(name)
    sites = op.candidates(golden)
    assert sites, f"{name} has no site in the hand-made project"
    for site in sites:
        bug = op.apply(golden, site)
        before = copy.deepcopy(bug)
        inverse = patch_between(bug, golden)
        assert inverse, f"{name} at {site}: no inverse patch"
        fixed = apply_patch(bug, inverse)
        assert same_code(fixed, golden), f"{name} at {site}"
        assert_valid_project(fixed)
        assert bug == before  # applying never touches its input
        assert d_edit(inverse, patch_between(bug, golden) or []) == 0


def test_inverse_patches_are_the_minimal_edits() -> None:
    golden = rich_project()
    mir = get_operator("MIR")
    site = next(s for s in mir.candidates(golden) if s.block_id == "c-goto")
    (add,) = patch_between(mir.apply(golden, site), golden) or []
    assert isinstance(add, AddEdit)
    assert (add.block_id, add.parent, add.next) == ("c-goto", "c-init", "c-show")
    ehc = get_operator("EHC")
    site = next(s for s in ehc.candidates(golden) if s.block_id == "c-key")
    (remove,) = patch_between(ehc.apply(golden, site), golden) or []
    assert isinstance(remove, RemoveEdit) and remove.block_id.startswith("ehc-c-key")
    ror = get_operator("ROR")
    site = ror.candidates(golden)[0]
    (change,) = patch_between(ror.apply(golden, site), golden) or []
    assert isinstance(change, ChangeEdit) and change.what == "opcode"


def test_remove_closes_the_gap_a_statement_leaves_and_takes_its_inputs() -> None:
    out = apply_patch(rich_project(), [RemoveEdit(sprite="Cat", block_id="c-costume")])
    cat = _cat(out)
    assert cat["c-show"]["next"] == "c-forever" and cat["c-forever"]["parent"] == "c-show"
    assert "c-costume" not in cat and "c-costume-menu" not in cat
    assert_valid_project(out)


def test_removing_a_hat_removes_its_script_and_a_reporter_empties_its_input() -> None:
    out = apply_patch(rich_project(), [RemoveEdit(sprite="Cat", block_id="c-key")])
    assert "c-key" not in _cat(out) and "c-move" not in _cat(out)
    out = apply_patch(rich_project(), [RemoveEdit(sprite="Cat", block_id="c-xpos")])
    assert _cat(out)["c-gt"]["inputs"]["OPERAND1"] == [1, [10, ""]]
    assert_valid_project(out)


def test_add_inserts_first_in_a_substack() -> None:
    block = {"opcode": "motion_turnright", "inputs": {"DEGREES": [1, [4, "15"]]}, "fields": {}}
    edit = AddEdit(
        sprite="Cat", block_id="new", block=block, parent="c-forever", input="SUBSTACK", next="c-if"
    )
    cat = _cat(apply_patch(rich_project(), [edit]))
    assert cat["c-forever"]["inputs"]["SUBSTACK"] == [2, "new"]
    assert cat["new"]["next"] == "c-if" and cat["c-if"]["parent"] == "new"


def _fails(edits: list[Any], *words: str) -> None:
    golden = rich_project()
    with pytest.raises(PatchError) as info:
        apply_patch(golden, edits)
    for word in words:
        assert word in str(info.value)
    assert golden == rich_project()


def test_an_edit_that_does_not_apply_is_named_and_nothing_is_applied() -> None:
    good = ChangeEdit(sprite="Cat", block_id="c-gt", what="opcode", value="operator_lt")
    _fails([good, RemoveEdit(sprite="Cat", block_id="nope")], "edit 2", "'nope'")
    _fails([RemoveEdit(sprite="Dog", block_id="c-gt")], "edit 1", "no sprite named 'Dog'")
    _fails(
        [ChangeEdit(sprite="Cat", block_id="c-gt", what="opcode", value="operator_bogus")],
        "unknown opcode 'operator_bogus'",
    )
    _fails(
        [ChangeEdit(sprite="Cat", block_id="c-gt", what="field:NOPE", value=["x", None])],
        "no field 'NOPE'",
    )
    _fails(
        [ChangeEdit(sprite="Cat", block_id="c-init", what="field:VARIABLE", value="score")],
        "a field value is",
    )
    _fails(
        [ChangeEdit(sprite="Cat", block_id="c-gt", what="input:OPERAND2", value=[2, "gone"])],
        "'gone'",
    )
    block = {"opcode": "looks_hide", "inputs": {}, "fields": {}}
    _fails(
        [AddEdit(sprite="Cat", block_id="c-show", block=block, parent="c-goto", next="c-show")],
        "already taken",
    )
    _fails(
        [AddEdit(sprite="Cat", block_id="h", block=block, parent="c-goto", next="c-wait")],
        "next block is 'c-show', not 'c-wait'",
    )


def test_a_patch_that_makes_a_cycle_fails() -> None:
    loop = ChangeEdit(sprite="Cat", block_id="c-move", what="input:DX", value=[2, "c-key"])
    _fails([loop], "cycle")
    shared = ChangeEdit(sprite="Cat", block_id="c-xpos", what="input:X", value=[2, "c-gt"])
    _fails([shared], "two parents", "'c-gt'")


def test_parse_patch_names_the_malformed_edit() -> None:
    with pytest.raises(PatchError, match="edit 2"):
        parse_patch([{"op": "remove", "sprite": "Cat", "block_id": "a"}, {"op": "explode"}])
    with pytest.raises(PatchError, match="list of edits"):
        parse_patch("remove everything")
    edits = parse_patch({"edits": [{"op": "remove", "sprite": "Cat", "block_id": "c-wait"}]})
    assert edits == [RemoveEdit(sprite="Cat", block_id="c-wait")]


def test_d_edit_is_the_symmetric_difference_of_normalized_edits() -> None:
    gold = [ChangeEdit(sprite="Cat", block_id="c-gt", what="opcode", value="operator_gt")]
    same = [ChangeEdit(sprite="Cat", block_id="c-gt", what="opcode", value="operator_gt")]
    extra = [*same, RemoveEdit(sprite="Cat", block_id="c-wait")]
    wrong = [ChangeEdit(sprite="Cat", block_id="c-gt", what="opcode", value="operator_lt")]
    assert d_edit(gold, same) == 0
    assert d_edit(gold, extra) == 1  # one unnecessary edit
    assert d_edit(gold, []) == 1  # one missing edit
    assert d_edit(gold, wrong) == 2  # the gold edit missed, another made
    block = {"opcode": "looks_hide", "inputs": {}, "fields": {}}
    a = AddEdit(sprite="Cat", block_id="gold-id", block=block, parent="c-goto", next="c-show")
    b = AddEdit(sprite="Cat", block_id="agent-id", block=block, parent="c-goto", next="c-show")
    assert d_edit([a], [b]) == 0  # an added block is compared by content and place, not id

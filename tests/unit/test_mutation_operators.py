"""Each mutation operator on a small hand-made project: the change it makes, and validity."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from studio.services.checking.mutation import OPERATORS, Site, get_operator
from studio.services.core.blocks import find_target, stage_of
from tests.helpers.project_checks import assert_valid_project, project_problems, rich_project

Project = dict[str, Any]


def _apply(name: str, site: Site) -> Project:
    op = get_operator(name)
    assert site in op.candidates(rich_project()), f"{site} is not a {name} site"
    mutant = op.apply(rich_project(), site)
    assert_valid_project(mutant)
    return mutant


def _cat(project: Project) -> dict[str, Any]:
    return find_target(project, "Cat")["blocks"]


def _stage(project: Project) -> dict[str, Any]:
    return stage_of(project)["blocks"]


def test_the_hand_made_project_is_valid() -> None:
    assert project_problems(rich_project()) == []


def test_the_checker_catches_broken_links() -> None:
    broken = rich_project()
    del _cat(broken)["c-show"]
    problems = project_problems(broken)
    assert any("next c-show" in p for p in problems)
    assert any("c-costume" in p and "parent" in p for p in problems)


@pytest.mark.parametrize("op", OPERATORS, ids=lambda op: op.name)
def test_every_site_gives_a_valid_distinct_mutant(op: Any) -> None:
    project = rich_project()
    before = copy.deepcopy(project)
    sites = op.candidates(project)
    assert sites, f"{op.name} found no site in the hand-made project"
    assert op.name and op.doc and type(op).__doc__
    for site in sites:
        mutant = op.apply(project, site)
        assert_valid_project(mutant)
        assert mutant != project
        assert op.describe(project, site, mutant)
    assert project == before, "apply() must not touch its input"
    assert all(s.block_id != "c-loose" for s in sites), "dead code is not mutated"


def test_krm_replaces_hat_key_and_sensing_key() -> None:
    sites = get_operator("KRM").candidates(rich_project())
    options = {(s.block_id, s.option) for s in sites}
    assert ("c-key", "space") in options and ("c-keyp", "right arrow") in options
    assert all(o != "any" for _, o in options)
    mutant = _apply("KRM", Site("Cat", "c-key", option="space"))
    assert _cat(mutant)["c-key"]["fields"]["KEY_OPTION"][0] == "space"
    mutant = _apply("KRM", Site("Cat", "c-keyp", option="right arrow"))
    assert _cat(mutant)["c-keymenu"]["fields"]["KEY_OPTION"][0] == "right arrow"


def test_sbd_relinks_the_stack() -> None:
    blocks = _cat(_apply("SBD", Site("Cat", "c-show")))
    assert "c-show" not in blocks
    assert blocks["c-goto"]["next"] == "c-costume" and blocks["c-costume"]["parent"] == "c-goto"


def test_sbd_of_a_c_block_takes_its_inputs_and_substack() -> None:
    blocks = _cat(_apply("SBD", Site("Cat", "c-if")))
    for gone in ("c-if", "c-gt", "c-xpos", "c-change", "c-setx", "c-add"):
        assert gone not in blocks
    assert blocks["c-forever"]["inputs"]["SUBSTACK"] == [2, "c-next"]
    assert blocks["c-next"]["parent"] == "c-forever"


def test_sbd_of_the_only_block_in_a_substack_empties_it() -> None:
    blocks = _cat(_apply("SBD", Site("Cat", "c-clone")))
    assert "SUBSTACK" not in blocks["c-if2"]["inputs"] and "c-clonemenu" not in blocks


def test_sbd_detaches_comments() -> None:
    mutant = _apply("SBD", Site("Cat", "c-move"))
    assert find_target(mutant, "Cat")["comments"]["cm-1"]["blockId"] is None
    assert _cat(mutant)["c-key"]["next"] is None


def test_sdm_deletes_the_whole_script() -> None:
    blocks = _cat(_apply("SDM", Site("Cat", "c-recv")))
    for gone in ("c-recv", "c-repeat", "c-if2", "c-and", "c-keyp", "c-keymenu", "c-clone"):
        assert gone not in blocks
    assert "c-flag" in blocks


@pytest.mark.parametrize(
    ("name", "block", "option"),
    [
        ("AOR", "c-add", "operator_divide"),
        ("LOR", "c-and", "operator_or"),
        ("ROR", "c-gt", "operator_lt"),
    ],
)
def test_opcode_swaps(name: str, block: str, option: str) -> None:
    group = {s.option for s in get_operator(name).candidates(rich_project()) if s.block_id == block}
    assert option in group
    mutant = _apply(name, Site("Cat", block, option=option))
    assert _cat(mutant)[block]["opcode"] == option
    assert _cat(mutant)[block]["inputs"] == _cat(rich_project())[block]["inputs"]


def test_ncm_wraps_the_condition_in_not() -> None:
    blocks = _cat(_apply("NCM", Site("Cat", "c-gt", slot="CONDITION")))
    not_id = blocks["c-if"]["inputs"]["CONDITION"][1]
    assert blocks[not_id]["opcode"] == "operator_not"
    assert blocks[not_id]["inputs"]["OPERAND"] == [2, "c-gt"]
    assert blocks["c-gt"]["parent"] == not_id and blocks[not_id]["parent"] == "c-if"


def test_vrm_replaces_field_and_compact_references() -> None:
    blocks = _cat(_apply("VRM", Site("Cat", "c-change", "field:VARIABLE", "v-lives")))
    assert blocks["c-change"]["fields"]["VARIABLE"] == ["lives", "v-lives"]
    blocks = _cat(_apply("VRM", Site("Cat", "c-add", "input:NUM1", "v-score")))
    assert blocks["c-add"]["inputs"]["NUM1"][1] == [12, "score", "v-score"]
    stage_sites = [s for s in get_operator("VRM").candidates(rich_project()) if s.sprite == "Stage"]
    assert stage_sites == []  # the stage references no variable


def test_vrm_uses_only_variables_in_scope() -> None:
    project = rich_project()
    project["targets"].append(copy.deepcopy(find_target(project, "Cat")))
    dog = project["targets"][-1]
    dog["name"] = "Dog"
    dog["variables"] = {"v-dogonly": ["bark", 0]}
    for bid in list(dog["blocks"]):
        dog["blocks"]["d" + bid] = dog["blocks"].pop(bid)
    options = {s.option for s in get_operator("VRM").candidates(project) if s.sprite == "Cat"}
    assert options == {"v-score", "v-lives", "v-speed"}


def test_mir_removes_inits_before_the_first_loop_only() -> None:
    sites = {s.block_id for s in get_operator("MIR").candidates(rich_project())}
    assert sites == {"c-init", "c-goto", "c-show", "c-costume"}
    blocks = _cat(_apply("MIR", Site("Cat", "c-init")))
    assert blocks["c-flag"]["next"] == "c-goto"


def test_baw_turns_broadcast_and_wait_into_broadcast() -> None:
    blocks = _stage(_apply("BAW", Site("Stage", "s-baw", option="event_broadcast")))
    assert blocks["s-baw"]["opcode"] == "event_broadcast"
    assert blocks["s-baw"]["inputs"]["BROADCAST_INPUT"] == [1, [11, "start", "m-start"]]


def test_rwt_removes_waits() -> None:
    sites = {s.block_id for s in get_operator("RWT").candidates(rich_project())}
    assert sites == {"c-wait", "s-wait"}
    blocks = _stage(_apply("RWT", Site("Stage", "s-wait")))
    assert blocks["s-baw"]["next"] == "s-bc"


@pytest.mark.parametrize(
    ("sprite", "block", "slot"),
    [("Cat", "c-recv", "receiver"), ("Stage", "s-baw", "sender"), ("Stage", "s-bc", "sender")],
)
def test_rnm_renames_to_a_declared_fresh_message(sprite: str, block: str, slot: str) -> None:
    mutant = _apply("RNM", Site(sprite, block, slot=slot))
    broadcasts = stage_of(mutant)["broadcasts"]
    assert broadcasts["m-start"] == "start"
    (fresh,) = set(broadcasts) - {"m-start"}
    assert broadcasts[fresh] == "start (mutant 1)"
    blk = find_target(mutant, sprite)["blocks"][block]
    if slot == "receiver":
        assert blk["fields"]["BROADCAST_OPTION"] == ["start (mutant 1)", fresh]
    elif block == "s-baw":
        assert blk["inputs"]["BROADCAST_INPUT"][1] == [11, "start (mutant 1)", fresh]
    else:
        menu = _stage(mutant)["s-bcmenu"]
        assert menu["fields"]["BROADCAST_OPTION"] == ["start (mutant 1)", fresh]


def test_swo_swaps_operands() -> None:
    sites = {s.block_id for s in get_operator("SWO").candidates(rich_project())}
    assert sites == {"c-gt", "c-lt"}  # operator_add is commutative, so not a site
    inputs = _cat(_apply("SWO", Site("Cat", "c-gt")))["c-gt"]["inputs"]
    assert inputs["OPERAND1"] == [1, [10, "100"]]
    assert inputs["OPERAND2"] == [3, "c-xpos", [10, ""]]


@pytest.mark.parametrize(("option", "value"), [("+1", "101"), ("-1", "99"), ("x2", "200")])
def test_cnt_changes_a_threshold(option: str, value: str) -> None:
    blocks = _cat(_apply("CNT", Site("Cat", "c-gt", slot="OPERAND2", option=option)))
    assert blocks["c-gt"]["inputs"]["OPERAND2"] == [1, [10, value]]


def test_cnt_covers_repeat_counts_and_skips_no_ops() -> None:
    sites = get_operator("CNT").candidates(rich_project())
    assert {(s.block_id, s.slot) for s in sites} == {
        ("c-gt", "OPERAND2"),
        ("c-lt", "OPERAND2"),
        ("c-repeat", "TIMES"),
    }
    blocks = _cat(_apply("CNT", Site("Cat", "c-repeat", slot="TIMES", option="-1")))
    assert blocks["c-repeat"]["inputs"]["TIMES"] == [1, [6, "2"]]
    project = rich_project()
    _cat(project)["c-repeat"]["inputs"]["TIMES"] = [1, [6, "0"]]
    options = {s.option for s in get_operator("CNT").candidates(project) if s.slot == "TIMES"}
    assert options == {"+1"}  # 0 - 1 repeats as often as 0, and 0 x 2 is 0


def test_rcv_removes_costume_and_visibility_changes() -> None:
    sites = {s.block_id for s in get_operator("RCV").candidates(rich_project())}
    assert sites == {"c-show", "c-costume", "c-next"}
    blocks = _cat(_apply("RCV", Site("Cat", "c-costume")))
    assert "c-costume-menu" not in blocks and blocks["c-show"]["next"] == "c-forever"


def test_dcd_drops_the_clone_deletion() -> None:
    blocks = _cat(_apply("DCD", Site("Cat", "c-delete")))
    assert "c-delete" not in blocks and blocks["c-dy"]["next"] is None


def test_unknown_operator_name() -> None:
    with pytest.raises(KeyError, match="XYZ"):
        get_operator("XYZ")

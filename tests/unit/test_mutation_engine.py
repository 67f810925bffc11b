"""The mutant engine: targeting order, determinism, round-robin, dedupe, limits, .sb3 output."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from studio.models.mutation import Mutant
from studio.services.checking.mutation import generate_mutants, mutant_sb3, operator_catalog
from studio.services.checking.mutation.engine import get_operator
from studio.services.core.blocks import find_target, subtree
from studio.services.core.sb3 import read_project_json
from tests.helpers.project_checks import assert_valid_project, project_sb3, rich_project

Project = dict[str, Any]
TASKS = Path(__file__).resolve().parents[2] / "tasks"


def _initial() -> Project:
    """The golden minus its key script, and with another threshold in 'x position > 100'."""
    project = rich_project()
    cat = find_target(project, "Cat")
    for bid in ("c-key", "c-move"):
        del cat["blocks"][bid]
    cat["comments"] = {}
    cat["blocks"]["c-gt"]["inputs"]["OPERAND2"] = [1, [10, "50"]]
    return project


def test_sites_the_golden_changes_come_first() -> None:
    mutants = generate_mutants(rich_project(), _initial(), max_mutants=200, seed=3)
    tiers = [m.tier for m in mutants]
    assert tiers == sorted(tiers) and tiers[0] == 0 and 1 in tiers and 2 in tiers
    flag_script = set(subtree(find_target(rich_project(), "Cat")["blocks"], "c-flag", True))
    for m in mutants:
        if m.tier == 0:
            assert m.block_id in {"c-key", "c-move", "c-gt"}
        if m.tier == 1:  # the flag script holds c-gt
            assert m.sprite == "Cat" and m.block_id in flag_script - {"c-gt"}


def test_operators_take_turns() -> None:
    mutants = generate_mutants(rich_project(), _initial(), max_mutants=6, seed=0)
    tier0_ops = [m.operator for m in mutants if m.tier == 0]
    assert len(tier0_ops) == len(set(tier0_ops)) == 6  # KRM SDM SBD ROR NCM CNT SWO: no repeats
    everything = generate_mutants(rich_project(), None, max_mutants=16, seed=0)
    assert len({m.operator for m in everything}) == 16


def test_same_seed_same_mutants_other_seed_other_order() -> None:
    first = generate_mutants(rich_project(), _initial(), max_mutants=30, seed=7)
    again = generate_mutants(rich_project(), _initial(), max_mutants=30, seed=7)
    other = generate_mutants(rich_project(), _initial(), max_mutants=30, seed=8)
    assert [m.model_dump() for m in first] == [m.model_dump() for m in again]
    assert [m.project for m in first] == [m.project for m in again]
    assert [m.id for m in first] != [m.id for m in other]


def test_mutants_are_distinct_valid_and_differ_from_golden_and_initial() -> None:
    golden, initial = rich_project(), _initial()
    mutants = generate_mutants(golden, initial, max_mutants=500, seed=1)
    texts = [json.dumps(m.project, sort_keys=True) for m in mutants]
    assert len(set(texts)) == len(texts)
    assert json.dumps(golden, sort_keys=True) not in texts
    assert json.dumps(initial, sort_keys=True) not in texts
    assert len({m.id for m in mutants}) == len(mutants)
    for m in mutants:
        assert_valid_project(m.project)
    # SBD could delete what MIR, RWT and DCD delete; the named bug pattern keeps the mutant.
    by_block = {(m.operator, m.block_id) for m in mutants}
    assert {("MIR", "c-init"), ("RWT", "c-wait"), ("DCD", "c-delete")} <= by_block
    assert not {("SBD", "c-init"), ("SBD", "c-wait"), ("SBD", "c-delete")} & by_block
    alone = generate_mutants(golden, None, max_mutants=500, seed=1, operators=["SBD"])
    assert {"c-init", "c-wait", "c-delete"} <= {m.block_id for m in alone}


def test_a_mutant_equal_to_the_initial_is_dropped() -> None:
    golden, initial = rich_project(), rich_project()
    find_target(initial, "Cat")["blocks"]["c-gt"]["opcode"] = "operator_lt"
    mutants = generate_mutants(golden, initial, max_mutants=500, seed=0, operators=["ROR"])
    assert {(m.block_id, m.id.rsplit("-", 1)[-1]) for m in mutants if m.block_id == "c-gt"} == {
        ("c-gt", "operator_equals")
    }


def test_max_count_and_operator_filter() -> None:
    assert len(generate_mutants(rich_project(), None, max_mutants=5, seed=0)) == 5
    assert generate_mutants(rich_project(), None, max_mutants=0, seed=0) == []
    only = generate_mutants(rich_project(), None, max_mutants=50, seed=0, operators=["DCD", "BAW"])
    assert sorted(m.id for m in only) == ["BAW-Stage-s-baw-event_broadcast", "DCD-Cat-c-delete"]


def test_mutant_ids_and_descriptions_are_readable() -> None:
    mutants = generate_mutants(rich_project(), None, max_mutants=100, seed=0, operators=["SBD"])
    by_id = {m.id: m for m in mutants}
    move = by_id["SBD-Cat-c-move"]
    assert move.description == (
        "SBD: deleted 'change x by (10)' in Cat's 'when right arrow key pressed' script"
    )
    krm = generate_mutants(rich_project(), None, max_mutants=100, seed=0, operators=["KRM"])
    assert "KRM-Cat-c-key-space" in {m.id for m in krm}
    assert "KRM-Cat-c-keyp-right_arrow" in {m.id for m in krm}
    vrm = generate_mutants(rich_project(), None, max_mutants=100, seed=0, operators=["VRM"])
    assert "VRM-Cat-c-lt-input_OPERAND1-v-speed" in {m.id for m in vrm}


def test_the_project_stays_out_of_dumps() -> None:
    (mutant,) = generate_mutants(rich_project(), None, max_mutants=1, seed=0)
    dumped = mutant.model_dump()
    assert "project" not in dumped and "project" not in mutant.model_dump_json()
    assert "project=" not in repr(mutant)
    assert mutant.project["targets"]
    assert Mutant.model_validate(dumped).id == mutant.id


def test_operator_catalog_lists_the_checks_sixteen() -> None:
    names = [info.name for info in operator_catalog()]
    whisker = ["KRM", "SBD", "SDM", "AOR", "LOR", "ROR", "NCM", "VRM"]
    scratcheval = ["MIR", "BAW", "RWT", "RNM", "SWO", "CNT", "RCV", "DCD"]
    assert sorted(names) == sorted(whisker + scratcheval)
    assert all(info.doc for info in operator_catalog())


def test_the_forge_only_operator_is_known_by_name_but_not_in_the_checks_rotation() -> None:
    assert get_operator("EHC").name == "EHC"
    assert all(m.operator != "EHC" for m in generate_mutants(rich_project(), None, 200, seed=0))


def test_mutant_sb3_replaces_project_json_and_keeps_assets() -> None:
    golden_bytes = project_sb3(rich_project())
    (mutant,) = generate_mutants(rich_project(), None, max_mutants=1, seed=0)
    data = mutant_sb3(golden_bytes, mutant)
    assert read_project_json(data) == mutant.project
    with zipfile.ZipFile(io.BytesIO(golden_bytes)) as a, zipfile.ZipFile(io.BytesIO(data)) as b:
        assets = [n for n in a.namelist() if n != "project.json"]
        assert assets and all(a.read(n) == b.read(n) for n in assets)
        assert sorted(a.namelist()) == sorted(b.namelist())


def _bundled_tasks() -> list[Path]:
    if not TASKS.is_dir():
        return []
    return sorted(p for p in TASKS.iterdir() if (p / "golden.sb3").is_file())


@pytest.mark.skipif(not _bundled_tasks(), reason="the bundled task library is not there")
def test_bundled_golden_projects_give_valid_mutants() -> None:
    total = 0
    for folder in _bundled_tasks():
        golden = read_project_json((folder / "golden.sb3").read_bytes())
        initial = read_project_json((folder / "initial.sb3").read_bytes())
        mutants = generate_mutants(golden, initial, max_mutants=1000, seed=0)
        assert mutants, folder.name
        assert mutants[0].tier == 0, f"{folder.name}: the first mutant misses the task"
        for m in mutants:
            assert_valid_project(m.project)
        total += len(mutants)
    assert total > 100

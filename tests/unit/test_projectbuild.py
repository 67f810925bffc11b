"""The project builder writes well-formed Scratch 3 projects."""

from __future__ import annotations

import importlib.util
import io
import json
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from studio.services import paths
from studio.services.projectbuild import Costume, ProjectBuilder, Var, block
from studio.services.sb3 import check_sb3

b = block


def sample() -> ProjectBuilder:
    p = ProjectBuilder()
    p.add_variable("score", 3)
    p.add_broadcast("go")
    cat = p.add_sprite(
        "Cat", [Costume.circle("cat", 20, "#f90"), Costume.rect("box", 10, 10, "#0f0")]
    )
    cat.add_variable("speed", 10)
    cat.add_script(
        b("event_whenflagclicked"),
        b("data_setvariableto", VARIABLE="score", VALUE=0),
        b(
            "control_repeat",
            TIMES=10,
            SUBSTACK=[
                b("motion_movesteps", STEPS=Var("speed")),
                b(
                    "control_if_else",
                    CONDITION=b("operator_gt", OPERAND1=b("motion_xposition"), OPERAND2=100),
                    SUBSTACK=[b("looks_say", MESSAGE="far")],
                    SUBSTACK2=[b("looks_switchcostumeto", COSTUME="box")],
                ),
            ],
        ),
        b("event_broadcast", BROADCAST_INPUT="go"),
    )
    cat.add_script(
        b("event_whenkeypressed", KEY_OPTION="space"),
        b("looks_say", MESSAGE=b("operator_add", NUM1=b("sensing_answer"), NUM2=Var("score"))),
    )
    p.stage.add_script(
        b("event_whenbroadcastreceived", BROADCAST_OPTION="go"),
        b("control_forever", SUBSTACK=[b("control_wait", DURATION=1)]),
    )
    return p


def blocks_of(project: dict[str, Any], name: str) -> dict[str, dict[str, Any]]:
    return next(t for t in project["targets"] if t["name"] == name)["blocks"]


def test_the_sb3_carries_every_asset_and_loads() -> None:
    data = sample().build()
    project = check_sb3(data, "sample.sb3")
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = set(zf.namelist())
    costumes = [c for t in project["targets"] for c in t["costumes"]]
    assert {c["md5ext"] for c in costumes} | {"project.json"} == names
    for c in costumes:
        assert c["md5ext"] == c["assetId"] + ".svg"


def test_parents_nexts_and_top_level_flags_agree() -> None:
    project = sample().to_json()
    for target in project["targets"]:
        blocks = target["blocks"]
        for bid, blk in blocks.items():
            if blk["next"] is not None:
                assert blocks[blk["next"]]["parent"] == bid
            if blk["parent"] is None:
                assert blk["topLevel"] and "x" in blk and "y" in blk
            else:
                assert not blk["topLevel"]
                parent = blocks[blk["parent"]]
                in_input = any(
                    bid in (v[1], v[2] if len(v) > 2 else None) for v in parent["inputs"].values()
                )
                assert parent["next"] == bid or in_input, f"{bid} is not linked from its parent"
            for value in blk["inputs"].values():
                for slot in value[1:]:
                    if isinstance(slot, str):
                        assert blocks[slot]["parent"] == bid


def test_inputs_use_the_sb3_shadow_forms() -> None:
    project = sample().to_json()
    cat = blocks_of(project, "Cat")
    by_opcode = {blk["opcode"]: blk for blk in cat.values()}
    assert by_opcode["control_repeat"]["inputs"]["TIMES"] == [1, [6, "10"]]
    steps = by_opcode["motion_movesteps"]["inputs"]["STEPS"]
    assert steps == [3, [12, "speed", "Cat-var-speed"], [4, ""]]
    says = [blk["inputs"]["MESSAGE"] for blk in cat.values() if blk["opcode"] == "looks_say"]
    assert says[0] == [1, [10, "far"]]
    assert says[1][0] == 3 and cat[says[1][1]]["opcode"] == "operator_add"
    assert by_opcode["event_whenkeypressed"]["fields"] == {"KEY_OPTION": ["space", None]}
    assert by_opcode["data_setvariableto"]["fields"]["VARIABLE"] == ["score", "Stage-var-score"]
    broadcast = by_opcode["event_broadcast"]["inputs"]["BROADCAST_INPUT"]
    assert broadcast[0] == 1 and broadcast[1][:2] == [11, "go"]
    condition = by_opcode["control_if_else"]["inputs"]["CONDITION"]
    assert condition[0] == 2 and cat[condition[1]]["opcode"] == "operator_gt"
    menu = cat[by_opcode["looks_switchcostumeto"]["inputs"]["COSTUME"][1]]
    assert menu["shadow"] and menu["fields"] == {"COSTUME": ["box", None]}
    add = by_opcode["operator_add"]["inputs"]
    assert add["NUM2"] == [3, [12, "score", "Stage-var-score"], [4, ""]]
    assert add["NUM1"][0] == 3 and cat[add["NUM1"][1]]["opcode"] == "sensing_answer"


def test_variables_and_broadcasts_are_declared_where_scratch_expects_them() -> None:
    project = sample().to_json()
    stage, cat = project["targets"]
    assert stage["isStage"] and stage["layerOrder"] == 0 and cat["layerOrder"] == 1
    assert stage["variables"] == {"Stage-var-score": ["score", 3]}
    assert cat["variables"] == {"Cat-var-speed": ["speed", 10]}
    go_id = next(iter(stage["broadcasts"]))
    hat = next(blk for blk in stage["blocks"].values() if blk["opcode"].endswith("received"))
    assert hat["fields"]["BROADCAST_OPTION"] == ["go", go_id]


def test_a_rebuild_gives_the_same_project_json() -> None:
    a, b_ = sample().build(), sample().build()
    with zipfile.ZipFile(io.BytesIO(a)) as za, zipfile.ZipFile(io.BytesIO(b_)) as zb:
        assert za.read("project.json") == zb.read("project.json")
    assert json.loads(zipfile.ZipFile(io.BytesIO(a)).read("project.json")) == sample().to_json()


def test_mistakes_are_refused_with_a_clear_message() -> None:
    with pytest.raises(KeyError, match="motion_fly"):
        b("motion_fly")
    with pytest.raises(ValueError, match="STEPZ"):
        b("motion_movesteps", STEPZ=3)
    p = ProjectBuilder()
    cat = p.add_sprite("Cat", [Costume.circle("cat", 5, "#000")])
    cat.add_script(b("data_changevariableby", VARIABLE="nope", VALUE=1))
    with pytest.raises(ValueError, match="undeclared variable 'nope'"):
        p.to_json()
    with pytest.raises(ValueError, match="already exists"):
        p.add_sprite("Cat", [Costume.circle("cat", 5, "#000")])


def test_missing_literal_inputs_get_an_empty_shadow() -> None:
    p = ProjectBuilder()
    p.add_sprite("Cat", [Costume.circle("c", 5, "#000")]).add_script(b("motion_gotoxy", X=5))
    (blk,) = blocks_of(p.to_json(), "Cat").values()
    assert blk["inputs"] == {"X": [1, [4, "5"]], "Y": [1, [4, "0"]]}


def test_stop_blocks_carry_their_mutation() -> None:
    p = ProjectBuilder()
    p.stage.add_script(b("control_stop", STOP_OPTION="all"))
    (blk,) = blocks_of(p.to_json(), "Stage").values()
    assert blk["mutation"]["hasnext"] == "false"
    assert blk["fields"] == {"STOP_OPTION": ["all", None]}


def _load_build_tasks() -> Any:
    path = Path(__file__).resolve().parents[2] / "tools" / "build_tasks.py"
    spec = importlib.util.spec_from_file_location("build_tasks", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being defined
    spec.loader.exec_module(module)
    return module


def test_the_bundled_tasks_are_up_to_date_with_tools_build_tasks(tmp_path: Path) -> None:
    """Rebuilding the library gives the committed projects and task.json fields."""
    tool = _load_build_tasks()
    tool.build_all(tmp_path)
    committed = paths.BUNDLED_TASKS
    for task in tool.TASKS:
        for name in ("initial.sb3", "golden.sb3"):
            fresh = tool.sb3_content((tmp_path / task.id / name).read_bytes())
            assert tool.sb3_content((committed / task.id / name).read_bytes()) == fresh, (
                f"tasks/{task.id}/{name} is stale: run python tools/build_tasks.py"
            )
        fresh_json = json.loads((tmp_path / task.id / "task.json").read_text(encoding="utf-8"))
        old_json = json.loads((committed / task.id / "task.json").read_text(encoding="utf-8"))
        for key in tool.OWNED_FIELDS:
            assert old_json[key] == fresh_json[key], f"tasks/{task.id}/task.json: {key} is stale"
        assert (committed / task.id / "evaluate.js").is_file()

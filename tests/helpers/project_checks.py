"""Structural checks of project.json dicts, and a small hand-made project for mutation tests."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

from studio.services.core.sb3 import build_sb3
from tests.helpers.sample_task import BACKDROP_SVG, CAT_SVG, _costume

Project = dict[str, Any]


class ProjectProblem(AssertionError):
    """A project.json whose block tables are not consistent."""


def _check_ref(problems: list[str], where: str, cond: bool, text: str) -> None:
    if not cond:
        problems.append(f"{where}: {text}")


def _compact_ok(prim: Any, scope: dict[str, Any], where: str, problems: list[str]) -> None:
    if not (isinstance(prim, list) and len(prim) >= 2 and isinstance(prim[0], int)):
        problems.append(f"{where}: bad compact primitive {prim!r}")
        return
    kind = prim[0]
    if kind in (11, 12, 13):
        table = {11: scope["broadcasts"], 12: scope["variables"], 13: scope["lists"]}[kind]
        _check_ref(problems, where, len(prim) >= 3, f"primitive without id {prim!r}")
        if len(prim) >= 3:
            _check_ref(problems, where, table.get(prim[2]) == prim[1], f"undeclared {prim!r}")
    else:
        _check_ref(problems, where, 4 <= kind <= 10, f"unknown primitive type {prim!r}")


def _field_ok(name: str, field: Any, scope: dict[str, Any], where: str, out: list[str]) -> None:
    _check_ref(out, where, isinstance(field, list) and len(field) >= 1, f"bad field {name}")
    table = {"VARIABLE": "variables", "LIST": "lists", "BROADCAST_OPTION": "broadcasts"}.get(name)
    if table and len(field) > 1 and field[1] is not None:
        declared = scope[table].get(field[1])
        _check_ref(out, where, declared == field[0], f"field {name} {field!r} is not declared")


def _scope(project: Project, target: dict[str, Any]) -> dict[str, Any]:
    stage = next(t for t in project["targets"] if t.get("isStage"))
    scope: dict[str, Any] = {"variables": {}, "lists": {}, "broadcasts": {}}
    for owner in (stage, target):
        for vid, var in owner.get("variables", {}).items():
            scope["variables"][vid] = var[0]
        for lid, lst in owner.get("lists", {}).items():
            scope["lists"][lid] = lst[0]
    scope["broadcasts"] = dict(stage.get("broadcasts", {}))
    return scope


def _check_block(
    bid: str, blk: dict[str, Any], blocks: dict[str, Any], scope: dict[str, Any], out: list[str]
) -> list[str]:
    """Check one block; return the ids it references (next and inputs)."""
    where = f"block {bid} ({blk.get('opcode')})"
    for key in ("opcode", "next", "parent", "inputs", "fields", "shadow", "topLevel"):
        _check_ref(out, where, key in blk, f"missing {key}")
    parent, nxt = blk.get("parent"), blk.get("next")
    _check_ref(
        out, where, blk.get("topLevel") == (parent is None), "topLevel disagrees with parent"
    )
    if blk.get("topLevel") and not blk.get("shadow"):
        _check_ref(out, where, "x" in blk and "y" in blk, "top-level block without x/y")
    refs = []
    if nxt is not None:
        ok = isinstance(blocks.get(nxt), dict) and blocks[nxt].get("parent") == bid
        _check_ref(out, where, ok, f"next {nxt} missing or not pointing back")
        refs.append(nxt)
    if parent is not None:
        pblk = blocks.get(parent)
        ok = isinstance(pblk, dict) and (
            pblk.get("next") == bid
            or any(isinstance(i, list) and bid in i[1:3] for i in pblk.get("inputs", {}).values())
        )
        _check_ref(out, where, ok, f"parent {parent} does not hold it")
    for name, inp in blk.get("inputs", {}).items():
        iwhere = f"{where} input {name}"
        if not (isinstance(inp, list) and len(inp) >= 2 and inp[0] in (1, 2, 3)):
            out.append(f"{iwhere}: malformed {inp!r}")
            continue
        for pos, ref in enumerate(inp[1:3], start=1):
            if isinstance(ref, str):
                child = blocks.get(ref)
                ok = isinstance(child, dict) and child.get("parent") == bid
                _check_ref(out, iwhere, ok, f"{ref} missing or not pointing back")
                shadow_slot = (inp[0] == 1 and pos == 1) or pos == 2
                if isinstance(child, dict):
                    _check_ref(out, iwhere, bool(child.get("shadow")) == shadow_slot, "shadow flag")
                refs.append(ref)
            elif isinstance(ref, list):
                _compact_ok(ref, scope, iwhere, out)
            else:
                _check_ref(out, iwhere, ref is None, f"bad ref {ref!r}")
    for name, field in blk.get("fields", {}).items():
        _field_ok(name, field, scope, where, out)
    return refs


def project_problems(project: Project) -> list[str]:
    """Every structural problem of a project.json (an empty list for a sound project)."""
    out: list[str] = []
    targets = project.get("targets", [])
    if sum(1 for t in targets if t.get("isStage")) != 1:
        out.append("the project needs exactly one stage")
        return out
    seen_ids: set[str] = set()
    for target in targets:
        blocks, scope = target.get("blocks", {}), _scope(project, target)
        name = target.get("name")
        dup = seen_ids & set(blocks)
        _check_ref(out, f"target {name}", not dup, f"block ids used twice: {sorted(dup)}")
        seen_ids |= set(blocks)
        held: dict[str, int] = {}
        for bid, blk in blocks.items():
            if isinstance(blk, list):
                _compact_ok(blk[:3], scope, f"{name} top-level {bid}", out)
                continue
            for ref in _check_block(bid, blk, blocks, scope, out):
                held[ref] = held.get(ref, 0) + 1
            _check_cycle(bid, blocks, out)
        out.extend(f"{name} block {b} is held {n} times" for b, n in held.items() if n > 1)
        for cid, comment in target.get("comments", {}).items():
            ok = comment.get("blockId") is None or comment["blockId"] in blocks
            _check_ref(out, f"{name} comment {cid}", ok, "points at a missing block")
    return out


def _check_cycle(bid: str, blocks: dict[str, Any], out: list[str]) -> None:
    seen = set()
    cur: str | None = bid
    while cur is not None and isinstance(blocks.get(cur), dict):
        if cur in seen:
            out.append(f"block {bid}: its parent chain loops")
            return
        seen.add(cur)
        cur = blocks[cur].get("parent")


def assert_valid_project(project: Project) -> None:
    """Fail with every problem listed if the block tables are not consistent."""
    problems = project_problems(project)
    if problems:
        raise ProjectProblem("invalid project:\n" + "\n".join(problems[:40]))


def B(opcode: str, parent: str | None = None, nxt: str | None = None, **kw: Any) -> dict[str, Any]:
    """A block record; `inputs`, `fields`, `shadow`, `x`/`y` go in as keywords."""
    blk: dict[str, Any] = {
        "opcode": opcode,
        "next": nxt,
        "parent": parent,
        "inputs": kw.pop("inputs", {}),
        "fields": kw.pop("fields", {}),
        "shadow": kw.pop("shadow", False),
        "topLevel": parent is None,
    }
    if parent is None:
        blk["x"], blk["y"] = kw.pop("x", 0), kw.pop("y", 0)
    blk.update(kw)
    return blk


def target(name: str, blocks: dict[str, Any], **extra: Any) -> dict[str, Any]:
    stage = name == "Stage"
    costume = (
        _costume("backdrop1", BACKDROP_SVG, 240, 180) if stage else _costume("cat", CAT_SVG, 20, 20)
    )
    out: dict[str, Any] = {
        "isStage": stage,
        "name": name,
        "variables": {},
        "lists": {},
        "broadcasts": {},
        "blocks": blocks,
        "comments": {},
        "currentCostume": 0,
        "costumes": [costume] if stage else [costume, {**costume, "name": "cat2"}],
        "sounds": [],
        "volume": 100,
        "layerOrder": 0 if stage else 1,
    }
    if not stage:
        out |= {"visible": True, "x": 0, "y": 0, "size": 100, "direction": 90}
        out |= {"draggable": False, "rotationStyle": "all around"}
    out.update(extra)
    return out


def make_project(*targets: dict[str, Any]) -> Project:
    return {
        "targets": list(targets),
        "monitors": [],
        "extensions": [],
        "meta": {"semver": "3.0.0", "vm": "0.2.0", "agent": "tests"},
    }


def project_sb3(project: Project) -> bytes:
    """Pack a project made here (its costumes use the test SVGs) into .sb3 bytes."""
    assets = {}
    for t in project["targets"]:
        for c in t["costumes"]:
            assets[c["md5ext"]] = BACKDROP_SVG if t.get("isStage") else CAT_SVG
    return build_sb3(project, assets)


def rich_project() -> Project:
    """A Cat and a Stage whose live scripts give every mutation operator a site.

    Cat: flag script (inits, forever-if with x position > 100, a sum with a variable), a key
    script with a comment, a receiver with repeat / and / key pressed? / lives < 1 / clone, a
    clone script ending in 'delete this clone', and one loose block (dead code). Stage: flag
    script with 'broadcast and wait', a wait and a 'broadcast' through a menu shadow.
    """
    cat = {
        "c-flag": B("event_whenflagclicked", nxt="c-init"),
        "c-init": B("data_setvariableto", "c-flag", "c-goto",
                    inputs={"VALUE": [1, [10, "0"]]}, fields={"VARIABLE": ["score", "v-score"]}),
        "c-goto": B("motion_gotoxy", "c-init", "c-show",
                    inputs={"X": [1, [4, "0"]], "Y": [1, [4, "0"]]}),
        "c-show": B("looks_show", "c-goto", "c-costume"),
        "c-costume": B("looks_switchcostumeto", "c-show", "c-forever",
                       inputs={"COSTUME": [1, "c-costume-menu"]}),
        "c-costume-menu": B("looks_costume", "c-costume", shadow=True,
                            fields={"COSTUME": ["cat", None]}),
        "c-forever": B("control_forever", "c-costume", inputs={"SUBSTACK": [2, "c-if"]}),
        "c-if": B("control_if", "c-forever", "c-next",
                  inputs={"CONDITION": [2, "c-gt"], "SUBSTACK": [2, "c-change"]}),
        "c-gt": B("operator_gt", "c-if",
                  inputs={"OPERAND1": [3, "c-xpos", [10, ""]], "OPERAND2": [1, [10, "100"]]}),
        "c-xpos": B("motion_xposition", "c-gt"),
        "c-change": B("data_changevariableby", "c-if", "c-setx",
                      inputs={"VALUE": [1, [4, "1"]]}, fields={"VARIABLE": ["score", "v-score"]}),
        "c-setx": B("motion_setx", "c-change", inputs={"X": [3, "c-add", [4, "0"]]}),
        "c-add": B("operator_add", "c-setx", inputs={
            "NUM1": [3, [12, "speed", "v-speed"], [4, ""]], "NUM2": [1, [4, "5"]]}),
        "c-next": B("looks_nextcostume", "c-if", "c-wait"),
        "c-wait": B("control_wait", "c-next", inputs={"DURATION": [1, [5, "0.1"]]}),
        "c-key": B("event_whenkeypressed", nxt="c-move", x=400,
                   fields={"KEY_OPTION": ["right arrow", None]}),
        "c-move": B("motion_changexby", "c-key", inputs={"DX": [1, [4, "10"]]}),
        "c-recv": B("event_whenbroadcastreceived", nxt="c-repeat", y=400,
                    fields={"BROADCAST_OPTION": ["start", "m-start"]}),
        "c-repeat": B("control_repeat", "c-recv",
                      inputs={"TIMES": [1, [6, "3"]], "SUBSTACK": [2, "c-if2"]}),
        "c-if2": B("control_if", "c-repeat",
                   inputs={"CONDITION": [2, "c-and"], "SUBSTACK": [2, "c-clone"]}),
        "c-and": B("operator_and", "c-if2",
                   inputs={"OPERAND1": [2, "c-keyp"], "OPERAND2": [2, "c-lt"]}),
        "c-keyp": B("sensing_keypressed", "c-and", inputs={"KEY_OPTION": [1, "c-keymenu"]}),
        "c-keymenu": B("sensing_keyoptions", "c-keyp", shadow=True,
                       fields={"KEY_OPTION": ["space", None]}),
        "c-lt": B("operator_lt", "c-and", inputs={
            "OPERAND1": [3, [12, "lives", "v-lives"], [10, ""]], "OPERAND2": [1, [10, "1"]]}),
        "c-clone": B("control_create_clone_of", "c-if2",
                     inputs={"CLONE_OPTION": [1, "c-clonemenu"]}),
        "c-clonemenu": B("control_create_clone_of_menu", "c-clone", shadow=True,
                         fields={"CLONE_OPTION": ["_myself_", None]}),
        "c-asclone": B("control_start_as_clone", nxt="c-dy", x=400, y=400),
        "c-dy": B("motion_changeyby", "c-asclone", "c-delete", inputs={"DY": [1, [4, "10"]]}),
        "c-delete": B("control_delete_this_clone", "c-dy"),
        "c-loose": B("motion_movesteps", x=800, inputs={"STEPS": [1, [4, "7"]]}),
    }  # fmt: skip
    stage = {
        "s-flag": B("event_whenflagclicked", nxt="s-baw"),
        "s-baw": B("event_broadcastandwait", "s-flag", "s-wait",
                   inputs={"BROADCAST_INPUT": [1, [11, "start", "m-start"]]}),
        "s-wait": B("control_wait", "s-baw", "s-bc", inputs={"DURATION": [1, [5, "1"]]}),
        "s-bc": B("event_broadcast", "s-wait", inputs={"BROADCAST_INPUT": [1, "s-bcmenu"]}),
        "s-bcmenu": B("event_broadcast_menu", "s-bc", shadow=True,
                      fields={"BROADCAST_OPTION": ["start", "m-start"]}),
    }  # fmt: skip
    comment = {"blockId": "c-move", "x": 0, "y": 0, "width": 200, "height": 100}
    comment |= {"minimized": False, "text": "moves right"}
    return make_project(
        target(
            "Stage",
            stage,
            variables={"v-score": ["score", 0], "v-lives": ["lives", 3]},
            broadcasts={"m-start": "start"},
        ),
        target("Cat", cat, variables={"v-speed": ["speed", 10]}, comments={"cm-1": comment}),
    )


def sb3_members(sb3: Path) -> dict[str, bytes]:
    """An .sb3's members by name: two builds of the same project compare equal this way, while
    their bytes differ when the zip's times (2-second steps) do."""
    with zipfile.ZipFile(sb3) as z:
        return {n: z.read(n) for n in z.namelist()}

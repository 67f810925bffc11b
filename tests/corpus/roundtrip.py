"""A project holding one block of every opcode projectbuild knows, and the comparison of our
block table with the one the VM's own sb3 serializer writes back after loading it."""

from __future__ import annotations

from typing import Any

from studio.services.core.projectbuild import SPEC, Block, Costume, ProjectBuilder, block

# Values for the arguments that have no default: fields, menus, variables, lists, messages.
_VALUES = {"var": "v", "list": "l", "msg": "m", "msg_in": "m", "field": "x"}
# Top-level reporters the VM writes as compact arrays ([12, name, id, x, y]), not as blocks.
COMPACT_TOP_LEVEL = {"data_variable": 12, "data_listcontents": 13}
COMPARED = ("opcode", "next", "parent", "inputs", "fields", "shadow", "topLevel", "mutation")


def complete_block(opcode: str) -> Block:
    """A block of `opcode` with every menu, field, variable, list and message argument set."""
    args = {}
    for name, kind in SPEC[opcode].items():
        if isinstance(kind, tuple):
            args[name] = "1"
        elif isinstance(kind, str) and kind in _VALUES:
            args[name] = _VALUES[kind]
    return block(opcode, **args)


def every_opcode_project() -> ProjectBuilder:
    """Sprite "Cat" with one script per known opcode (and a variable v, a list l, message m)."""
    p = ProjectBuilder()
    p.add_variable("v")
    p.add_list("l")
    p.add_broadcast("m")
    cat = p.add_sprite("Cat", [Costume.circle("cat", 5, "#000000")])
    for opcode in SPEC:
        cat.add_script(complete_block(opcode))
    return p


def round_trip_differences(ours: dict[str, Any], theirs: dict[str, Any]) -> list[str]:
    """Where the VM's re-serialized project differs from ours (block tables, lists,
    variables, extensions); empty when the VM writes back exactly what we wrote."""
    problems = []
    if ours["extensions"] != theirs.get("extensions"):
        problems.append(f"extensions: ours {ours['extensions']}, VM {theirs.get('extensions')}")
    for mine, vm in zip(ours["targets"], theirs["targets"], strict=True):
        for key in ("variables", "lists"):
            if mine[key] != vm[key]:
                problems.append(f"{mine['name']} {key}: ours {mine[key]}, VM {vm[key]}")
        for bid, blk in mine["blocks"].items():
            back = vm["blocks"].get(bid)
            if isinstance(back, list) and back[0] == COMPACT_TOP_LEVEL.get(blk["opcode"]):
                continue
            if not isinstance(back, dict):
                problems.append(f"{bid} ({blk['opcode']}) came back as {back!r}")
                continue
            problems += [
                f"{bid} ({blk['opcode']}) {key}: ours {blk.get(key)!r}, VM {back.get(key)!r}"
                for key in COMPARED
                if blk.get(key) != back.get(key)
            ]
        extra = sorted(set(vm["blocks"]) - set(mine["blocks"]))
        if extra:
            problems.append(f"{mine['name']}: the VM added blocks {extra[:5]}")
    return problems

"""Walking the block table of a Scratch 3 target (the `blocks` dict of project.json).

A block is `{opcode, next, parent, inputs, fields, shadow, topLevel, x?, y?, mutation?}`. An
input is `[kind, ref, shadow?]`: kind 1 means `ref` is the input's own shadow, kind 2 a block
without a shadow (substacks, boolean slots), kind 3 a block covering a shadow kept in the third
slot. A ref is a block id, None, or a compact primitive `[type, value, id?]` (4-10 literals,
11 a broadcast, 12 a variable reporter, 13 a list reporter). Fields are `[value, id?]`.
Top-level variable reporters may sit in the table as bare lists; helpers here skip them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = [
    "BROADCAST_PRIM", "HAT_OPCODES", "LIST_PRIM", "LOOP_OPCODES", "VAR_PRIM", "Block", "Blocks",
    "Project", "all_block_ids", "block_items", "chain", "child_refs", "compact_reporter",
    "delete_blocks", "find_target", "fresh_id", "input_block", "input_holding", "input_shadow",
    "is_covered", "is_hat", "is_statement", "live_ids", "relation", "remove_script",
    "remove_statement", "script_top", "scripts", "set_shadow_value", "shadow_value", "stage_of",
    "statements", "subtree", "target_name", "variables_in_scope",
]  # fmt: skip

Block = dict[str, Any]
Blocks = dict[str, Any]
Project = dict[str, Any]

BROADCAST_PRIM, VAR_PRIM, LIST_PRIM = 11, 12, 13
HAT_OPCODES = frozenset({"control_start_as_clone", "procedures_definition"})
LOOP_OPCODES = frozenset(
    {"control_forever", "control_repeat", "control_repeat_until", "control_while"}
)


def is_hat(opcode: str) -> bool:
    """True for hat blocks (scripts start with them); extension hats are named *_when*."""
    return opcode in HAT_OPCODES or "_when" in opcode


def target_name(target: dict[str, Any]) -> str:
    return "Stage" if target.get("isStage") else str(target.get("name", ""))


def find_target(project: Project, name: str) -> dict[str, Any]:
    """The sprite called `name`, or the stage for "Stage"."""
    for target in project["targets"]:
        if target_name(target) == name:
            return target
    raise KeyError(f"the project has no sprite named {name!r}")


def stage_of(project: Project) -> dict[str, Any]:
    return next(t for t in project["targets"] if t.get("isStage"))


def block_items(blocks: Blocks) -> Iterator[tuple[str, Block]]:
    """(id, block) for every real block (not the bare top-level primitive lists)."""
    for bid, blk in blocks.items():
        if isinstance(blk, dict):
            yield bid, blk


def input_block(inp: Any) -> str | None:
    """The block id in an input's main slot, if it is a block (for kind 1 it is the shadow)."""
    if isinstance(inp, list) and len(inp) > 1 and isinstance(inp[1], str):
        return inp[1]
    return None


def input_shadow(inp: Any) -> Any:
    """The shadow of an input: a block id, a compact primitive, or None."""
    if not isinstance(inp, list) or len(inp) < 2:
        return None
    if inp[0] == 1:
        return inp[1]
    if inp[0] == 3 and len(inp) > 2:
        return inp[2]
    return None


def is_covered(inp: Any) -> bool:
    """True when a non-shadow block (or compact reporter) sits over the input's shadow."""
    return isinstance(inp, list) and len(inp) > 1 and inp[0] in (2, 3) and inp[1] is not None


def child_refs(block: Block) -> list[str]:
    """Ids of the blocks referenced from the block's inputs (shadows included)."""
    refs: list[str] = []
    for inp in block.get("inputs", {}).values():
        if isinstance(inp, list):
            refs.extend(r for r in inp[1:3] if isinstance(r, str))
    return refs


def input_holding(block: Block, child: str) -> str | None:
    """The name of the input of `block` that references `child`."""
    for name, inp in block.get("inputs", {}).items():
        if isinstance(inp, list) and child in inp[1:3]:
            return name
    return None


def relation(blocks: Blocks, bid: str) -> tuple[str | None, str]:
    """(parent id, how the block hangs there): "next", an input name, or (None, "top")."""
    parent = blocks[bid].get("parent")
    if not parent or not isinstance(blocks.get(parent), dict):
        return None, "top"
    if blocks[parent].get("next") == bid:
        return parent, "next"
    return parent, input_holding(blocks[parent], bid) or "?"


def script_top(blocks: Blocks, bid: str) -> str:
    seen = {bid}
    while True:
        parent = blocks[bid].get("parent")
        if not parent or not isinstance(blocks.get(parent), dict) or parent in seen:
            return bid
        seen.add(parent)
        bid = parent


def chain(blocks: Blocks, first: str | None) -> list[str]:
    """The stack starting at `first`, following `next`."""
    out: list[str] = []
    while first and isinstance(blocks.get(first), dict) and first not in out:
        out.append(first)
        first = blocks[first].get("next")
    return out


def subtree(blocks: Blocks, bid: str, with_next: bool = False) -> list[str]:
    """`bid` and every block nested in its inputs (recursively), plus its stack if asked."""
    out: list[str] = []
    todo = [bid]
    while todo:
        cur = todo.pop()
        if cur in out or not isinstance(blocks.get(cur), dict):
            continue
        out.append(cur)
        todo.extend(child_refs(blocks[cur]))
        nxt = blocks[cur].get("next")
        if nxt and (with_next or cur != bid):
            todo.append(nxt)
    return out


def scripts(blocks: Blocks) -> list[str]:
    """Top-level blocks (script heads) in table order."""
    return [
        bid
        for bid, blk in block_items(blocks)
        if not blk.get("shadow") and relation(blocks, bid)[0] is None
    ]


def live_ids(blocks: Blocks) -> set[str]:
    """Blocks of scripts that start with a hat (the code that can run)."""
    live: set[str] = set()
    for top in scripts(blocks):
        if is_hat(blocks[top]["opcode"]):
            live.update(subtree(blocks, top, with_next=True))
    return live


def is_statement(blocks: Blocks, bid: str) -> bool:
    """A stack block that is not a hat: it sits in a stack or first in a substack."""
    blk = blocks[bid]
    if blk.get("shadow") or is_hat(blk["opcode"]):
        return False
    parent, rel = relation(blocks, bid)
    return parent is None or rel == "next" or rel.startswith("SUBSTACK")


def statements(blocks: Blocks, live_only: bool = True) -> list[str]:
    """Statement blocks (in table order), only those in hat scripts by default."""
    live = live_ids(blocks) if live_only else None
    return [
        bid
        for bid, _ in block_items(blocks)
        if (live is None or bid in live) and is_statement(blocks, bid)
    ]


def delete_blocks(target: dict[str, Any], ids: list[str]) -> None:
    """Drop blocks from the table and detach comments that pointed at them."""
    blocks = target["blocks"]
    for bid in ids:
        blocks.pop(bid, None)
    gone = set(ids)
    for comment in target.get("comments", {}).values():
        if isinstance(comment, dict) and comment.get("blockId") in gone:
            comment["blockId"] = None


def remove_statement(target: dict[str, Any], bid: str) -> None:
    """Delete one stack block and what is nested in it, closing the gap it leaves."""
    blocks = target["blocks"]
    blk = blocks[bid]
    parent, rel = relation(blocks, bid)
    nxt = blk.get("next")
    if nxt:
        blocks[nxt]["parent"] = parent
    if parent is None:
        if nxt:
            blocks[nxt].update(topLevel=True, x=blk.get("x", 0), y=blk.get("y", 0))
    elif rel == "next":
        blocks[parent]["next"] = nxt
    elif nxt:
        blocks[parent]["inputs"][rel] = [2, nxt]
    else:
        del blocks[parent]["inputs"][rel]
    delete_blocks(target, subtree(blocks, bid))


def remove_script(target: dict[str, Any], top: str) -> None:
    delete_blocks(target, subtree(target["blocks"], top, with_next=True))


def all_block_ids(project: Project) -> set[str]:
    return {bid for t in project["targets"] for bid in t.get("blocks", {})}


def fresh_id(project: Project, hint: str) -> str:
    """A block id unused in every target, derived from `hint` (so mutants are repeatable)."""
    taken = all_block_ids(project)
    n = 1
    while f"{hint}-{n}" in taken:
        n += 1
    return f"{hint}-{n}"


def shadow_value(blocks: Blocks, inp: Any) -> str | None:
    """The literal shown in an input's shadow (a number, text, or a menu choice)."""
    shadow = input_shadow(inp)
    if isinstance(shadow, list) and len(shadow) > 1:
        return str(shadow[1])
    if isinstance(shadow, str) and isinstance(blocks.get(shadow), dict):
        values = [str(f[0]) for f in blocks[shadow].get("fields", {}).values() if f]
        return ",".join(values)
    return None


def set_shadow_value(blocks: Blocks, inp: Any, value: str) -> None:
    shadow = input_shadow(inp)
    if isinstance(shadow, list):
        shadow[1] = value
    elif isinstance(shadow, str):
        fields = blocks[shadow]["fields"]
        first = next(iter(fields))
        fields[first] = [value, *fields[first][1:]]


def compact_reporter(inp: Any) -> list[Any] | None:
    """A compact variable or list reporter in the input's main slot, if any."""
    if not (isinstance(inp, list) and len(inp) > 1 and inp[0] in (2, 3)):
        return None
    ref = inp[1]
    return ref if isinstance(ref, list) and ref and ref[0] in (VAR_PRIM, LIST_PRIM) else None


def variables_in_scope(project: Project, target: dict[str, Any]) -> dict[str, str]:
    """Variable id -> name visible to `target` (its own, then the stage's)."""
    scope: dict[str, str] = {}
    for owner in (stage_of(project), target):
        for vid, var in owner.get("variables", {}).items():
            scope[vid] = str(var[0])
    return scope

"""Planning for the oracle agent: the next composite action that brings a target closer to gold.

The oracle compares the golden project with the program it observes. Blocks of the golden
target are paired with the blocks on the workspace once, when the oracle first sees that target
(structural matching, as in `studio.services.core.diff`); a block it adds later is paired
with the golden block it was added for. Each step then takes the first outstanding item of:

1. delete a workspace block the golden target does not have (unless a paired block is still
   nested in it: that one waits until its content has moved out);
2. add a golden block that has no partner yet;
3. set a field or an input's literal that differs from the golden one;
4. put a block where the golden target has it (detach, stack_after, statement_into,
   value_into), detaching first a block that would otherwise be connected into itself;
5. delete what is left over.

Every fix leaves relations that were already right untouched, so the loop converges.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from studio.models.agent import BlockInfo
from studio.services.core.blocks import (
    Blocks,
    block_items,
    compact_reporter,
    relation,
    scripts,
    shadow_value,
    subtree,
)
from studio.services.core.diff import Matcher, Side

__all__ = [
    "REPORTER_OPCODES", "Action", "TargetPlan", "expand_reporters", "golden_order", "golden_values",
    "live_blocks", "pair_blocks",
]  # fmt: skip

Action = dict[str, Any]
REPORTER_OPCODES = {12: ("data_variable", "VARIABLE"), 13: ("data_listcontents", "LIST")}


def expand_reporters(blocks: Blocks) -> Blocks:
    """A copy of a block table where compact variable/list reporters are real blocks."""
    out: Blocks = {bid: copy.deepcopy(blk) for bid, blk in block_items(blocks)}
    for bid, raw in blocks.items():
        if isinstance(raw, list) and len(raw) > 2 and raw[0] in REPORTER_OPCODES:
            out[bid] = _reporter_block(raw, None)
    for bid, blk in list(out.items()):
        for name, inp in (blk.get("inputs") or {}).items():
            compact = compact_reporter(inp)
            if compact is None:
                continue
            new_id = f"{bid}.{name}"
            out[new_id] = _reporter_block(compact, bid)
            blk["inputs"][name] = [3, new_id, inp[2] if len(inp) > 2 else None]
    return out


def _reporter_block(compact: list[Any], parent: str | None) -> dict[str, Any]:
    opcode, field_name = REPORTER_OPCODES[compact[0]]
    return {
        "opcode": opcode,
        "next": None,
        "parent": parent,
        "inputs": {},
        "fields": {field_name: [compact[1], compact[2] if len(compact) > 2 else None]},
        "shadow": False,
        "topLevel": parent is None,
    }


def live_blocks(infos: list[BlockInfo]) -> Blocks:
    """The observed blocks as a project.json-like block table (literals as compact shadows)."""
    by_index = {b.index: b for b in infos}
    out: Blocks = {}
    for b in infos:
        inputs = {n: [1, [10, str(v)]] for n, v in b.inputs.items() if v is not None}
        out[b.id] = {
            "opcode": b.opcode,
            "next": None,
            "parent": None,
            "inputs": inputs,
            "fields": {n: [v] for n, v in b.fields.items()},
            "shadow": False,
            "topLevel": b.parent is None,
        }
    for b in infos:
        if b.parent is None or b.parent not in by_index:
            continue
        parent = by_index[b.parent].id
        out[b.id]["parent"] = parent
        if b.slot == "next":
            out[parent]["next"] = b.id
        else:
            out[parent]["inputs"][b.slot] = [2, b.id]
    return out


def pair_blocks(live: Blocks, golden: Blocks) -> dict[str, str]:
    """golden id -> live id for blocks that can stay (same opcode, matched by structure)."""
    pairs = Matcher(Side({"blocks": live}), Side({"blocks": golden})).run()
    return {
        g: lv
        for lv, g in pairs.items()
        if live.get(lv, {}).get("opcode") == golden.get(g, {}).get("opcode")
    }


def golden_order(golden: Blocks) -> list[str]:
    """Golden blocks in reading order: scripts top-down, each depth-first."""
    order: list[str] = []
    for top in scripts(golden):
        for bid in subtree(golden, top, with_next=True):
            if bid not in order and not golden[bid].get("shadow"):
                order.append(bid)
    return sorted(order, key=lambda b: _depth_key(golden, b))


def _depth_key(golden: Blocks, bid: str) -> tuple[int, ...]:
    """Sort key: the path of the block from its script's head (next counts as a sibling)."""
    path: list[int] = []
    cur = bid
    while True:
        parent, _slot = relation(golden, cur)
        if parent is None:
            tops = scripts(golden)
            path.append(tops.index(cur) if cur in tops else len(tops))
            break
        kids = _children(golden, parent)
        path.append(kids.index(cur) + 1 if cur in kids else 0)
        cur = parent
    return tuple(reversed(path))


def _children(blocks: Blocks, bid: str) -> list[str]:
    blk = blocks[bid]
    kids = [
        inp[1]
        for inp in (blk.get("inputs") or {}).values()
        if isinstance(inp, list) and len(inp) > 1 and isinstance(inp[1], str)
    ]
    kids = [k for k in kids if isinstance(blocks.get(k), dict) and not blocks[k].get("shadow")]
    if blk.get("next"):
        kids.append(blk["next"])
    return kids


def _same_value(a: Any, b: Any) -> bool:
    if str(a) == str(b):
        return True
    try:
        return float(str(a)) == float(str(b))
    except ValueError:
        return False


def golden_values(golden: Blocks, bid: str) -> dict[str, str]:
    """Fields and literal inputs (not covered by a block) of a golden block, by name."""
    blk = golden[bid]
    values = {n: str(f[0]) for n, f in (blk.get("fields") or {}).items() if f}
    for name, inp in (blk.get("inputs") or {}).items():
        covered = isinstance(inp, list) and inp[0] in (2, 3) and inp[1] is not None
        literal = shadow_value(golden, inp)
        if not covered and literal is not None and not name.startswith("SUBSTACK"):
            values[name] = literal
    return values


@dataclass
class TargetPlan:
    """The oracle's work on one target: golden blocks, pairing, blocks being added."""

    name: str
    golden: Blocks
    pairs: dict[str, str] = field(default_factory=dict)  # golden id -> live id
    paired: bool = False
    pending: str | None = None  # golden id of the block just added
    known: set[str] = field(default_factory=set)  # live ids seen in the last observation

    def next_action(self, infos: list[BlockInfo]) -> Action | None:
        """The next action for this target, or None when it matches the golden target."""
        live = live_blocks(infos)
        index = {b.id: b.index for b in infos}
        self._track(live)
        self.pairs = {g: lv for g, lv in self.pairs.items() if lv in live}
        for step in (self._delete_free, self._add, self._fields, self._place, self._delete_rest):
            action = step(live, index)
            if action is not None:
                return action
        return None

    def _track(self, live: Blocks) -> None:
        if not self.paired:
            self.pairs = pair_blocks(live, self.golden)
            self.paired = True
        elif self.pending is not None:
            new = [bid for bid in live if bid not in self.known]
            if len(new) == 1:
                self.pairs[self.pending] = new[0]
        self.pending = None
        self.known = set(live)

    def _unpaired_live(self, live: Blocks) -> list[str]:
        kept = set(self.pairs.values())
        return [bid for bid in live if bid not in kept]

    def _delete_free(self, live: Blocks, index: dict[str, int]) -> Action | None:
        kept = set(self.pairs.values())
        for bid in self._unpaired_live(live):
            nested = subtree(live, bid)
            if not kept.intersection(nested):
                return _delete(index[bid])
        return None

    def _add(self, live: Blocks, index: dict[str, int]) -> Action | None:
        for gid in golden_order(self.golden):
            if gid in self.pairs:
                continue
            blk = self.golden[gid]
            args: dict[str, Any] = {"blockType": blk["opcode"]}
            if blk["opcode"] == "data_variable":
                args["creation"] = {"variableName": str(blk["fields"]["VARIABLE"][0])}
            elif blk["opcode"] == "data_listcontents":
                args["creation"] = {"listName": str(blk["fields"]["LIST"][0])}
            self.pending = gid
            return {"api": "add_block", "args": args}
        return None

    def _fields(self, live: Blocks, index: dict[str, int]) -> Action | None:
        for gid in golden_order(self.golden):
            lid = self.pairs.get(gid)
            if lid is None:
                continue
            have = {n: str(f[0]) for n, f in live[lid]["fields"].items() if f}
            for name, inp in live[lid]["inputs"].items():
                if isinstance(inp, list) and inp[0] == 1:
                    have[name] = str(inp[1][1])
            for name, value in golden_values(self.golden, gid).items():
                if name in have and not _same_value(have[name], value):
                    args = {"blockIndex": index[lid], "fieldName": name, "value": value}
                    return {"api": "set_block_field", "args": args}
        return None

    def _place(self, live: Blocks, index: dict[str, int]) -> Action | None:
        for gid in golden_order(self.golden):
            lid = self.pairs[gid]
            g_parent, slot = relation(self.golden, gid)
            l_parent, l_slot = relation(live, lid)
            want_parent = self.pairs.get(g_parent) if g_parent else None
            if want_parent == l_parent and slot == l_slot:
                continue
            if g_parent is None:
                return {"api": "detach_blocks", "args": {"blockIndex": index[lid]}}
            assert want_parent is not None
            if lid in _ancestors(live, want_parent):
                return {"api": "detach_blocks", "args": {"blockIndex": index[want_parent]}}
            return _connect(index[lid], index[want_parent], slot)
        return None

    def _delete_rest(self, live: Blocks, index: dict[str, int]) -> Action | None:
        rest = self._unpaired_live(live)
        return _delete(index[rest[0]]) if rest else None


def _ancestors(blocks: Blocks, bid: str) -> list[str]:
    out: list[str] = []
    cur: str | None = bid
    while cur is not None and cur not in out:
        out.append(cur)
        cur = blocks[cur].get("parent")
    return out


def _delete(index: int) -> Action:
    return {"api": "delete_block", "args": {"blockIndex": index}}


def _connect(source: int, target: int, slot: str) -> Action:
    placement: dict[str, Any]
    if slot == "next":
        placement = {"kind": "stack_after"}
    elif slot.startswith("SUBSTACK"):
        placement = {"kind": "statement_into", "inputName": slot}
    else:
        placement = {"kind": "value_into", "inputName": slot}
    args = {"sourceBlockIndex": source, "targetBlockIndex": target, "placement": placement}
    return {"api": "connect_blocks", "args": args}

"""A pure-Python stand-in for the editor in composite mode, to test planning without a browser.

It holds a project's targets as block tables, produces the same snapshot composite.js reads
from Blockly (so observations go through the real renderer), and applies the composite APIs
with Blockly's rules as far as planning depends on them: a moved block takes the blocks below
it; what it displaces from a stack or C-slot goes to the end of the moved stack; a reporter
displaced from an input drops onto the canvas; a deleted block's followers close up.
"""

from __future__ import annotations

import itertools
from typing import Any

from studio.models.agent import Mode, Observation
from studio.services.core.blocks import (
    block_items,
    input_block,
    input_shadow,
    scripts,
    shadow_value,
    target_name,
)
from studio.services.episodes.agents.oracle_plan import expand_reporters
from studio.services.episodes.composite_view import render_observation

SHADOW_OPCODES = {4: "math_number", 5: "math_positive_number", 6: "math_whole_number"}
SHADOW_OPCODES |= {7: "math_integer", 8: "math_angle", 10: "text", 11: "event_broadcast_menu"}
CAPS = {"control_forever", "control_delete_this_clone", "control_stop"}
Block = dict[str, Any]


def _shadow(blocks: dict[str, Any], inp: Any) -> dict[str, Any] | None:
    ref = input_shadow(inp)
    if isinstance(ref, list) and ref:
        return {"opcode": SHADOW_OPCODES.get(ref[0], "text"), "value": str(ref[1])}
    if isinstance(ref, str) and isinstance(blocks.get(ref), dict):
        return {"opcode": blocks[ref]["opcode"], "value": shadow_value(blocks, inp) or ""}
    return None


def import_target(raw_blocks: dict[str, Any]) -> tuple[dict[str, Block], list[str]]:
    """A project.json block table as simulator blocks and its script order."""
    blocks = expand_reporters(raw_blocks)
    out: dict[str, Block] = {}
    for bid, blk in block_items(blocks):
        if blk.get("shadow"):
            continue
        inputs = {}
        for name, inp in (blk.get("inputs") or {}).items():
            child = input_block(inp) if inp and inp[0] in (2, 3) else None
            if child is not None and not isinstance(blocks.get(child), dict):
                child = None
            kind = "statement" if name.startswith("SUBSTACK") else "value"
            inputs[name] = {"kind": kind, "block": child, "shadow": _shadow(blocks, inp)}
        fields = {n: str(f[0]) for n, f in (blk.get("fields") or {}).items() if f}
        out[bid] = {
            "opcode": blk["opcode"],
            "next": blk.get("next"),
            "parent": blk.get("parent"),
            "inputs": inputs,
            "fields": fields,
        }
    return out, [t for t in scripts(blocks) if t in out]


def templates(projects: list[dict[str, Any]]) -> dict[str, Block]:
    """Per opcode, an empty block as the palette would give it (from blocks seen in projects)."""
    out: dict[str, Block] = {}
    for project in projects:
        for target in project["targets"]:
            blocks, _ = import_target(target.get("blocks") or {})
            for blk in blocks.values():
                tpl = out.setdefault(blk["opcode"], {"inputs": {}, "fields": {}})
                for name, inp in blk["inputs"].items():
                    shadow = inp["shadow"] and {"opcode": inp["shadow"]["opcode"], "value": "1"}
                    tpl["inputs"].setdefault(name, {"kind": inp["kind"], "shadow": shadow})
                for name in blk["fields"]:
                    tpl["fields"].setdefault(name, "?")
    return out


class EditorSim:
    """Targets of one project, an editing target, and the composite APIs."""

    def __init__(self, project: dict[str, Any], tpl: dict[str, Block]) -> None:
        self.targets: dict[str, tuple[dict[str, Block], list[str]]] = {}
        for target in project["targets"]:
            self.targets[target_name(target)] = import_target(target.get("blocks") or {})
        self.order = list(self.targets)
        self.current = next((n for n in self.order if n != "Stage"), "Stage")
        self.tpl = tpl
        self.version = 0
        self.ids = itertools.count(1)
        self.data: set[tuple[str, str]] = set()

    @property
    def blocks(self) -> dict[str, Block]:
        return self.targets[self.current][0]

    @property
    def tops(self) -> list[str]:
        return self.targets[self.current][1]

    # ---- observing -----------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        blocks = {}
        for bid, blk in self.blocks.items():
            inputs = []
            for name, inp in blk["inputs"].items():
                shadow = inp["shadow"]
                fields = [{"name": "V", "kind": "text", "value": shadow["value"]}] if shadow else []
                inputs.append(
                    {
                        "name": name,
                        "kind": inp["kind"],
                        "block": inp["block"],
                        "shadow": {"opcode": shadow["opcode"], "fields": fields}
                        if shadow
                        else None,
                    }
                )
            fields = [{"name": n, "kind": "text", "value": v} for n, v in blk["fields"].items()]
            blocks[bid] = {"opcode": blk["opcode"], "next": blk["next"], "inputs": inputs}
            blocks[bid]["fields"] = fields
        return {
            "version": self.version,
            "target": self.current,
            "targets": self.order,
            "variables": [],
            "lists": [],
            "tops": list(self.tops),
            "blocks": blocks,
        }

    def observe(self, step: int = 0) -> Observation:
        text, infos = render_observation(self.snapshot())
        return Observation(
            mode=Mode.COMPOSITE,
            step=step,
            text=text,
            version=self.version,
            editing_target=self.current,
            blocks=infos,
        )

    # ---- structure helpers ---------------------------------------------------------------
    def unplug(self, bid: str) -> None:
        """Take `bid` (and the blocks below it) out of where it hangs."""
        blk = self.blocks[bid]
        parent = blk["parent"]
        if parent is None:
            if bid in self.tops:
                self.tops.remove(bid)
            return
        pblk = self.blocks[parent]
        if pblk["next"] == bid:
            pblk["next"] = None
        for inp in pblk["inputs"].values():
            if inp["block"] == bid:
                inp["block"] = None
        blk["parent"] = None

    def last(self, bid: str) -> str:
        while self.blocks[bid]["next"]:
            bid = self.blocks[bid]["next"]
        return bid

    def hang_below(self, bid: str, orphan: str | None) -> None:
        """Put a displaced stack at the end of `bid`'s stack (or on the canvas)."""
        if orphan is None:
            return
        end = self.last(bid)
        if self.blocks[end]["opcode"] in CAPS:
            self.blocks[orphan]["parent"] = None
            self.tops.append(orphan)
            return
        self.blocks[end]["next"] = orphan
        self.blocks[orphan]["parent"] = end

    def nested(self, bid: str) -> list[str]:
        out, todo = [], [bid]
        while todo:
            cur = todo.pop()
            out.append(cur)
            blk = self.blocks[cur]
            todo += [i["block"] for i in blk["inputs"].values() if i["block"]]
            if cur != bid and blk["next"]:
                todo.append(blk["next"])
        return out

    # ---- the APIs ------------------------------------------------------------------------
    def apply(self, action: dict[str, Any], obs: Observation) -> None:
        api, args = action["api"], action.get("args") or {}
        ids = {b.index: b.id for b in obs.blocks}
        getattr(self, f"_{api}")(args, ids)
        if api not in ("done", "failed"):
            self.version += 1

    def _done(self, args: dict[str, Any], ids: dict[int, str]) -> None:
        pass

    _failed = _done

    def _select_sprite(self, args: dict[str, Any], ids: dict[int, str]) -> None:
        assert args["name"] in self.targets
        self.current = args["name"]

    def _select_stage(self, args: dict[str, Any], ids: dict[int, str]) -> None:
        self.current = "Stage"

    def _add_variable(self, args: dict[str, Any], ids: dict[int, str]) -> None:
        self.data.add(("variable", args["name"]))

    def _add_list(self, args: dict[str, Any], ids: dict[int, str]) -> None:
        self.data.add(("list", args["name"]))

    def _add_block(self, args: dict[str, Any], ids: dict[int, str]) -> None:
        opcode = args["blockType"]
        tpl = self.tpl[opcode]
        bid = f"new{next(self.ids)}"
        fields = dict(tpl["fields"])
        creation = args.get("creation") or {}
        if opcode == "data_variable":
            fields["VARIABLE"] = creation["variableName"]
        if opcode == "data_listcontents":
            fields["LIST"] = creation["listName"]
        inputs = {
            n: {"kind": i["kind"], "block": None, "shadow": i["shadow"] and dict(i["shadow"])}
            for n, i in tpl["inputs"].items()
        }
        self.blocks[bid] = {
            "opcode": opcode,
            "next": None,
            "parent": None,
            "inputs": inputs,
            "fields": fields,
        }
        self.tops.append(bid)

    def _set_block_field(self, args: dict[str, Any], ids: dict[int, str]) -> None:
        blk = self.blocks[ids[args["blockIndex"]]]
        name, value = args["fieldName"], str(args["value"])
        if name in blk["fields"]:
            blk["fields"][name] = value
        else:
            inp = blk["inputs"][name]
            assert inp["block"] is None and inp["shadow"], f"input {name} has no literal"
            inp["shadow"]["value"] = value

    def _connect_blocks(self, args: dict[str, Any], ids: dict[int, str]) -> None:
        src, tgt = ids[args["sourceBlockIndex"]], ids[args["targetBlockIndex"]]
        kind, name = args["placement"]["kind"], args["placement"].get("inputName")
        assert src != tgt and src not in self._ancestors(tgt), "connected into itself"
        self.unplug(src)
        self.blocks[src]["parent"] = tgt
        if kind == "stack_after":
            orphan = self.blocks[tgt]["next"]
            self.blocks[tgt]["next"] = src
            self.hang_below(src, orphan)
        elif kind == "statement_into":
            inp = self.blocks[tgt]["inputs"][name]
            orphan, inp["block"] = inp["block"], src
            self.hang_below(src, orphan)
        elif kind == "value_into":
            inp = self.blocks[tgt]["inputs"][name]
            orphan, inp["block"] = inp["block"], src
            if orphan:
                self.blocks[orphan]["parent"] = None
                self.tops.append(orphan)
        else:
            raise AssertionError(f"the oracle does not use {kind}")

    def _ancestors(self, bid: str) -> list[str]:
        out = []
        cur: str | None = bid
        while cur:
            out.append(cur)
            cur = self.blocks[cur]["parent"]
        return out

    def _detach_blocks(self, args: dict[str, Any], ids: dict[int, str]) -> None:
        bid = ids[args["blockIndex"]]
        assert self.blocks[bid]["parent"], "already on top"
        self.unplug(bid)
        self.tops.append(bid)

    def _delete_block(self, args: dict[str, Any], ids: dict[int, str]) -> None:
        bid = ids[args["blockIndex"]]
        blk = self.blocks[bid]
        after, parent = blk["next"], blk["parent"]
        if parent is None:
            position = self.tops.index(bid)
            self.tops.remove(bid)
            if after:
                self.tops.insert(position, after)
        else:
            pblk = self.blocks[parent]
            if pblk["next"] == bid:
                pblk["next"] = after
            for inp in pblk["inputs"].values():
                if inp["block"] == bid:
                    inp["block"] = after if inp["kind"] == "statement" else None
        if after:
            self.blocks[after]["parent"] = parent
        for gone in self.nested(bid):
            del self.blocks[gone]

    # ---- comparing -----------------------------------------------------------------------
    def scripts_text(self, name: str) -> list[str]:
        """Each script of a target as pseudocode without indexes, sorted."""
        current = self.current
        self.current = name
        try:
            text = self.observe().text or ""
        finally:
            self.current = current
        body = text.split("## Blocks Pseudocode\n", 1)[1]
        cleaned = "\n".join(_strip_index(line) for line in body.splitlines())
        return sorted(s.strip() for s in cleaned.split("\n\n") if s.strip() != "None")


def _strip_index(line: str) -> str:
    head, _, rest = line.lstrip().partition(" ")
    pad = line[: len(line) - len(line.lstrip())]
    return pad + rest if head.startswith("#") else line

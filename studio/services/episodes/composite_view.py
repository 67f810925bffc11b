"""The composite observation as text: context sections and indexed block pseudocode.

Input is the snapshot that resources/js/composite.js reads from the editor's workspace:

    {version, target, isStage, targets: [...], variables: [{name, scope}], lists: [...],
     tops: [block id, ...],
     blocks: {id: {opcode, next, fields: [field], inputs: [input]}}}

    field = {name, kind: variable|dropdown|text, value, choices?}
    input = {name, kind: value|statement, block: id|None, shadow: {opcode, fields}|None, boolean}

Blocks are numbered depth-first in reading order: a block, then what is nested in its inputs
(in the block's input order), then the next block of its stack. One block reads:

    #9 control_if
    - input CONDITION:
      #10 operator_equals
      - input OPERAND1:
        #11 data_variable
        - field VARIABLE: "lives" {choices: ["lives"]}
      - input OPERAND2: "0" (text)
    - SUBSTACK:
      #12 looks_hide

Field values and text literals are JSON strings, number literals bare; a dropdown lists its
choices (the values `set_block_field` accepts); an empty input or C-slot reads `empty`.
Scripts are separated by a blank line and their head is marked `[top]`.
"""

from __future__ import annotations

import json
from typing import Any

from studio.models.agent import BlockInfo
from studio.services.runtime.page_lists import NUMBER_SHADOWS

__all__ = ["field_line", "render_blocks", "render_observation", "shadow_value"]


def _value_text(value: Any, number: bool = False) -> str:
    if number:
        text = str(value)
        try:
            float(text)
        except ValueError:
            return json.dumps(text, ensure_ascii=False)
        return text
    return json.dumps(value if isinstance(value, str) else str(value), ensure_ascii=False)


def _choices(field: dict[str, Any]) -> str:
    choices = field.get("choices")
    if choices is None:
        return ""
    return " {choices: " + json.dumps([str(c) for c in choices], ensure_ascii=False) + "}"


def field_line(field: dict[str, Any]) -> str:
    return f"- field {field['name']}: {_value_text(field.get('value', ''))}{_choices(field)}"


def shadow_value(shadow: dict[str, Any]) -> Any:
    """The literal an input shows: its shadow block's (first) field value."""
    fields = shadow.get("fields") or []
    return fields[0].get("value", "") if fields else ""


def _shadow_text(shadow: dict[str, Any]) -> str:
    fields = shadow.get("fields") or []
    opcode = shadow.get("opcode", "?")
    if not fields:
        return f"({opcode})"
    value = _value_text(fields[0].get("value", ""), number=opcode in NUMBER_SHADOWS)
    return f"{value} ({opcode}){_choices(fields[0])}"


class _Renderer:
    """Numbers the blocks and writes the lines."""

    def __init__(self, blocks: dict[str, Any]) -> None:
        self.blocks = blocks
        self.lines: list[str] = []
        self.infos: list[BlockInfo] = []
        self.seen: set[str] = set()

    def stack(self, first: str | None, depth: int, parent: int | None, slot: str) -> None:
        bid, top = first, slot == "top"
        while bid and bid in self.blocks and bid not in self.seen:
            index = self.block(bid, depth, parent, slot, top)
            parent, slot, top = index, "next", False
            bid = self.blocks[bid].get("next")

    def block(self, bid: str, depth: int, parent: int | None, slot: str, top: bool) -> int:
        self.seen.add(bid)
        blk = self.blocks[bid]
        pad = "  " * depth
        index = len(self.infos) + 1
        info = BlockInfo(index=index, id=bid, opcode=blk["opcode"], parent=parent, slot=slot)
        self.infos.append(info)
        self.lines.append(f"{pad}#{index} {'[top] ' if top else ''}{blk['opcode']}")
        for field in blk.get("fields") or []:
            self.lines.append(pad + field_line(field))
            info.fields[field["name"]] = field.get("value")
        for inp in blk.get("inputs") or []:
            self.input(inp, depth, index, info)
        return index

    def input(self, inp: dict[str, Any], depth: int, index: int, info: BlockInfo) -> None:
        pad = "  " * depth
        name = inp["name"]
        head = f"- {name}:" if inp.get("kind") == "statement" else f"- input {name}:"
        child = inp.get("block")
        if child and child in self.blocks and child not in self.seen:
            self.lines.append(pad + head)
            info.inputs[name] = None
            if inp.get("kind") == "statement":
                self.stack(child, depth + 1, index, name)
            else:
                self.block(child, depth + 1, index, name, False)
        elif inp.get("shadow"):
            self.lines.append(f"{pad}{head} {_shadow_text(inp['shadow'])}")
            info.inputs[name] = shadow_value(inp["shadow"])
        else:
            self.lines.append(f"{pad}{head} empty")
            info.inputs[name] = None


def render_blocks(snapshot: dict[str, Any]) -> tuple[list[str], list[BlockInfo]]:
    """The pseudocode lines and the structured blocks, numbered from 1."""
    renderer = _Renderer(snapshot.get("blocks") or {})
    for top in snapshot.get("tops") or []:
        if top in renderer.seen or top not in renderer.blocks:
            continue
        if renderer.lines:
            renderer.lines.append("")
        renderer.stack(top, 0, None, "top")
    return renderer.lines, renderer.infos


def _data_lines(items: list[dict[str, Any]]) -> list[str]:
    if not items:
        return ["None"]
    return [f"name: {item['name']}, scope: {item['scope']}" for item in items]


def render_observation(snapshot: dict[str, Any]) -> tuple[str, list[BlockInfo]]:
    """The whole observation text (Figure 5 of the ScratchWorld paper) and its blocks."""
    lines, infos = render_blocks(snapshot)
    parts = [
        "## Current Editing Target",
        str(snapshot.get("target") or "None"),
        "",
        "## Target Variables In Scope",
        *_data_lines(snapshot.get("variables") or []),
        "",
        "## Target Lists In Scope",
        *_data_lines(snapshot.get("lists") or []),
        "",
        "## All Available Targets",
        ", ".join(snapshot.get("targets") or []) or "None",
        "",
        "## Blocks Pseudocode",
        *(lines or ["None"]),
    ]
    return "\n".join(parts) + "\n", infos

"""Readable block pseudocode: one line per block, substacks indented inside braces.

    when flag clicked
    go to x: (0) y: (0)
    repeat (10) {
      move (10) steps
    }

Number literals and reporters show in (round brackets), text literals in [square brackets],
conditions in <angle brackets>; menu and field choices show bare.
"""

from __future__ import annotations

import json
import re
from typing import Any

from studio.services.core.blocks import (
    Blocks,
    chain,
    compact_reporter,
    input_block,
    input_shadow,
    scripts,
)
from studio.services.core.blocktext.dialect import TEMPLATES as TEXT_TEMPLATES

__all__ = [
    "BOOLEAN_INPUTS", "BOOLEAN_OPCODES", "C_BLOCKS", "MENU_WORDS", "TEMPLATES", "block_label",
    "render_project", "render_script", "render_target",
]  # fmt: skip

# One table of block templates: the block text dialect's (`blocktext.dialect.TEMPLATES`, the
# scratchblocks text of each opcode). Pseudocode differs in a few words: the flag hat reads
# `when flag clicked`, a variable, list or custom-block argument reporter stands for its name,
# and the extensions' blocks (pen, music) show their opcode, as a block the pseudocode does not
# name.
_PSEUDOCODE_WORDS = {
    "event_whenflagclicked": "when flag clicked",
    "data_variable": "{VARIABLE}",
    "data_listcontents": "{LIST}",
    "argument_reporter_string_number": "{VALUE}",
    "argument_reporter_boolean": "{VALUE}",
}
_EXTENSIONS = ("pen_", "music_")
TEMPLATES: dict[str, str] = {
    op: text for op, text in TEXT_TEMPLATES.items() if not op.startswith(_EXTENSIONS)
} | _PSEUDOCODE_WORDS
BOOLEAN_OPCODES = frozenset(
    {
        "operator_gt",
        "operator_lt",
        "operator_equals",
        "operator_and",
        "operator_or",
        "operator_not",
        "operator_contains",
        "sensing_touchingobject",
        "sensing_touchingcolor",
        "sensing_coloristouchingcolor",
        "sensing_keypressed",
        "sensing_mousedown",
        "data_listcontainsitem",
        "argument_reporter_boolean",
    }
)
C_BLOCKS = frozenset(
    {"control_repeat", "control_forever", "control_if", "control_if_else", "control_repeat_until"}
)
BOOLEAN_INPUTS = frozenset({"CONDITION", "OPERAND"})
MENU_WORDS = {
    "_myself_": "myself",
    "_mouse_": "mouse-pointer",
    "_edge_": "edge",
    "_random_": "random position",
    "_stage_": "Stage",
}
_PLACEHOLDER = re.compile(r"\{([A-Z0-9_]+)\}")


def _word(value: Any) -> str:
    return MENU_WORDS.get(str(value), str(value))


def _literal(blocks: Blocks, shadow: Any) -> str:
    if isinstance(shadow, list) and len(shadow) > 1:
        if shadow[0] == 11:
            return str(shadow[1])
        return f"[{shadow[1]}]" if shadow[0] == 10 else f"({shadow[1]})"
    if isinstance(shadow, str) and isinstance(blocks.get(shadow), dict):
        blk = blocks[shadow]
        value = ",".join(_word(f[0]) for f in blk.get("fields", {}).values() if f)
        if blk["opcode"] == "text":
            return f"[{value}]"
        return f"({value})" if blk["opcode"].startswith("math_") else value
    return "()"


def _input_text(blocks: Blocks, blk: dict[str, Any], name: str) -> str:
    inp = blk.get("inputs", {}).get(name)
    boolean = name in BOOLEAN_INPUTS or (
        blk["opcode"] in ("operator_and", "operator_or") and name.startswith("OPERAND")
    )
    compact = compact_reporter(inp)
    if compact is not None:
        return f"({compact[1]})"
    ref = input_block(inp) if inp and inp[0] in (2, 3) else None
    if ref and isinstance(blocks.get(ref), dict):
        inner = block_label(blocks, ref)
        return f"<{inner}>" if blocks[ref]["opcode"] in BOOLEAN_OPCODES else f"({inner})"
    if boolean:
        return "<>"
    return _literal(blocks, input_shadow(inp))


def _procedure_label(blocks: Blocks, blk: dict[str, Any]) -> str:
    mutation = blk.get("mutation") or {}
    if blk["opcode"] == "procedures_definition":
        proto = input_block(blk.get("inputs", {}).get("custom_block"))
        mutation = ((blocks.get(proto) if proto else None) or {}).get("mutation") or {}
        names = iter(_json_list(mutation.get("argumentnames")))
        code = str(mutation.get("proccode", "?"))
        return "define " + re.sub(
            r"%[snb]",
            lambda m: f"<{next(names, '')}>" if m.group() == "%b" else f"({next(names, '')})",
            code,
        )
    args = iter(_input_text(blocks, blk, a) for a in _json_list(mutation.get("argumentids")))
    return re.sub(r"%[snb]", lambda _m: next(args, "()"), str(mutation.get("proccode", "?")))


def _json_list(text: Any) -> list[str]:
    try:
        value = json.loads(text or "[]")
    except (TypeError, json.JSONDecodeError):
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


def block_label(blocks: Blocks, bid: str) -> str:
    """One block as a line of text, reporters in its inputs included, substacks left out."""
    blk = blocks[bid]
    opcode = blk["opcode"]
    if opcode.startswith("procedures_"):
        return _procedure_label(blocks, blk)
    fields = {name: _word(f[0]) for name, f in blk.get("fields", {}).items() if f}
    template = TEMPLATES.get(opcode)
    if template is None:
        names = [n for n in blk.get("inputs", {}) if not n.startswith("SUBSTACK")]
        template = " ".join([opcode, *(f"{{{n}}}" for n in [*names, *fields])])

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in fields:
            return fields[name]
        return _input_text(blocks, blk, name)

    return _PLACEHOLDER.sub(fill, template)


def _render_stack(blocks: Blocks, first: str | None, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    for bid in chain(blocks, first):
        blk = blocks[bid]
        line = pad + block_label(blocks, bid)
        if blk["opcode"] not in C_BLOCKS and "SUBSTACK" not in blk.get("inputs", {}):
            out.append(line)
            continue
        out.append(line + " {")
        _render_stack(blocks, input_block(blk.get("inputs", {}).get("SUBSTACK")), depth + 1, out)
        if blk["opcode"] == "control_if_else":
            out.append(pad + "} else {")
            sub2 = input_block(blk.get("inputs", {}).get("SUBSTACK2"))
            _render_stack(blocks, sub2, depth + 1, out)
        out.append(pad + "}")


def render_script(blocks: Blocks, top: str) -> str:
    """The script starting at `top` as pseudocode lines joined by newlines."""
    out: list[str] = []
    _render_stack(blocks, top, 0, out)
    return "\n".join(out)


def render_target(target: dict[str, Any]) -> str:
    """Every script of a sprite or the stage, separated by blank lines."""
    blocks = target.get("blocks", {})
    return "\n\n".join(render_script(blocks, top) for top in scripts(blocks))


def render_project(project: dict[str, Any]) -> dict[str, str]:
    """Pseudocode per target name ("Stage" for the stage)."""
    out = {}
    for target in project["targets"]:
        name = "Stage" if target.get("isStage") else str(target.get("name"))
        out[name] = render_target(target)
    return out

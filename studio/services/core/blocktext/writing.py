"""Rendering scripts as canonical block text (NL2Scratch's dialect of scratchblocks).

One block a line, 4 spaces of indent per level, `end` closing every C-block, `else` alone
between an if's two arms, menus and fields marked ` v` (menus round `(edge v)`, fields square
`[score v]`), numbers in `( )`, text in `[ ]`, booleans in `< >`. Variables show as
`(name)`, lists as `(name :: list)`, custom-block arguments as `(name)` / `<name>`.
Characters the parser would read as brackets are escaped with a backslash. Reading the text
back (blocktext.reading) gives the same blocks: that is what the round-trip measure checks.
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
from studio.services.core.blocktext.dialect import (
    KINDS,
    MENU_OUT,
    PLACEHOLDER,
    TEMPLATES,
    field_out,
)
from studio.services.core.projectbuild.spec import BOOL, COLOR, FIELD, LIST, MSG, STACK, TEXT, VAR

__all__ = [
    "BOOLEAN_OPCODES", "REPORTER_OPCODES", "escape", "render_script",
    "render_target", "top_ids",
]  # fmt: skip

BOOLEAN_OPCODES = frozenset(
    {
        "operator_gt", "operator_lt", "operator_equals", "operator_and", "operator_or",
        "operator_not", "operator_contains", "sensing_touchingobject", "sensing_touchingcolor",
        "sensing_coloristouchingcolor", "sensing_keypressed", "sensing_mousedown",
        "data_listcontainsitem", "argument_reporter_boolean",
    }
)  # fmt: skip
_ESCAPE = re.compile(r"([\\\[\]()<>])")
_NUMBER = re.compile(r"-?\d+(\.\d+)?(e-?\d+)?")


def escape(value: str) -> str:
    """A value as it goes between brackets: brackets and backslashes escaped, one line."""
    return _ESCAPE.sub(r"\\\1", value.replace("\n", " "))


class _Renderer:
    def __init__(self, blocks: Blocks) -> None:
        self.blocks = blocks

    def literal(self, shadow: Any, kind: Any) -> str:
        if isinstance(shadow, list) and len(shadow) > 1:
            value = str(shadow[1])
            if shadow[0] == 11:
                return f"({escape(value)} v)"
            if (shadow[0] == TEXT or kind == TEXT) and not _NUMBER.fullmatch(value):
                return f"[{escape(value)}]"
            if shadow[0] == COLOR:
                return f"[{escape(value)}]"
            return f"({escape(value)})"
        if isinstance(shadow, str) and isinstance(self.blocks.get(shadow), dict):
            fields = self.blocks[shadow].get("fields", {})
            value = str(next(iter(fields.values()))[0]) if fields else ""
            return f"({escape(MENU_OUT.get(value, value))} v)"
        if kind == TEXT:
            return "[]"
        if kind == COLOR:
            return "[#000000]"
        return "()"

    def reporter(self, ref: Any) -> str:
        if isinstance(ref, list) and len(ref) > 1:
            name = escape(str(ref[1]))
            return f"({name} :: list)" if ref[0] == 13 else f"({name})"
        blk = self.blocks.get(ref)
        if not isinstance(blk, dict):
            return "()"
        inner = self.label(ref)
        if blk["opcode"] == "data_variable":
            return f"({inner})"
        if blk["opcode"] == "data_listcontents":
            return f"({inner} :: list)"
        return f"<{inner}>" if blk["opcode"] in BOOLEAN_OPCODES else f"({inner})"

    def slot(self, blk: dict[str, Any], name: str, kind: Any) -> str:
        if kind in (FIELD, VAR, LIST, MSG):
            field = blk.get("fields", {}).get(name) or [""]
            return f"[{escape(field_out(name, str(field[0])))} v]"
        inp = blk.get("inputs", {}).get(name)
        compact = compact_reporter(inp)
        if compact is not None:
            return self.reporter(compact)
        ref = input_block(inp) if isinstance(inp, list) and inp and inp[0] in (2, 3) else None
        if ref is not None:
            return self.reporter(ref)
        if kind == BOOL:
            return "<>"
        return self.literal(input_shadow(inp), kind)

    def label(self, bid: str) -> str:
        blk = self.blocks[bid]
        opcode = blk["opcode"]
        if opcode == "data_variable":
            return escape(str((blk.get("fields", {}).get("VARIABLE") or [""])[0]))
        if opcode == "data_listcontents":
            return escape(str((blk.get("fields", {}).get("LIST") or [""])[0]))
        if opcode.startswith("argument_reporter"):
            return escape(str((blk.get("fields", {}).get("VALUE") or [""])[0]))
        if opcode == "procedures_definition":
            return self.define(blk)
        if opcode == "procedures_call":
            return self.call(blk)
        template = TEMPLATES.get(opcode)
        if template is None:
            return self.unknown(blk)
        kinds = KINDS[opcode]
        return PLACEHOLDER.sub(lambda m: self.slot(blk, m.group(1), kinds[m.group(1)]), template)

    def unknown(self, blk: dict[str, Any]) -> str:
        """A block the dialect has no text for (an extension's): its opcode, its inputs and
        fields in order, marked `:: extension`. Shown, never built (reading refuses it)."""
        parts = [escape(str(blk["opcode"]))]
        for name, inp in blk.get("inputs", {}).items():
            if not name.startswith("SUBSTACK"):
                parts.append(self.slot(blk, name, TEXT if inp else BOOL))
        for name in blk.get("fields", {}):
            parts.append(self.slot(blk, name, FIELD))
        return " ".join(parts) + " :: extension"

    def define(self, blk: dict[str, Any]) -> str:
        proto = self.blocks.get(input_block(blk.get("inputs", {}).get("custom_block")) or "")
        mutation = (proto or {}).get("mutation") or {}
        names = iter(_json_list(mutation.get("argumentnames")))
        return "define " + _proc_text(
            str(mutation.get("proccode", "")),
            lambda kind: (
                f"<{escape(next(names, ''))}>" if kind == "%b" else f"({escape(next(names, ''))})"
            ),
        )

    def call(self, blk: dict[str, Any]) -> str:
        mutation = blk.get("mutation") or {}
        ids = iter(_json_list(mutation.get("argumentids")))

        def arg(kind: str) -> str:
            inp = blk.get("inputs", {}).get(next(ids, ""))
            if kind == "%b":
                ref = input_block(inp)
                return self.reporter(ref) if ref else "<>"
            text = self.slot({"inputs": {"A": inp}}, "A", TEXT) if inp else "[]"
            plain = text[1:-1] if text.startswith("[") else None
            return f"({plain})" if plain is not None and _NUMBER.fullmatch(plain) else text

        return _proc_text(str(mutation.get("proccode", "")), arg)


def _proc_text(proccode: str, arg: Any) -> str:
    words = []
    for part in re.split(r"(%[snb])", proccode):
        if part in ("%s", "%n", "%b"):
            words.append(arg(part))
        elif part.strip():
            words.append(escape(part.strip()))
    return " ".join(words)


def _json_list(text: Any) -> list[str]:
    try:
        value = json.loads(text or "[]")
    except (TypeError, json.JSONDecodeError):
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


def _stack(r: _Renderer, first: str | None, depth: int, out: list[str]) -> None:
    pad = "    " * depth
    for bid in chain(r.blocks, first):
        blk = r.blocks[bid]
        out.append(pad + r.label(bid))
        stacks = [n for n, k in KINDS.get(blk["opcode"], {}).items() if k == STACK]
        for index, name in enumerate(stacks):
            if index:
                out.append(pad + "else")
            _stack(r, input_block(blk.get("inputs", {}).get(name)), depth + 1, out)
        if stacks:
            out.append(pad + "end")


def render_script(blocks: Blocks, top: str) -> str:
    """The script starting at `top` as canonical text (a loose reporter: its one line)."""
    r = _Renderer(blocks)
    entry = blocks[top]
    if isinstance(entry, list):
        return r.reporter(entry[:3])
    opcode = entry["opcode"]
    if opcode in BOOLEAN_OPCODES or _is_reporter(opcode) or opcode.startswith("argument_"):
        return r.reporter(top)
    out: list[str] = []
    _stack(r, top, 0, out)
    return "\n".join(out)


def _is_reporter(opcode: str) -> bool:
    template = TEMPLATES.get(opcode)
    return opcode in REPORTER_OPCODES or (template is not None and template.endswith("?"))


REPORTER_OPCODES = frozenset(
    {
        "motion_xposition", "motion_yposition", "motion_direction", "looks_costumenumbername",
        "looks_backdropnumbername", "looks_size", "sound_volume", "sensing_distanceto",
        "sensing_answer", "sensing_mousex", "sensing_mousey", "sensing_loudness", "sensing_timer",
        "sensing_of", "sensing_current", "sensing_dayssince2000", "sensing_username",
        "operator_add", "operator_subtract", "operator_multiply", "operator_divide",
        "operator_random", "operator_join", "operator_letter_of", "operator_length",
        "operator_mod", "operator_round", "operator_mathop", "data_itemoflist",
        "data_itemnumoflist", "data_lengthoflist", "music_getTempo", "data_variable",
        "data_listcontents",
    }
)  # fmt: skip


def top_ids(blocks: Blocks) -> list[str]:
    """Script heads in table order, loose variable and list reporters included."""
    heads = scripts(blocks)
    heads += [bid for bid, entry in blocks.items() if isinstance(entry, list) and len(entry) >= 5]
    return heads


def render_target(target: dict[str, Any]) -> str:
    """Every script of a sprite or the stage, separated by blank lines."""
    blocks = target.get("blocks", {})
    return "\n\n".join(render_script(blocks, top) for top in top_ids(blocks))

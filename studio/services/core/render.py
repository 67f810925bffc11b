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

__all__ = [
    "BOOLEAN_INPUTS", "BOOLEAN_OPCODES", "C_BLOCKS", "MENU_WORDS", "TEMPLATES", "block_label",
    "render_project", "render_script", "render_target",
]  # fmt: skip

TEMPLATES: dict[str, str] = {
    "motion_movesteps": "move {STEPS} steps",
    "motion_turnright": "turn right {DEGREES} degrees",
    "motion_turnleft": "turn left {DEGREES} degrees",
    "motion_goto": "go to {TO}",
    "motion_gotoxy": "go to x: {X} y: {Y}",
    "motion_glideto": "glide {SECS} secs to {TO}",
    "motion_glidesecstoxy": "glide {SECS} secs to x: {X} y: {Y}",
    "motion_pointindirection": "point in direction {DIRECTION}",
    "motion_pointtowards": "point towards {TOWARDS}",
    "motion_changexby": "change x by {DX}",
    "motion_setx": "set x to {X}",
    "motion_changeyby": "change y by {DY}",
    "motion_sety": "set y to {Y}",
    "motion_ifonedgebounce": "if on edge, bounce",
    "motion_setrotationstyle": "set rotation style {STYLE}",
    "motion_xposition": "x position",
    "motion_yposition": "y position",
    "motion_direction": "direction",
    "looks_say": "say {MESSAGE}",
    "looks_sayforsecs": "say {MESSAGE} for {SECS} seconds",
    "looks_think": "think {MESSAGE}",
    "looks_thinkforsecs": "think {MESSAGE} for {SECS} seconds",
    "looks_switchcostumeto": "switch costume to {COSTUME}",
    "looks_nextcostume": "next costume",
    "looks_switchbackdropto": "switch backdrop to {BACKDROP}",
    "looks_switchbackdroptoandwait": "switch backdrop to {BACKDROP} and wait",
    "looks_nextbackdrop": "next backdrop",
    "looks_changesizeby": "change size by {CHANGE}",
    "looks_setsizeto": "set size to {SIZE} %",
    "looks_changeeffectby": "change {EFFECT} effect by {CHANGE}",
    "looks_seteffectto": "set {EFFECT} effect to {VALUE}",
    "looks_cleargraphiceffects": "clear graphic effects",
    "looks_show": "show",
    "looks_hide": "hide",
    "looks_gotofrontback": "go to {FRONT_BACK} layer",
    "looks_goforwardbackwardlayers": "go {FORWARD_BACKWARD} {NUM} layers",
    "looks_costumenumbername": "costume {NUMBER_NAME}",
    "looks_backdropnumbername": "backdrop {NUMBER_NAME}",
    "looks_size": "size",
    "sound_play": "start sound {SOUND_MENU}",
    "sound_playuntildone": "play sound {SOUND_MENU} until done",
    "sound_stopallsounds": "stop all sounds",
    "sound_setvolumeto": "set volume to {VOLUME} %",
    "sound_changevolumeby": "change volume by {VOLUME}",
    "event_whenflagclicked": "when flag clicked",
    "event_whenkeypressed": "when {KEY_OPTION} key pressed",
    "event_whenthisspriteclicked": "when this sprite clicked",
    "event_whenstageclicked": "when stage clicked",
    "event_whenbackdropswitchesto": "when backdrop switches to {BACKDROP}",
    "event_whengreaterthan": "when {WHENGREATERTHANMENU} > {VALUE}",
    "event_whenbroadcastreceived": "when I receive {BROADCAST_OPTION}",
    "event_broadcast": "broadcast {BROADCAST_INPUT}",
    "event_broadcastandwait": "broadcast {BROADCAST_INPUT} and wait",
    "control_wait": "wait {DURATION} seconds",
    "control_repeat": "repeat {TIMES}",
    "control_forever": "forever",
    "control_if": "if {CONDITION} then",
    "control_if_else": "if {CONDITION} then",
    "control_wait_until": "wait until {CONDITION}",
    "control_repeat_until": "repeat until {CONDITION}",
    "control_stop": "stop {STOP_OPTION}",
    "control_start_as_clone": "when I start as a clone",
    "control_create_clone_of": "create clone of {CLONE_OPTION}",
    "control_delete_this_clone": "delete this clone",
    "sensing_touchingobject": "touching {TOUCHINGOBJECTMENU}?",
    "sensing_touchingcolor": "touching color {COLOR}?",
    "sensing_distanceto": "distance to {DISTANCETOMENU}",
    "sensing_askandwait": "ask {QUESTION} and wait",
    "sensing_answer": "answer",
    "sensing_keypressed": "key {KEY_OPTION} pressed?",
    "sensing_mousedown": "mouse down?",
    "sensing_mousex": "mouse x",
    "sensing_mousey": "mouse y",
    "sensing_timer": "timer",
    "sensing_resettimer": "reset timer",
    "sensing_of": "{PROPERTY} of {OBJECT}",
    "operator_add": "{NUM1} + {NUM2}",
    "operator_subtract": "{NUM1} - {NUM2}",
    "operator_multiply": "{NUM1} * {NUM2}",
    "operator_divide": "{NUM1} / {NUM2}",
    "operator_mod": "{NUM1} mod {NUM2}",
    "operator_random": "pick random {FROM} to {TO}",
    "operator_round": "round {NUM}",
    "operator_mathop": "{OPERATOR} of {NUM}",
    "operator_gt": "{OPERAND1} > {OPERAND2}",
    "operator_lt": "{OPERAND1} < {OPERAND2}",
    "operator_equals": "{OPERAND1} = {OPERAND2}",
    "operator_and": "{OPERAND1} and {OPERAND2}",
    "operator_or": "{OPERAND1} or {OPERAND2}",
    "operator_not": "not {OPERAND}",
    "operator_join": "join {STRING1} {STRING2}",
    "operator_letter_of": "letter {LETTER} of {STRING}",
    "operator_length": "length of {STRING}",
    "operator_contains": "{STRING1} contains {STRING2}?",
    "data_variable": "{VARIABLE}",
    "data_setvariableto": "set {VARIABLE} to {VALUE}",
    "data_changevariableby": "change {VARIABLE} by {VALUE}",
    "data_showvariable": "show variable {VARIABLE}",
    "data_hidevariable": "hide variable {VARIABLE}",
    "data_listcontents": "{LIST}",
    "data_addtolist": "add {ITEM} to {LIST}",
    "data_deleteoflist": "delete {INDEX} of {LIST}",
    "data_deletealloflist": "delete all of {LIST}",
    "data_insertatlist": "insert {ITEM} at {INDEX} of {LIST}",
    "data_replaceitemoflist": "replace item {INDEX} of {LIST} with {ITEM}",
    "data_itemoflist": "item {INDEX} of {LIST}",
    "data_lengthoflist": "length of {LIST}",
    "data_listcontainsitem": "{LIST} contains {ITEM}?",
    "argument_reporter_string_number": "{VALUE}",
    "argument_reporter_boolean": "{VALUE}",
}
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

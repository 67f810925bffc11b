"""The block text dialect: each Scratch 3 opcode's line of scratchblocks text and its slots.

A template is the block's English scratchblocks text with `{NAME}` where an input or field
goes (NL2Scratch's dialect: `go to x: (0) y: (0)`, `set [score v] to (0)`); the order of the
placeholders is the order in which the scratchblocks parser lists the block's inputs, which is
how a parse is mapped back to input names. It is the studio's one table of block templates:
the pseudocode of `core.render` reads it too. `IDS` names, for each opcode, the block id the
scratchblocks package gives that text; `OPCODES` is the reverse. `KINDS` says how each slot is
stored in an .sb3 (projectbuild's spec, plus the few blocks it does not build), and the value
maps turn a menu's stored value into the word the text shows and back.
"""

from __future__ import annotations

import re

from studio.services.core.projectbuild.spec import FIELD, NUM, SPEC, Kind

__all__ = [
    "HAT_OPCODES", "IDS", "KINDS", "MENU_IN", "MENU_OUT", "OPCODES", "PLACEHOLDER", "TEMPLATES",
    "UPPER_FIELDS", "field_in", "field_out", "slots",
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
    "looks_sayforsecs": "say {MESSAGE} for {SECS} seconds",
    "looks_say": "say {MESSAGE}",
    "looks_thinkforsecs": "think {MESSAGE} for {SECS} seconds",
    "looks_think": "think {MESSAGE}",
    "looks_show": "show",
    "looks_hide": "hide",
    "looks_switchcostumeto": "switch costume to {COSTUME}",
    "looks_nextcostume": "next costume",
    "looks_nextbackdrop": "next backdrop",
    "looks_switchbackdropto": "switch backdrop to {BACKDROP}",
    "looks_switchbackdroptoandwait": "switch backdrop to {BACKDROP} and wait",
    "looks_changeeffectby": "change {EFFECT} effect by {CHANGE}",
    "looks_seteffectto": "set {EFFECT} effect to {VALUE}",
    "looks_cleargraphiceffects": "clear graphic effects",
    "looks_changesizeby": "change size by {CHANGE}",
    "looks_setsizeto": "set size to {SIZE} %",
    "looks_gotofrontback": "go to {FRONT_BACK} layer",
    "looks_goforwardbackwardlayers": "go {FORWARD_BACKWARD} {NUM} layers",
    "looks_costumenumbername": "costume {NUMBER_NAME}",
    "looks_backdropnumbername": "backdrop {NUMBER_NAME}",
    "looks_size": "size",
    "sound_play": "start sound {SOUND_MENU}",
    "sound_playuntildone": "play sound {SOUND_MENU} until done",
    "sound_stopallsounds": "stop all sounds",
    "sound_changeeffectby": "change {EFFECT} effect by {VALUE}",
    "sound_seteffectto": "set {EFFECT} effect to {VALUE}",
    "sound_cleareffects": "clear sound effects",
    "sound_changevolumeby": "change volume by {VOLUME}",
    "sound_setvolumeto": "set volume to {VOLUME} %",
    "sound_volume": "volume",
    "event_whenflagclicked": "when @greenFlag clicked",
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
    "sensing_coloristouchingcolor": "color {COLOR} is touching {COLOR2}?",
    "sensing_distanceto": "distance to {DISTANCETOMENU}",
    "sensing_askandwait": "ask {QUESTION} and wait",
    "sensing_answer": "answer",
    "sensing_keypressed": "key {KEY_OPTION} pressed?",
    "sensing_mousedown": "mouse down?",
    "sensing_mousex": "mouse x",
    "sensing_mousey": "mouse y",
    "sensing_setdragmode": "set drag mode {DRAG_MODE}",
    "sensing_loudness": "loudness",
    "sensing_timer": "timer",
    "sensing_resettimer": "reset timer",
    "sensing_of": "{PROPERTY} of {OBJECT}",
    "sensing_current": "current {CURRENTMENU}",
    "sensing_dayssince2000": "days since 2000",
    "sensing_username": "username",
    "operator_add": "{NUM1} + {NUM2}",
    "operator_subtract": "{NUM1} - {NUM2}",
    "operator_multiply": "{NUM1} * {NUM2}",
    "operator_divide": "{NUM1} / {NUM2}",
    "operator_random": "pick random {FROM} to {TO}",
    "operator_gt": "{OPERAND1} > {OPERAND2}",
    "operator_lt": "{OPERAND1} < {OPERAND2}",
    "operator_equals": "{OPERAND1} = {OPERAND2}",
    "operator_and": "{OPERAND1} and {OPERAND2}",
    "operator_or": "{OPERAND1} or {OPERAND2}",
    "operator_not": "not {OPERAND}",
    "operator_join": "join {STRING1} {STRING2}",
    "operator_letter_of": "letter {LETTER} of {STRING}",
    "operator_length": "length of {STRING}",
    "operator_mod": "{NUM1} mod {NUM2}",
    "operator_round": "round {NUM}",
    "operator_mathop": "{OPERATOR} of {NUM}",
    "operator_contains": "{STRING1} contains {STRING2}?",
    "data_setvariableto": "set {VARIABLE} to {VALUE}",
    "data_changevariableby": "change {VARIABLE} by {VALUE}",
    "data_showvariable": "show variable {VARIABLE}",
    "data_hidevariable": "hide variable {VARIABLE}",
    "data_addtolist": "add {ITEM} to {LIST}",
    "data_deleteoflist": "delete {INDEX} of {LIST}",
    "data_deletealloflist": "delete all of {LIST}",
    "data_insertatlist": "insert {ITEM} at {INDEX} of {LIST}",
    "data_replaceitemoflist": "replace item {INDEX} of {LIST} with {ITEM}",
    "data_itemoflist": "item {INDEX} of {LIST}",
    "data_itemnumoflist": "item # of {ITEM} in {LIST}",
    "data_lengthoflist": "length of {LIST}",
    "data_listcontainsitem": "{LIST} contains {ITEM}?",
    "data_showlist": "show list {LIST}",
    "data_hidelist": "hide list {LIST}",
    "pen_clear": "erase all",
    "pen_stamp": "stamp",
    "pen_penDown": "pen down",
    "pen_penUp": "pen up",
    "pen_setPenColorToColor": "set pen color to {COLOR}",
    "pen_changePenColorParamBy": "change pen {COLOR_PARAM} by {VALUE}",
    "pen_setPenColorParamTo": "set pen {COLOR_PARAM} to {VALUE}",
    "pen_changePenSizeBy": "change pen size by {SIZE}",
    "pen_setPenSizeTo": "set pen size to {SIZE}",
    "music_playDrumForBeats": "play drum {DRUM} for {BEATS} beats",
    "music_restForBeats": "rest for {BEATS} beats",
    "music_playNoteForBeats": "play note {NOTE} for {BEATS} beats",
    "music_setInstrument": "set instrument to {INSTRUMENT}",
    "music_setTempo": "set tempo to {TEMPO}",
    "music_changeTempo": "change tempo by {TEMPO}",
    "music_getTempo": "tempo",
}

# The scratchblocks id of each opcode where it is not the opcode in upper case.
_ODD_IDS = {
    "looks_nextbackdrop": "LOOKS_NEXTBACKDROP_BLOCK",
    "sound_seteffectto": "SOUND_SETEFFECTO",
    "control_if_else": "CONTROL_IF",
    "control_wait_until": "CONTROL_WAITUNTIL",
    "control_repeat_until": "CONTROL_REPEATUNTIL",
    "control_start_as_clone": "CONTROL_STARTASCLONE",
    "control_create_clone_of": "CONTROL_CREATECLONEOF",
    "control_delete_this_clone": "CONTROL_DELETETHISCLONE",
    "operator_letter_of": "OPERATORS_LETTEROF",
    "pen_clear": "pen.clear",
    "pen_stamp": "pen.stamp",
    "pen_penDown": "pen.penDown",
    "pen_penUp": "pen.penUp",
    "pen_setPenColorToColor": "pen.setColor",
    "pen_changePenColorParamBy": "pen.changeColorParam",
    "pen_setPenColorParamTo": "pen.setColorParam",
    "pen_changePenSizeBy": "pen.changeSize",
    "pen_setPenSizeTo": "pen.setSize",
    "music_playDrumForBeats": "music.playDrumForBeats",
    "music_restForBeats": "music.restForBeats",
    "music_playNoteForBeats": "music.playNoteForBeats",
    "music_setInstrument": "music.setInstrument",
    "music_setTempo": "music.setTempo",
    "music_changeTempo": "music.changeTempo",
    "music_getTempo": "music.getTempo",
}


def _default_id(opcode: str) -> str:
    category, rest = opcode.split("_", 1)
    return f"{'OPERATORS' if category == 'operator' else category.upper()}_{rest.upper()}"


IDS: dict[str, str] = {op: _ODD_IDS.get(op) or _default_id(op) for op in TEMPLATES}
OPCODES: dict[str, str] = {sb: op for op, sb in IDS.items() if op != "control_if_else"}

KINDS: dict[str, dict[str, Kind]] = SPEC | {
    "sensing_setdragmode": {"DRAG_MODE": FIELD},
    "sensing_loudness": {},
    "sound_volume": {},
    "event_whengreaterthan": {"WHENGREATERTHANMENU": FIELD, "VALUE": NUM},
}
HAT_OPCODES = frozenset(op for op, text in TEMPLATES.items() if text.startswith("when ")) | {
    "procedures_definition"
}
PLACEHOLDER = re.compile(r"\{([A-Z0-9_]+)\}")

# Menu values the VM stores under a name of its own, and the words the text shows for them.
MENU_OUT = {
    "_myself_": "myself",
    "_mouse_": "mouse-pointer",
    "_edge_": "edge",
    "_random_": "random position",
    "_stage_": "Stage",
}
MENU_IN = {word: value for value, word in MENU_OUT.items()}
# Fields stored in upper case (and a few spelled differently) that the text shows as words.
UPPER_FIELDS = frozenset({"EFFECT", "WHENGREATERTHANMENU", "CURRENTMENU"})
_FIELD_WORDS = {"DAYOFWEEK": "day of week"}
_FIELD_VALUES = {word: value for value, word in _FIELD_WORDS.items()}


def slots(opcode: str) -> list[str]:
    """The input and field names of an opcode in the order its text shows them."""
    return PLACEHOLDER.findall(TEMPLATES.get(opcode, ""))


def field_out(name: str, value: str) -> str:
    """The word a field's stored value shows as in text."""
    if name in UPPER_FIELDS:
        return _FIELD_WORDS.get(value, value.lower())
    return value


def field_in(name: str, word: str) -> str:
    """The stored value of a field the text shows as `word` (field_out reversed)."""
    if name in UPPER_FIELDS:
        return _FIELD_VALUES.get(word.lower(), word.upper())
    return word

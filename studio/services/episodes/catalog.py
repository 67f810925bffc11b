"""The block catalog of composite mode: the opcodes `add_block` accepts, by category.

These are the blocks of the editor's own palette for Motion, Looks, Sound, Events, Control,
Sensing, Operators and Variables (lists included); no Pen, no extensions, no custom blocks.
Some exist only for sprites (Motion, costumes, clones) or only for the Stage (backdrops and
"when stage clicked"): the editor refuses them on the other kind of target.
"""

from __future__ import annotations

import difflib

__all__ = ["CATALOG", "OPCODES", "catalog_text", "check_opcode"]

CATALOG: dict[str, tuple[str, ...]] = {
    "Motion": (
        "motion_movesteps",
        "motion_turnright",
        "motion_turnleft",
        "motion_goto",
        "motion_gotoxy",
        "motion_glideto",
        "motion_glidesecstoxy",
        "motion_pointindirection",
        "motion_pointtowards",
        "motion_changexby",
        "motion_setx",
        "motion_changeyby",
        "motion_sety",
        "motion_ifonedgebounce",
        "motion_setrotationstyle",
        "motion_xposition",
        "motion_yposition",
        "motion_direction",
    ),
    "Looks": (
        "looks_sayforsecs",
        "looks_say",
        "looks_thinkforsecs",
        "looks_think",
        "looks_switchcostumeto",
        "looks_nextcostume",
        "looks_switchbackdropto",
        "looks_switchbackdroptoandwait",
        "looks_nextbackdrop",
        "looks_changesizeby",
        "looks_setsizeto",
        "looks_changeeffectby",
        "looks_seteffectto",
        "looks_cleargraphiceffects",
        "looks_show",
        "looks_hide",
        "looks_gotofrontback",
        "looks_goforwardbackwardlayers",
        "looks_costumenumbername",
        "looks_backdropnumbername",
        "looks_size",
    ),
    "Sound": (
        "sound_playuntildone",
        "sound_play",
        "sound_stopallsounds",
        "sound_changeeffectby",
        "sound_seteffectto",
        "sound_cleareffects",
        "sound_changevolumeby",
        "sound_setvolumeto",
        "sound_volume",
    ),
    "Events": (
        "event_whenflagclicked",
        "event_whenkeypressed",
        "event_whenthisspriteclicked",
        "event_whenstageclicked",
        "event_whenbackdropswitchesto",
        "event_whengreaterthan",
        "event_whenbroadcastreceived",
        "event_broadcast",
        "event_broadcastandwait",
    ),
    "Control": (
        "control_wait",
        "control_repeat",
        "control_forever",
        "control_if",
        "control_if_else",
        "control_wait_until",
        "control_repeat_until",
        "control_stop",
        "control_start_as_clone",
        "control_create_clone_of",
        "control_delete_this_clone",
    ),
    "Sensing": (
        "sensing_touchingobject",
        "sensing_touchingcolor",
        "sensing_coloristouchingcolor",
        "sensing_distanceto",
        "sensing_askandwait",
        "sensing_answer",
        "sensing_keypressed",
        "sensing_mousedown",
        "sensing_mousex",
        "sensing_mousey",
        "sensing_setdragmode",
        "sensing_loudness",
        "sensing_timer",
        "sensing_resettimer",
        "sensing_of",
        "sensing_current",
        "sensing_dayssince2000",
        "sensing_username",
    ),
    "Operators": (
        "operator_add",
        "operator_subtract",
        "operator_multiply",
        "operator_divide",
        "operator_random",
        "operator_gt",
        "operator_lt",
        "operator_equals",
        "operator_and",
        "operator_or",
        "operator_not",
        "operator_join",
        "operator_letter_of",
        "operator_length",
        "operator_contains",
        "operator_mod",
        "operator_round",
        "operator_mathop",
    ),
    "Variables": (
        "data_variable",
        "data_setvariableto",
        "data_changevariableby",
        "data_showvariable",
        "data_hidevariable",
        "data_listcontents",
        "data_addtolist",
        "data_deleteoflist",
        "data_deletealloflist",
        "data_insertatlist",
        "data_replaceitemoflist",
        "data_itemoflist",
        "data_itemnumoflist",
        "data_lengthoflist",
        "data_listcontainsitem",
        "data_showlist",
        "data_hidelist",
    ),
}
OPCODES: frozenset[str] = frozenset(op for ops in CATALOG.values() for op in ops)


def check_opcode(opcode: str) -> str | None:
    """None when `opcode` is in the catalog, else a message naming the closest ones."""
    if opcode in OPCODES:
        return None
    if opcode.startswith(("pen_", "procedures_", "argument_")) or "_" not in opcode:
        hint = "composite mode has no Pen, extension or custom blocks"
    else:
        close = difflib.get_close_matches(opcode, sorted(OPCODES), n=3, cutoff=0.6)
        hint = f"did you mean {', '.join(close)}?" if close else "see the block catalog"
    return f"unknown blockType {opcode!r}; {hint}"


def catalog_text() -> str:
    """The catalog as prompt lines: `Category: opcode, opcode, ...`."""
    return "\n".join(f"{cat}: {', '.join(ops)}" for cat, ops in CATALOG.items())

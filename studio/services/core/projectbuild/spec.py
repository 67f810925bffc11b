"""What projectbuild knows about each opcode: how its arguments are stored in an sb3 block.

The kinds follow scratch-vm's sb3 serializer and the editor's default shadows: a number is a
compact shadow primitive of that type (`[4, "10"]`), a tuple names the shadow menu block an
input holds (opcode, field), and the strings name fields, substacks, boolean slots, variables,
lists and broadcast messages. Extension opcodes (`pen_`, `music_`) make the project declare
their extension.
"""

from __future__ import annotations

from studio.services.core.sb3 import (
    CORE_CATEGORIES,  # categories of the VM: any other prefix is an extension
)

__all__ = [
    "ANGLE", "BOOL", "BROADCAST_PRIMITIVE", "COLOR", "CONTROL", "DATA", "EVENTS", "FIELD",
    "INTEGER", "LIST", "LIST_PRIMITIVE", "LOOKS", "MOTION", "MSG", "MSG_IN", "MUSIC", "NUM",
    "OPERATORS", "PEN", "POSITIVE", "SENSING", "SOUND", "SPEC", "STACK", "TEXT", "VAR",
    "VARIABLE_PRIMITIVE", "WHOLE", "Kind", "extension_of",
]  # fmt: skip

# Shadow primitive types of the sb3 format (the first number of a compact input array).
NUM, POSITIVE, WHOLE, INTEGER, ANGLE, COLOR, TEXT = 4, 5, 6, 7, 8, 9, 10
BROADCAST_PRIMITIVE, VARIABLE_PRIMITIVE, LIST_PRIMITIVE = 11, 12, 13

# How each argument of an opcode is stored. An int is a shadow literal of that type; the
# strings name the other kinds; a tuple is a menu shadow block (menu opcode, its field).
Kind = int | str | tuple[str, str]
BOOL, STACK, FIELD, VAR, LIST = "bool", "stack", "field", "var", "list"
MSG, MSG_IN = "msg", "msg_in"


_N2: dict[str, Kind] = {"NUM1": NUM, "NUM2": NUM}
_CMP: dict[str, Kind] = {"OPERAND1": TEXT, "OPERAND2": TEXT}
_LOGIC: dict[str, Kind] = {"OPERAND1": BOOL, "OPERAND2": BOOL}
_SOUND: dict[str, Kind] = {"SOUND_MENU": ("sound_sounds_menu", "SOUND_MENU")}
_BACKDROP: dict[str, Kind] = {"BACKDROP": ("looks_backdrops", "BACKDROP")}
_LIST: dict[str, Kind] = {"LIST": LIST}
_EFFECT_BY: dict[str, Kind] = {"EFFECT": FIELD, "CHANGE": NUM}
_EFFECT_TO: dict[str, Kind] = {"EFFECT": FIELD, "VALUE": NUM}

MOTION: dict[str, dict[str, Kind]] = {
    "motion_movesteps": {"STEPS": NUM},
    "motion_turnright": {"DEGREES": NUM},
    "motion_turnleft": {"DEGREES": NUM},
    "motion_goto": {"TO": ("motion_goto_menu", "TO")},
    "motion_gotoxy": {"X": NUM, "Y": NUM},
    "motion_glideto": {"SECS": NUM, "TO": ("motion_glideto_menu", "TO")},
    "motion_glidesecstoxy": {"SECS": NUM, "X": NUM, "Y": NUM},
    "motion_pointindirection": {"DIRECTION": ANGLE},
    "motion_pointtowards": {"TOWARDS": ("motion_pointtowards_menu", "TOWARDS")},
    "motion_changexby": {"DX": NUM},
    "motion_setx": {"X": NUM},
    "motion_changeyby": {"DY": NUM},
    "motion_sety": {"Y": NUM},
    "motion_ifonedgebounce": {},
    "motion_setrotationstyle": {"STYLE": FIELD},
    "motion_xposition": {},
    "motion_yposition": {},
    "motion_direction": {},
}
LOOKS: dict[str, dict[str, Kind]] = {
    "looks_say": {"MESSAGE": TEXT},
    "looks_sayforsecs": {"MESSAGE": TEXT, "SECS": NUM},
    "looks_think": {"MESSAGE": TEXT},
    "looks_thinkforsecs": {"MESSAGE": TEXT, "SECS": NUM},
    "looks_switchcostumeto": {"COSTUME": ("looks_costume", "COSTUME")},
    "looks_nextcostume": {},
    "looks_switchbackdropto": _BACKDROP,
    "looks_switchbackdroptoandwait": _BACKDROP,
    "looks_nextbackdrop": {},
    "looks_changeeffectby": _EFFECT_BY,
    "looks_seteffectto": _EFFECT_TO,
    "looks_cleargraphiceffects": {},
    "looks_changesizeby": {"CHANGE": NUM},
    "looks_setsizeto": {"SIZE": NUM},
    "looks_show": {},
    "looks_hide": {},
    "looks_gotofrontback": {"FRONT_BACK": FIELD},
    "looks_goforwardbackwardlayers": {"FORWARD_BACKWARD": FIELD, "NUM": INTEGER},
    "looks_costumenumbername": {"NUMBER_NAME": FIELD},
    "looks_backdropnumbername": {"NUMBER_NAME": FIELD},
    "looks_size": {},
}
SOUND: dict[str, dict[str, Kind]] = {
    "sound_play": _SOUND,
    "sound_playuntildone": _SOUND,
    "sound_stopallsounds": {},
    "sound_changeeffectby": {"EFFECT": FIELD, "VALUE": NUM},
    "sound_seteffectto": {"EFFECT": FIELD, "VALUE": NUM},
    "sound_cleareffects": {},
    "sound_setvolumeto": {"VOLUME": NUM},
    "sound_changevolumeby": {"VOLUME": NUM},
    "sound_volume": {},
}
EVENTS: dict[str, dict[str, Kind]] = {
    "event_whenflagclicked": {},
    "event_whenkeypressed": {"KEY_OPTION": FIELD},
    "event_whenthisspriteclicked": {},
    "event_whenstageclicked": {},
    "event_whenbackdropswitchesto": {"BACKDROP": FIELD},
    "event_whengreaterthan": {"WHENGREATERTHANMENU": FIELD, "VALUE": NUM},
    "event_whenbroadcastreceived": {"BROADCAST_OPTION": MSG},
    "event_broadcast": {"BROADCAST_INPUT": MSG_IN},
    "event_broadcastandwait": {"BROADCAST_INPUT": MSG_IN},
}
CONTROL: dict[str, dict[str, Kind]] = {
    "control_wait": {"DURATION": POSITIVE},
    "control_repeat": {"TIMES": WHOLE, "SUBSTACK": STACK},
    "control_forever": {"SUBSTACK": STACK},
    "control_if": {"CONDITION": BOOL, "SUBSTACK": STACK},
    "control_if_else": {"CONDITION": BOOL, "SUBSTACK": STACK, "SUBSTACK2": STACK},
    "control_wait_until": {"CONDITION": BOOL},
    "control_repeat_until": {"CONDITION": BOOL, "SUBSTACK": STACK},
    "control_stop": {"STOP_OPTION": FIELD},
    "control_start_as_clone": {},
    "control_create_clone_of": {"CLONE_OPTION": ("control_create_clone_of_menu", "CLONE_OPTION")},
    "control_delete_this_clone": {},
}
SENSING: dict[str, dict[str, Kind]] = {
    "sensing_askandwait": {"QUESTION": TEXT},
    "sensing_answer": {},
    "sensing_keypressed": {"KEY_OPTION": ("sensing_keyoptions", "KEY_OPTION")},
    "sensing_touchingobject": {
        "TOUCHINGOBJECTMENU": ("sensing_touchingobjectmenu", "TOUCHINGOBJECTMENU")
    },
    "sensing_touchingcolor": {"COLOR": COLOR},
    "sensing_coloristouchingcolor": {"COLOR": COLOR, "COLOR2": COLOR},
    "sensing_distanceto": {"DISTANCETOMENU": ("sensing_distancetomenu", "DISTANCETOMENU")},
    "sensing_of": {"PROPERTY": FIELD, "OBJECT": ("sensing_of_object_menu", "OBJECT")},
    "sensing_mousedown": {},
    "sensing_mousex": {},
    "sensing_mousey": {},
    "sensing_timer": {},
    "sensing_resettimer": {},
    "sensing_current": {"CURRENTMENU": FIELD},
    "sensing_dayssince2000": {},
    "sensing_username": {},
}
OPERATORS: dict[str, dict[str, Kind]] = {
    "operator_add": _N2,
    "operator_subtract": _N2,
    "operator_multiply": _N2,
    "operator_divide": _N2,
    "operator_mod": _N2,
    "operator_random": {"FROM": NUM, "TO": NUM},
    "operator_round": {"NUM": NUM},
    "operator_mathop": {"OPERATOR": FIELD, "NUM": NUM},
    "operator_gt": _CMP,
    "operator_lt": _CMP,
    "operator_equals": _CMP,
    "operator_and": _LOGIC,
    "operator_or": _LOGIC,
    "operator_not": {"OPERAND": BOOL},
    "operator_join": {"STRING1": TEXT, "STRING2": TEXT},
    "operator_letter_of": {"LETTER": WHOLE, "STRING": TEXT},
    "operator_length": {"STRING": TEXT},
    "operator_contains": {"STRING1": TEXT, "STRING2": TEXT},
}
DATA: dict[str, dict[str, Kind]] = {
    "data_variable": {"VARIABLE": VAR},
    "data_setvariableto": {"VARIABLE": VAR, "VALUE": TEXT},
    "data_changevariableby": {"VARIABLE": VAR, "VALUE": NUM},
    "data_showvariable": {"VARIABLE": VAR},
    "data_hidevariable": {"VARIABLE": VAR},
    "data_listcontents": _LIST,
    "data_addtolist": {"ITEM": TEXT, "LIST": LIST},
    "data_deleteoflist": {"INDEX": INTEGER, "LIST": LIST},
    "data_deletealloflist": _LIST,
    "data_insertatlist": {"ITEM": TEXT, "INDEX": INTEGER, "LIST": LIST},
    "data_replaceitemoflist": {"INDEX": INTEGER, "LIST": LIST, "ITEM": TEXT},
    "data_itemoflist": {"INDEX": INTEGER, "LIST": LIST},
    "data_itemnumoflist": {"ITEM": TEXT, "LIST": LIST},
    "data_lengthoflist": _LIST,
    "data_listcontainsitem": {"LIST": LIST, "ITEM": TEXT},
    "data_showlist": _LIST,
    "data_hidelist": _LIST,
}
PEN: dict[str, dict[str, Kind]] = {
    "pen_clear": {},
    "pen_stamp": {},
    "pen_penDown": {},
    "pen_penUp": {},
    "pen_setPenColorToColor": {"COLOR": COLOR},
    "pen_changePenColorParamBy": {
        "COLOR_PARAM": ("pen_menu_colorParam", "colorParam"),
        "VALUE": NUM,
    },
    "pen_setPenColorParamTo": {"COLOR_PARAM": ("pen_menu_colorParam", "colorParam"), "VALUE": NUM},
    "pen_changePenSizeBy": {"SIZE": NUM},
    "pen_setPenSizeTo": {"SIZE": NUM},
}
MUSIC: dict[str, dict[str, Kind]] = {
    "music_playDrumForBeats": {"DRUM": ("music_menu_DRUM", "DRUM"), "BEATS": NUM},
    "music_restForBeats": {"BEATS": NUM},
    "music_playNoteForBeats": {"NOTE": ("note", "NOTE"), "BEATS": NUM},
    "music_setInstrument": {"INSTRUMENT": ("music_menu_INSTRUMENT", "INSTRUMENT")},
    "music_setTempo": {"TEMPO": NUM},
    "music_changeTempo": {"TEMPO": NUM},
    "music_getTempo": {},
}

SPEC: dict[str, dict[str, Kind]] = (
    MOTION | LOOKS | SOUND | EVENTS | CONTROL | SENSING | OPERATORS | DATA | PEN | MUSIC
)


def extension_of(opcode: str) -> str | None:
    """The extension an opcode belongs to ("pen", "music"), or None for a core block."""
    prefix = opcode.split("_", 1)[0] if "_" in opcode else ""
    return prefix if prefix and prefix not in CORE_CATEGORIES else None

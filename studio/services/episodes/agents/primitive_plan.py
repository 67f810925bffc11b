"""What the primitive-mode oracle builds, and where the editor puts things on screen.

`build_plan` turns one golden target into an ordered list of placements (a block dragged from
the palette to a connection) and slot settings (a typed number or text, a dropdown choice),
depth first: a block, then its slots left to right (reporters dropped into them and filled in
turn), then its substacks, then the block below it. Every placement is made against the
observed screen: the connection points follow from the bounding boxes of the element list and
the fixed shape of Scratch blocks at the editor's default zoom (measured on the bundled editor,
see the constants below).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from studio.services.core.blocks import Blocks, block_items, chain, input_shadow, scripts
from studio.services.episodes.agents.oracle_plan import expand_reporters

__all__ = [
    "CATEGORY_OF_PREFIX", "CONDITION_DX", "CONDITION_DY", "DISPLAY_ORDER", "GRAB_DX", "GRAB_DY",
    "MENU_LABELS", "SCALE", "STATEMENT_INPUTS", "SUBSTACK2_UP", "SUBSTACK_DX", "SUBSTACK_DY", "TAB",
    "Place", "SetSlot", "Slot", "Step", "Where", "build_plan", "category_of", "live_block_ids",
    "menu_label", "script_height", "slots",
]  # fmt: skip

# ---- geometry of the default workspace (zoom 0.675), in screen px --------------------------
SCALE = 0.675
TAB = 8 * SCALE  # the tab under a stack block: its next connection sits this far above the box
SUBSTACK_DX, SUBSTACK_DY = 16 * SCALE, 48 * SCALE  # first substack, from the C-block's corner
SUBSTACK2_UP = (8 + 32 + 24) * SCALE  # an empty second substack, up from the box bottom
CONDITION_DX = {  # the hexagonal slot of a C-block, from its corner (measured)
    "control_if": 33,
    "control_if_else": 33,
    "control_repeat_until": 65,
    "control_wait_until": 55,
    "control_while": 50,
}
CONDITION_DY = 2
GRAB_DX, GRAB_DY = 5, 12  # press here (from the box corner) to drag a block by its body

# ---- how blocks show their slots -------------------------------------------------------------
DISPLAY_ORDER: dict[str, tuple[str, ...]] = {
    "motion_glideto": ("SECS", "TO"),
    "motion_glidesecstoxy": ("SECS", "X", "Y"),
    "motion_gotoxy": ("X", "Y"),
    "looks_sayforsecs": ("MESSAGE", "SECS"),
    "looks_thinkforsecs": ("MESSAGE", "SECS"),
    "looks_changeeffectby": ("EFFECT", "CHANGE"),
    "looks_seteffectto": ("EFFECT", "VALUE"),
    "looks_goforwardbackwardlayers": ("FORWARD_BACKWARD", "NUM"),
    "sound_changeeffectby": ("EFFECT", "VALUE"),
    "sound_seteffectto": ("EFFECT", "VALUE"),
    "event_whengreaterthan": ("WHENGREATERTHANMENU", "VALUE"),
    "data_setvariableto": ("VARIABLE", "VALUE"),
    "data_changevariableby": ("VARIABLE", "VALUE"),
    "data_addtolist": ("ITEM", "LIST"),
    "data_deleteoflist": ("INDEX", "LIST"),
    "data_insertatlist": ("ITEM", "INDEX", "LIST"),
    "data_replaceitemoflist": ("INDEX", "LIST", "ITEM"),
    "data_itemoflist": ("INDEX", "LIST"),
    "data_itemnumoflist": ("ITEM", "LIST"),
    "data_listcontainsitem": ("LIST", "ITEM"),
    "operator_letter_of": ("LETTER", "STRING"),
    "operator_mathop": ("OPERATOR", "NUM"),
    "sensing_of": ("PROPERTY", "OBJECT"),
}
STATEMENT_INPUTS = ("SUBSTACK", "SUBSTACK2")
MENU_LABELS = {  # special menu values and the words the dropdown shows for them
    "_random_": "random position",
    "_mouse_": "mouse-pointer",
    "_edge_": "edge",
    "_myself_": "myself",
    "_stage_": "Stage",
}
CATEGORY_OF_PREFIX = {
    "motion": "motion",
    "looks": "looks",
    "sound": "sound",
    "event": "events",
    "control": "control",
    "sensing": "sensing",
    "operator": "operators",
    "data": "variables",
}

Where = Literal["script", "next", "substack", "substack2", "slot", "condition"]


@dataclass(frozen=True)
class Place:
    """Drag a new `opcode` block from the palette to `where` (relative to golden `parent`)."""

    gid: str
    opcode: str
    where: Where
    parent: str | None = None
    slot: int = 0  # for "slot": the slot's position among the parent's slots, left to right
    name: str | None = None  # the variable or list a data reporter shows
    nested: bool = False  # the block goes inside a C-block's mouth


@dataclass(frozen=True)
class SetSlot:
    """Give slot `slot` (left to right) of golden block `gid` the value `value`."""

    gid: str
    slot: int
    kind: Literal["text", "dropdown"]
    value: str


@dataclass(frozen=True)
class Slot:
    """One slot of a block as shown: a field, a literal, a menu, a reporter, an empty boolean."""

    name: str
    kind: Literal["text", "dropdown", "reporter", "empty"]
    value: str | None = None  # text and dropdown: the golden value
    block: str | None = None  # reporter: the golden block in it
    element: bool = True  # whether the slot shows as an input element (text or dropdown)


Step = Place | SetSlot


def category_of(opcode: str) -> str:
    """The palette category (its menu id) that holds `opcode`."""
    return CATEGORY_OF_PREFIX.get(opcode.split("_", 1)[0], opcode.split("_", 1)[0])


def menu_label(value: str) -> str:
    return MENU_LABELS.get(value, value)


def _literal(ref: Any, blocks: Blocks) -> tuple[Literal["text", "dropdown"], str] | None:
    """The kind and value of an input's shadow: a compact literal or a one-field menu block."""
    if isinstance(ref, list) and len(ref) > 1 and isinstance(ref[0], int) and 4 <= ref[0] <= 11:
        return ("dropdown" if ref[0] == 11 else "text"), str(ref[1])
    if isinstance(ref, str) and isinstance(blocks.get(ref), dict):
        fields = blocks[ref].get("fields") or {}
        if len(fields) == 1:
            value = next(iter(fields.values()))
            return "dropdown", str(value[0] if isinstance(value, list) else value)
    return None


def slots(blocks: Blocks, gid: str) -> list[Slot]:
    """The slots of golden block `gid` in the order the editor shows them, left to right."""
    blk = blocks[gid]
    if blk["opcode"] in ("data_variable", "data_listcontents"):
        return []  # the name is chosen with the palette block, it is not editable
    fields = blk.get("fields") or {}
    inputs = {n: v for n, v in (blk.get("inputs") or {}).items() if n not in STATEMENT_INPUTS}
    order = DISPLAY_ORDER.get(blk["opcode"]) or (*fields, *inputs)
    out: list[Slot] = []
    for name in order:
        if name in fields:
            value = fields[name]
            out.append(Slot(name, "dropdown", str(value[0] if isinstance(value, list) else value)))
            continue
        inp = inputs.get(name)
        if not isinstance(inp, list):
            continue
        covering = inp[1] if inp[0] in (2, 3) and isinstance(inp[1], str) else None
        shadow = _literal(input_shadow(inp), blocks)
        if covering and isinstance(blocks.get(covering), dict):
            out.append(Slot(name, "reporter", block=covering, element=shadow is not None))
        elif shadow is not None:
            out.append(Slot(name, shadow[0], shadow[1]))
        else:
            out.append(Slot(name, "empty", element=False))
    return out


def _reporter_name(blk: dict[str, Any]) -> str | None:
    if blk["opcode"] in ("data_variable", "data_listcontents"):
        field = next(iter((blk.get("fields") or {}).values()), None)
        return str(field[0]) if isinstance(field, list) else None
    return None


def _visit(blocks: Blocks, gid: str, place: Place, out: list[Step], nested: bool = False) -> None:
    out.append(place)
    shown = 0
    for slot in slots(blocks, gid):
        if slot.kind == "reporter" and slot.block:
            where: Where = "slot" if slot.element else "condition"
            child = blocks[slot.block]
            sub = Place(slot.block, child["opcode"], where, gid, shown, _reporter_name(child))
            _visit(blocks, slot.block, sub, out, nested)
        elif slot.kind in ("text", "dropdown") and slot.value is not None:
            out.append(SetSlot(gid, shown, slot.kind, slot.value))
        if slot.element and slot.kind != "reporter":
            shown += 1
    for name, where_sub in (("SUBSTACK", "substack"), ("SUBSTACK2", "substack2")):
        inp = (blocks[gid].get("inputs") or {}).get(name)
        first = inp[1] if isinstance(inp, list) and len(inp) > 1 else None
        previous: str | None = None
        for bid in chain(blocks, first if isinstance(first, str) else None):
            opcode = blocks[bid]["opcode"]
            if previous is None:
                step = Place(bid, opcode, where_sub, gid, nested=True)  # type: ignore[arg-type]
            else:
                step = Place(bid, opcode, "next", previous, nested=True)
            _visit(blocks, bid, step, out, nested=True)
            previous = bid


def build_plan(target_blocks: Blocks) -> list[list[Step]]:
    """Per golden script (top to bottom, left to right), the steps that rebuild it."""
    blocks = expand_reporters(target_blocks)
    tops = sorted(scripts(blocks), key=lambda b: (blocks[b].get("y") or 0, blocks[b].get("x") or 0))
    plans: list[list[Step]] = []
    for top in tops:
        out: list[Step] = []
        previous: str | None = None
        for bid in chain(blocks, top):
            blk = blocks[bid]
            if previous is None:
                step = Place(bid, blk["opcode"], "script", name=_reporter_name(blk))
            else:
                step = Place(bid, blk["opcode"], "next", previous)
            _visit(blocks, bid, step, out)
            previous = bid
        plans.append(out)
    return plans


def script_height(steps: list[Step]) -> float:
    """A generous estimate of a script's height on screen (px) to find room for it."""
    places = [s for s in steps if isinstance(s, Place)]
    stacked = sum(1 for p in places if p.where in ("script", "next", "substack", "substack2"))
    mouths = sum(1 for p in places if p.opcode.startswith("control_") and "if" in p.opcode)
    loops = sum(1 for p in places if p.opcode in ("control_repeat", "control_forever"))
    return 20 + 34 * stacked + 34 * (mouths + loops) + 30


def live_block_ids(blocks: Blocks) -> list[str]:
    return [bid for bid, _ in block_items(blocks)]

"""ScratchEval's mechanical bug patterns as mutation operators.

MIR missing initialization, BAW broadcast-and-wait turned into broadcast, RWT a wait removed,
RNM a message renamed on one side, SWO operands swapped, CNT a threshold changed, RCV a
costume or visibility change removed, DCD a clone deletion dropped. (Flipped comparators are
Whisker's ROR.)
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import Any

from studio.services.checking.mutation.operators import (
    MutationOperator,
    OpcodeSwap,
    RemoveStatement,
    Site,
    Target,
    label,
    where,
)
from studio.services.core.blocks import (
    BROADCAST_PRIM,
    LOOP_OPCODES,
    Block,
    Blocks,
    Project,
    chain,
    find_target,
    is_covered,
    is_hat,
    set_shadow_value,
    shadow_value,
    stage_of,
    target_name,
)

__all__ = [
    "BAW", "CHANGEABLE", "CNT", "DCD", "INIT_OPCODES", "MIR", "RCV", "RNM", "RWT",
    "SCRATCHEVAL_OPERATORS", "SWAPPABLE", "SWO",
]  # fmt: skip

INIT_OPCODES = frozenset(
    {
        "data_setvariableto",
        "data_deletealloflist",
        "motion_gotoxy",
        "motion_goto",
        "motion_setx",
        "motion_sety",
        "motion_pointindirection",
        "motion_setrotationstyle",
        "looks_switchcostumeto",
        "looks_switchbackdropto",
        "looks_setsizeto",
        "looks_seteffectto",
        "looks_cleargraphiceffects",
        "looks_show",
        "looks_hide",
        "looks_gotofrontback",
        "sensing_resettimer",
    }
)


class MIR(RemoveStatement):
    """Missing Initialization: an init block at the top of a hat script is removed."""

    name = "MIR"
    doc = (
        "Missing Initialization: remove a set-variable / go-to / set-x/y / costume / show-hide "
        "block that a hat script runs before its first loop."
    )
    verb = "removed the initialization"

    def accepts(self, blocks: Blocks, bid: str) -> bool:
        parent = blocks[bid].get("parent")
        if blocks[bid]["opcode"] not in INIT_OPCODES or not parent:
            return False
        top = bid
        while blocks[top].get("parent") and blocks[blocks[top]["parent"]].get("next") == top:
            top = blocks[top]["parent"]
        if not is_hat(blocks[top]["opcode"]):
            return False
        for step in chain(blocks, blocks[top].get("next")):
            if step == bid:
                return True
            if blocks[step]["opcode"] in LOOP_OPCODES:
                return False
        return False


class BAW(OpcodeSwap):
    """Missing wait: 'broadcast and wait' becomes 'broadcast'."""

    name = "BAW"
    doc = "Missing wait: turn 'broadcast and wait' into 'broadcast'."
    group = ("event_broadcastandwait",)

    def sites_at(self, project: Project, target: Target, bid: str, blk: Block) -> Iterable[Site]:
        if blk["opcode"] == "event_broadcastandwait":
            yield Site(target_name(target), bid, option="event_broadcast")


class RWT(RemoveStatement):
    """Missing wait: a 'wait (n) seconds' block is removed."""

    name = "RWT"
    doc = "Missing wait: remove a 'wait (n) seconds' block."
    opcodes = frozenset({"control_wait"})
    verb = "removed the wait"


class RNM(MutationOperator):
    """Untriggered event: a receiver or a sender uses a fresh message name instead."""

    name = "RNM"
    doc = (
        "Untriggered event: rename the message of one receiver or one sender to a fresh, "
        "declared message that nobody else uses."
    )

    def sites_at(self, project: Project, target: Target, bid: str, blk: Block) -> Iterable[Site]:
        if blk["opcode"] == "event_whenbroadcastreceived":
            yield Site(target_name(target), bid, slot="receiver")
        elif blk["opcode"] in ("event_broadcast", "event_broadcastandwait"):
            inp = blk.get("inputs", {}).get("BROADCAST_INPUT")
            if inp and not is_covered(inp) and shadow_value(target["blocks"], inp) is not None:
                yield Site(target_name(target), bid, slot="sender")

    def mutate(self, project: Project, target: Target, site: Site) -> None:
        blk = target["blocks"][site.block_id]
        new_id, new_name = _declare_fresh_message(project, self._old_name(target, blk))
        if site.slot == "receiver":
            blk["fields"]["BROADCAST_OPTION"] = [new_name, new_id]
            return
        shadow = blk["inputs"]["BROADCAST_INPUT"][1]
        if isinstance(shadow, list):
            blk["inputs"]["BROADCAST_INPUT"][1] = [BROADCAST_PRIM, new_name, new_id]
        else:
            target["blocks"][shadow]["fields"]["BROADCAST_OPTION"] = [new_name, new_id]

    @staticmethod
    def _old_name(target: Target, blk: Block) -> str:
        if blk["opcode"] == "event_whenbroadcastreceived":
            return str(blk["fields"]["BROADCAST_OPTION"][0])
        return shadow_value(target["blocks"], blk["inputs"]["BROADCAST_INPUT"]) or "message"

    def describe(self, project: Project, site: Site, mutant: Project | None = None) -> str:
        target = find_target(project, site.sprite)
        old = self._old_name(target, target["blocks"][site.block_id])
        changed = find_target(mutant or self.apply(project, site), site.sprite)
        new = self._old_name(changed, changed["blocks"][site.block_id])
        return (
            f"renamed message '{old}' to '{new}' in the {site.slot} '{label(project, site)}' "
            f"{where(project, site)}"
        )


def _declare_fresh_message(project: Project, old: str) -> tuple[str, str]:
    """Add a message named like `old` but unused to the stage; return its id and name."""
    stage = stage_of(project)
    broadcasts = stage.setdefault("broadcasts", {})
    names = {str(n).lower() for n in broadcasts.values()}
    ids = {
        i for t in project["targets"] for i in [*t.get("variables", {}), *t.get("broadcasts", {})]
    }
    n = 1
    while f"{old} (mutant {n})".lower() in names:
        n += 1
    m = 1
    while f"mutant-message-{m}" in ids:
        m += 1
    new_id, new_name = f"mutant-message-{m}", f"{old} (mutant {n})"
    broadcasts[new_id] = new_name
    return new_id, new_name


SWAPPABLE = {
    "operator_lt": ("OPERAND1", "OPERAND2"),
    "operator_gt": ("OPERAND1", "OPERAND2"),
    "operator_subtract": ("NUM1", "NUM2"),
    "operator_divide": ("NUM1", "NUM2"),
    "operator_mod": ("NUM1", "NUM2"),
}


class SWO(MutationOperator):
    """Incorrect conditional logic: the operands of < > - / mod are swapped."""

    name = "SWO"
    doc = "Swap Operands: swap the two operands of < > - / mod (when they differ)."

    def sites_at(self, project: Project, target: Target, bid: str, blk: Block) -> Iterable[Site]:
        names = SWAPPABLE.get(blk["opcode"])
        inputs = blk.get("inputs", {})
        if names and all(n in inputs for n in names) and inputs[names[0]] != inputs[names[1]]:
            yield Site(target_name(target), bid)

    def mutate(self, project: Project, target: Target, site: Site) -> None:
        inputs = target["blocks"][site.block_id]["inputs"]
        a, b = SWAPPABLE[target["blocks"][site.block_id]["opcode"]]
        inputs[a], inputs[b] = inputs[b], inputs[a]


CHANGEABLE = {
    "operator_lt": ("OPERAND1", "OPERAND2"),
    "operator_gt": ("OPERAND1", "OPERAND2"),
    "operator_equals": ("OPERAND1", "OPERAND2"),
    "control_repeat": ("TIMES",),
}


def _number(text: str | None) -> Decimal | None:
    try:
        value = Decimal(str(text).strip())
    except (InvalidOperation, ValueError):
        return None
    return value if value.is_finite() and str(text).strip() else None


def _format(value: Decimal) -> str:
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


class CNT(MutationOperator):
    """Changed threshold: a number in a comparison or a repeat count is +1, -1 or doubled."""

    name = "CNT"
    doc = (
        "Change Threshold: a number literal in a comparison or a repeat count becomes +1, -1 or x2."
    )
    changes = ("+1", "-1", "x2")

    def sites_at(self, project: Project, target: Target, bid: str, blk: Block) -> Iterable[Site]:
        for slot in CHANGEABLE.get(blk["opcode"], ()):
            inp = blk.get("inputs", {}).get(slot)
            value = None if is_covered(inp) else _number(shadow_value(target["blocks"], inp))
            if value is None:
                continue
            for change in self.changes:
                after = self._changed(value, change)
                if _format(after) != _format(value) and (slot != "TIMES" or after >= 0):
                    yield Site(target_name(target), bid, slot=slot, option=change)

    @staticmethod
    def _changed(value: Decimal, change: str) -> Decimal:
        return {"+1": value + 1, "-1": value - 1, "x2": value * 2}[change]

    def mutate(self, project: Project, target: Target, site: Site) -> None:
        blocks: dict[str, Any] = target["blocks"]
        inp = blocks[site.block_id]["inputs"][site.slot]
        value = _number(shadow_value(blocks, inp))
        assert value is not None
        set_shadow_value(blocks, inp, _format(self._changed(value, site.option)))


class RCV(RemoveStatement):
    """Sprite state mismatch: a costume or visibility change is removed."""

    name = "RCV"
    doc = "Remove Costume/Visibility change: remove a switch-costume, next-costume, show or hide."
    opcodes = frozenset({"looks_switchcostumeto", "looks_nextcostume", "looks_show", "looks_hide"})
    verb = "removed the costume/visibility change"


class DCD(RemoveStatement):
    """Clone management error: a 'delete this clone' is dropped."""

    name = "DCD"
    doc = "Drop Clone Deletion: remove a 'delete this clone' block."
    opcodes = frozenset({"control_delete_this_clone"})
    verb = "dropped the clone deletion"


SCRATCHEVAL_OPERATORS: tuple[type[MutationOperator], ...] = (MIR, BAW, RWT, RNM, SWO, CNT, RCV, DCD)

"""Mutation operators: the base class, shared shapes, and Whisker's eight operators.

An operator lists the places where it can act (`candidates`) and applies itself to one of them
(`apply`), always on a deep copy. Only code that can run is considered: blocks of scripts that
start with a hat. Every mutant keeps the block table consistent (parent / next / inputs,
topLevel flags, no dangling ids), so the Scratch VM loads it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from studio.services.core.blocks import (
    VAR_PRIM,
    Block,
    Project,
    block_items,
    compact_reporter,
    find_target,
    fresh_id,
    input_block,
    input_shadow,
    is_covered,
    is_hat,
    live_ids,
    remove_script,
    remove_statement,
    script_top,
    shadow_value,
    statements,
    target_name,
    variables_in_scope,
)
from studio.services.core.render import block_label

__all__ = [
    "AOR", "BOOLEAN_SLOTS", "KRM", "LOR", "NCM", "ROR", "SBD", "SDM", "VRM", "WHISKER_OPERATORS",
    "MutationOperator", "OpcodeSwap", "RemoveStatement", "Site", "Target", "label", "where",
]  # fmt: skip

Target = dict[str, Any]


@dataclass(frozen=True)
class Site:
    """Where an operator can act: a block of a sprite, maybe an input or field, maybe a choice."""

    sprite: str
    block_id: str
    slot: str = ""
    option: str = ""


class MutationOperator:
    """A small, named program transformation (one site -> one mutant)."""

    name: ClassVar[str] = ""
    doc: ClassVar[str] = ""

    def candidates(self, project: Project) -> list[Site]:
        """Every site where the operator applies, in a stable order."""
        sites: list[Site] = []
        for target in project["targets"]:
            blocks = target.get("blocks", {})
            live = live_ids(blocks)
            for bid, blk in block_items(blocks):
                if bid in live:
                    sites.extend(self.sites_at(project, target, bid, blk))
        return sites

    def sites_at(self, project: Project, target: Target, bid: str, blk: Block) -> Iterable[Site]:
        raise NotImplementedError

    def apply(self, project: Project, site: Site) -> Project:
        """A mutated deep copy of `project`; the input is left untouched."""
        mutant = copy.deepcopy(project)
        self.mutate(mutant, find_target(mutant, site.sprite), site)
        return mutant

    def mutate(self, project: Project, target: Target, site: Site) -> None:
        raise NotImplementedError

    def describe(self, project: Project, site: Site, mutant: Project | None = None) -> str:
        """What the mutant changes, e.g. "deleted 'move (10) steps' in Cat's '...' script"."""
        after = label(mutant or self.apply(project, site), site)
        return f"changed '{label(project, site)}' to '{after}' {where(project, site)}"


def label(project: Project, site: Site, block_id: str | None = None) -> str:
    return block_label(find_target(project, site.sprite)["blocks"], block_id or site.block_id)


def where(project: Project, site: Site) -> str:
    blocks = find_target(project, site.sprite)["blocks"]
    top = block_label(blocks, script_top(blocks, site.block_id))
    owner = "the Stage" if site.sprite == "Stage" else site.sprite
    return f"in {owner}'s '{top}' script"


class RemoveStatement(MutationOperator):
    """Deletes one statement block of the listed opcodes (all statements if none are listed)."""

    opcodes: ClassVar[frozenset[str]] = frozenset()
    verb: ClassVar[str] = "deleted"
    specific: ClassVar[bool] = True  # False for plain SBD, which may delete any statement

    def candidates(self, project: Project) -> list[Site]:
        sites = []
        for target in project["targets"]:
            blocks = target.get("blocks", {})
            for bid in statements(blocks):
                if self.accepts(blocks, bid):
                    sites.append(Site(target_name(target), bid))
        return sites

    def accepts(self, blocks: dict[str, Any], bid: str) -> bool:
        return not self.opcodes or blocks[bid]["opcode"] in self.opcodes

    def mutate(self, project: Project, target: Target, site: Site) -> None:
        remove_statement(target, site.block_id)

    def describe(self, project: Project, site: Site, mutant: Project | None = None) -> str:
        return f"{self.verb} '{label(project, site)}' {where(project, site)}"


class OpcodeSwap(MutationOperator):
    """Replaces a block's opcode by another of the same group (inputs keep their names)."""

    group: ClassVar[tuple[str, ...]] = ()

    def sites_at(self, project: Project, target: Target, bid: str, blk: Block) -> Iterable[Site]:
        if blk["opcode"] in self.group:
            for other in self.group:
                if other != blk["opcode"]:
                    yield Site(target_name(target), bid, option=other)

    def mutate(self, project: Project, target: Target, site: Site) -> None:
        target["blocks"][site.block_id]["opcode"] = site.option


class KRM(MutationOperator):
    """Key Replacement: a key option in 'when key pressed' or 'key pressed?' becomes another."""

    name = "KRM"
    doc = "Key Replacement: a 'when key pressed' or 'key pressed?' key becomes another key."
    defaults = ("space", "up arrow", "down arrow", "left arrow", "right arrow", "a")
    alternatives = 3

    def _used(self, project: Project) -> list[str]:
        keys = set()
        for target in project["targets"]:
            for _, blk in block_items(target.get("blocks", {})):
                keys.add(self._key(target["blocks"], blk))
        return sorted(k for k in keys if k is not None)

    @staticmethod
    def _key(blocks: dict[str, Any], blk: Block) -> str | None:
        if blk["opcode"] == "event_whenkeypressed":
            return str(blk["fields"]["KEY_OPTION"][0])
        inp = blk.get("inputs", {}).get("KEY_OPTION")
        if blk["opcode"] == "sensing_keypressed" and inp and not is_covered(inp):
            return shadow_value(blocks, inp)
        return None

    def sites_at(self, project: Project, target: Target, bid: str, blk: Block) -> Iterable[Site]:
        own = self._key(target["blocks"], blk)
        if own is None:
            return
        choices = [k for k in [*self._used(project), *self.defaults] if k not in (own, "any")]
        for key in list(dict.fromkeys(choices))[: self.alternatives]:
            yield Site(target_name(target), bid, option=key)

    def mutate(self, project: Project, target: Target, site: Site) -> None:
        blk = target["blocks"][site.block_id]
        if blk["opcode"] == "event_whenkeypressed":
            blk["fields"]["KEY_OPTION"] = [site.option, None]
        else:
            menu = target["blocks"][input_shadow(blk["inputs"]["KEY_OPTION"])]
            menu["fields"]["KEY_OPTION"] = [site.option, None]


class SBD(RemoveStatement):
    """Statement Block Deletion: one statement (and what is nested in it) is deleted."""

    name = "SBD"
    doc = "Statement Block Deletion: delete one statement block (its nested blocks with it)."
    specific = False


class SDM(MutationOperator):
    """Script Deletion: a whole script, from its hat down, is deleted."""

    name = "SDM"
    doc = "Script Deletion: delete a whole script, hat included."

    def sites_at(self, project: Project, target: Target, bid: str, blk: Block) -> Iterable[Site]:
        if is_hat(blk["opcode"]) and blk.get("topLevel"):
            yield Site(target_name(target), bid)

    def mutate(self, project: Project, target: Target, site: Site) -> None:
        remove_script(target, site.block_id)

    def describe(self, project: Project, site: Site, mutant: Project | None = None) -> str:
        owner = "the Stage" if site.sprite == "Stage" else site.sprite
        return f"deleted {owner}'s '{label(project, site)}' script"


class AOR(OpcodeSwap):
    """Arithmetic Operator Replacement: + - * / become one another."""

    name = "AOR"
    doc = "Arithmetic Operator Replacement: swap + - * / for one another."
    group = ("operator_add", "operator_subtract", "operator_multiply", "operator_divide")


class LOR(OpcodeSwap):
    """Logical Operator Replacement: 'and' and 'or' become one another."""

    name = "LOR"
    doc = "Logical Operator Replacement: swap 'and' and 'or'."
    group = ("operator_and", "operator_or")


class ROR(OpcodeSwap):
    """Relational Operator Replacement: = < > become one another (this flips comparators)."""

    name = "ROR"
    doc = "Relational Operator Replacement: swap = < > for one another (flips a comparator)."
    group = ("operator_equals", "operator_lt", "operator_gt")


BOOLEAN_SLOTS = {
    "control_if": ("CONDITION",),
    "control_if_else": ("CONDITION",),
    "control_wait_until": ("CONDITION",),
    "control_repeat_until": ("CONDITION",),
    "operator_and": ("OPERAND1", "OPERAND2"),
    "operator_or": ("OPERAND1", "OPERAND2"),
    "operator_not": ("OPERAND",),
}


class NCM(MutationOperator):
    """Negate Conditional: a condition is wrapped in 'not'."""

    name = "NCM"
    doc = "Negate Conditional Mutation: wrap a condition (a filled boolean slot) in 'not'."

    def sites_at(self, project: Project, target: Target, bid: str, blk: Block) -> Iterable[Site]:
        for slot in BOOLEAN_SLOTS.get(blk["opcode"], ()):
            child = input_block(blk.get("inputs", {}).get(slot))
            if child and child in target["blocks"]:
                yield Site(target_name(target), child, slot=slot)

    def mutate(self, project: Project, target: Target, site: Site) -> None:
        blocks = target["blocks"]
        host = blocks[site.block_id]["parent"]
        not_id = fresh_id(project, f"ncm-{site.block_id}")
        blocks[not_id] = {
            "opcode": "operator_not",
            "next": None,
            "parent": host,
            "inputs": {"OPERAND": [2, site.block_id]},
            "fields": {},
            "shadow": False,
            "topLevel": False,
        }
        blocks[site.block_id]["parent"] = not_id
        blocks[host]["inputs"][site.slot] = [2, not_id]

    def describe(self, project: Project, site: Site, mutant: Project | None = None) -> str:
        return f"negated '<{label(project, site)}>' {where(project, site)}"


class VRM(MutationOperator):
    """Variable Replacement: a variable reference becomes another variable in scope."""

    name = "VRM"
    doc = "Variable Replacement Mutation: a variable reference becomes another variable in scope."

    def sites_at(self, project: Project, target: Target, bid: str, blk: Block) -> Iterable[Site]:
        scope = variables_in_scope(project, target)
        refs = []
        if "VARIABLE" in blk.get("fields", {}):
            refs.append(("field:VARIABLE", blk["fields"]["VARIABLE"][1]))
        for name, inp in blk.get("inputs", {}).items():
            compact = compact_reporter(inp)
            if compact is not None and compact[0] == VAR_PRIM and len(compact) > 2:
                refs.append((f"input:{name}", compact[2]))
        for slot, var_id in refs:
            for other in scope:
                if other != var_id and var_id in scope:
                    yield Site(target_name(target), bid, slot=slot, option=other)

    def mutate(self, project: Project, target: Target, site: Site) -> None:
        name = variables_in_scope(project, target)[site.option]
        blk = target["blocks"][site.block_id]
        kind, slot = site.slot.split(":", 1)
        if kind == "field":
            blk["fields"][slot] = [name, site.option]
        else:
            blk["inputs"][slot][1] = [12, name, site.option]

    def _names(self, project: Project, site: Site) -> tuple[str, str]:
        target = find_target(project, site.sprite)
        blk = target["blocks"][site.block_id]
        kind, slot = site.slot.split(":", 1)
        old = blk["fields"][slot][0] if kind == "field" else blk["inputs"][slot][1][1]
        return str(old), variables_in_scope(project, target)[site.option]

    def describe(self, project: Project, site: Site, mutant: Project | None = None) -> str:
        old, new = self._names(project, site)
        return (
            f"replaced variable '{old}' with '{new}' in '{label(project, site)}' "
            f"{where(project, site)}"
        )


WHISKER_OPERATORS: tuple[type[MutationOperator], ...] = (KRM, SBD, SDM, AOR, LOR, ROR, NCM, VRM)

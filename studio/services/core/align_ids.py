"""Giving a project's blocks the ids of their counterparts in another version of it.

Two versions of a program written apart (a debug task's initial and golden projects) often
number their blocks independently: a block inserted near the top shifts every id after it, and
no patch of atomic edits addressed by id turns one into the other, though the change is one
added block. `align_ids(before, after)` renames the blocks of `after`, per target, to the ids
of the blocks of `before` they correspond to, so that `core.patch.patch_between(before,
aligned)` finds the small patch.

Correspondence: each target's blocks are read in one order (scripts in table order, each depth
first: a block, the blocks nested in its inputs, then its next block), and a block's signature
is its opcode, fields and whether it is a shadow. The longest matching of the two signature
sequences (difflib's, without junk heuristics) pairs blocks; a paired block of `after` takes
its partner's id, and a block of `after` left unpaired whose id `before` uses for another block
gets a fresh one. Only ids change: the code of the result is `after`'s.
"""

from __future__ import annotations

import copy
import difflib
import json
from typing import Any

from studio.services.core.blocks import Blocks, Project, child_refs, scripts, target_name

__all__ = ["align_ids"]


def _order(blocks: Blocks) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()

    def visit(bid: str | None) -> None:
        while bid and isinstance(blocks.get(bid), dict) and bid not in seen:
            seen.add(bid)
            out.append(bid)
            for child in child_refs(blocks[bid]):
                visit(child)
            bid = blocks[bid].get("next")

    for top in scripts(blocks):
        visit(top)
    return out


def _signature(block: dict[str, Any]) -> str:
    fields = {
        k: (v[0] if isinstance(v, list) and v else v) for k, v in block.get("fields", {}).items()
    }
    return json.dumps([block.get("opcode"), fields, bool(block.get("shadow"))], sort_keys=True)


def _rename(blocks: Blocks, mapping: dict[str, str]) -> Blocks:
    """`blocks` with ids renamed by `mapping` (as keys and wherever a block refers to one)."""
    text = json.dumps(blocks)
    temps = {old: f"\u0000align-{n}\u0000" for n, old in enumerate(mapping)}
    for old, temp in temps.items():
        text = text.replace(json.dumps(old), json.dumps(temp))
    for old, temp in temps.items():
        text = text.replace(json.dumps(temp), json.dumps(mapping[old]))
    renamed: Blocks = json.loads(text)
    return renamed


def align_ids(before: Project, after: Project) -> Project:
    """A copy of `after` whose blocks carry the ids of their counterparts in `before`."""
    out = copy.deepcopy(after)
    olds = {target_name(t): t.get("blocks") or {} for t in before.get("targets", [])}
    for target in out.get("targets", []):
        b0 = olds.get(target_name(target))
        b1: Blocks = target.get("blocks") or {}
        if not b0 or not b1:
            continue
        o0, o1 = _order(b0), _order(b1)
        s0 = [_signature(b0[b]) for b in o0]
        s1 = [_signature(b1[b]) for b in o1]
        mapping: dict[str, str] = {}
        matcher = difflib.SequenceMatcher(None, s0, s1, autojunk=False)
        for a, b, size in matcher.get_matching_blocks():
            for k in range(size):
                mapping[o1[b + k]] = o0[a + k]
        taken = set(b0) | set(b1)
        used = set(mapping.values())
        for bid in b1:
            if bid not in mapping and (bid in used or bid in b0):
                n = 1
                while f"{bid}~{n}" in taken:
                    n += 1
                mapping[bid] = f"{bid}~{n}"
                taken.add(mapping[bid])
        if any(k != v for k, v in mapping.items()):
            target["blocks"] = _rename(b1, {k: v for k, v in mapping.items() if k != v})
    return out

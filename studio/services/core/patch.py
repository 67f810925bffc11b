"""Applying repair patches to project.json, the minimal patch between two projects, d_edit.

`apply_patch(project, patch)` returns a patched deep copy or raises PatchError naming the edit
(index from 1) and the problem: an unknown sprite or block id, an id already taken, an opcode
the studio does not know, a field or input the block does not have, a link that is not what
the edit says is there, a cycle. Edits apply in order to the copy; afterwards blocks nested in
removed blocks that no edit attached elsewhere go, and every parent link is recomputed from the
`next` and input references, so the patched table is consistent. The input is never touched.

`patch_between(before, after)` is the minimal patch that turns `before` into `after` in this
edit language (removes of blocks `after` lacks, adds of blocks it gains, then changes of
opcode, fields and inputs of blocks both have), or None when no patch of these edits
reproduces `after` (checked by applying it). `same_code` compares two projects' blocks
(positions and parent links aside). `normal_edits` turns a patch into a set of comparable
strings (an added block is named by its content and place, not by its new id) and `d_edit`
is |E_gold Δ E_model|, ScratchEval's edit distance.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import ValidationError

from studio.models.patch import PATCH_ADAPTER, AddEdit, ChangeEdit, Edit, PatchError, RemoveEdit
from studio.services.core.blocks import (
    Blocks,
    Project,
    block_items,
    child_refs,
    input_block,
    input_holding,
    is_hat,
    subtree,
    target_name,
)
from studio.services.core.render import TEMPLATES

__all__ = [
    "apply_patch",
    "canonical_code",
    "d_edit",
    "known_opcode",
    "match_replaced",
    "normal_edits",
    "parse_patch",
    "patch_between",
    "same_code",
]

_SHADOWS = frozenset(
    {
        "math_number",
        "math_positive_number",
        "math_whole_number",
        "math_integer",
        "math_angle",
        "text",
        "colour_picker",
        "event_broadcast_menu",
        "matrix",
        "note",
        "looks_costume",
        "looks_backdrops",
        "sound_sounds_menu",
    }
)
_MENU = re.compile(r"^[a-z0-9]+_[a-z0-9_]*(menu|options)$|^[a-z0-9]+_menu_[a-z0-9_]+$")


def known_opcode(opcode: str, project: Project) -> bool:
    """An opcode the studio knows, a shadow or menu opcode, or one the project already uses."""
    if opcode in TEMPLATES or opcode in _SHADOWS or _MENU.match(opcode):
        return True
    return any(b.get("opcode") == opcode for t in project["targets"] for _, b in _items(t))


def parse_patch(data: Any) -> list[Edit]:
    """Edits from JSON (a list, or {"edits": [...]}); PatchError naming the bad edit."""
    raw = data.get("edits") if isinstance(data, dict) else data
    if not isinstance(raw, list):
        raise PatchError('a patch is a list of edits (or {"edits": [...]})')
    try:
        return PATCH_ADAPTER.validate_python(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = [str(p) for p in err["loc"]]
        index = f"edit {int(loc[0]) + 1}" if loc and loc[0].isdigit() else "the patch"
        raise PatchError(f"{index}: {'.'.join(loc[1:]) or 'edit'}: {err['msg']}") from None


def _items(target: dict[str, Any]) -> Iterable[tuple[str, dict[str, Any]]]:
    return block_items(target.get("blocks", {}))


def _target(project: Project, sprite: str, where: str) -> dict[str, Any]:
    for t in project["targets"]:
        if target_name(t) == sprite:
            return t
    raise PatchError(f"{where}: no sprite named {sprite!r}")


def apply_patch(project: Project, edits: Sequence[Edit]) -> Project:
    """A patched deep copy of `project`; PatchError names the first edit that does not apply."""
    out = copy.deepcopy(project)
    removed: dict[str, set[str]] = {}
    for index, edit in enumerate(edits, 1):
        where = f"edit {index} ({edit.op} {edit.block_id!r} of {edit.sprite!r})"
        target = _target(out, edit.sprite, where)
        blocks = target.setdefault("blocks", {})
        if isinstance(edit, RemoveEdit):
            _remove(blocks, edit, where, removed.setdefault(edit.sprite, set()))
        elif isinstance(edit, AddEdit):
            _add(out, blocks, edit, where)
        else:
            _change(out, blocks, edit, where)
    for target in out["targets"]:
        _settle(target, removed.get(target_name(target), set()))
    return out


def _need(blocks: Blocks, bid: str | None, where: str, role: str = "block") -> dict[str, Any]:
    blk = blocks.get(bid) if bid else None
    if not isinstance(blk, dict):
        raise PatchError(f"{where}: no {role} {bid!r} in this sprite")
    return blk


def _remove(blocks: Blocks, edit: RemoveEdit, where: str, removed: set[str]) -> None:
    blk = _need(blocks, edit.block_id, where)
    bid = edit.block_id
    holder = next((p for p, b in block_items(blocks) if b.get("next") == bid), None)
    slot_owner = next((p for p, b in block_items(blocks) if bid in child_refs(b)), None)
    nxt = blk.get("next")
    if is_hat(str(blk.get("opcode"))) and holder is None and slot_owner is None:
        removed.update(subtree(blocks, bid, with_next=True))
        for gone in subtree(blocks, bid, with_next=True):
            blocks.pop(gone, None)
        return
    if holder is not None:
        blocks[holder]["next"] = nxt
    elif slot_owner is not None:
        owner = blocks[slot_owner]
        name = input_holding(owner, bid)
        assert name is not None
        inp = owner["inputs"][name]
        if nxt:
            owner["inputs"][name] = [2, nxt]
        elif inp[0] == 3 and len(inp) > 2:
            owner["inputs"][name] = [1, inp[2]]
        elif inp[0] == 1 or (len(inp) > 2 and inp[2] == bid):
            raise PatchError(f"{where}: the block is the shadow of an input; change the input")
        else:
            del owner["inputs"][name]
    elif nxt and isinstance(blocks.get(nxt), dict):
        blocks[nxt].update(topLevel=True, x=blk.get("x", 0), y=blk.get("y", 0))
    removed.add(bid)
    blocks.pop(bid)


def _add(project: Project, blocks: Blocks, edit: AddEdit, where: str) -> None:
    new = {edit.block_id: edit.block, **edit.children}
    for bid, blk in new.items():
        if bid in blocks:
            raise PatchError(f"{where}: block id {bid!r} is already taken")
        if not isinstance(blk.get("opcode"), str) or not known_opcode(blk["opcode"], project):
            raise PatchError(f"{where}: unknown opcode {blk.get('opcode')!r} in block {bid!r}")
        for key, kind in (("inputs", dict), ("fields", dict)):
            if not isinstance(blk.get(key, {}), kind):
                raise PatchError(f"{where}: {key} of block {bid!r} must be an object")
    block = copy.deepcopy(edit.block)
    block.update(next=edit.next, parent=edit.parent, topLevel=edit.parent is None)
    block.setdefault("inputs", {})
    block.setdefault("fields", {})
    block.setdefault("shadow", False)
    if edit.parent is None:
        block.setdefault("x", 0)
        block.setdefault("y", 0)
        if edit.next is not None:
            nxt = _need(blocks, edit.next, where, "next block")
            if nxt.get("parent"):
                raise PatchError(f"{where}: next block {edit.next!r} is not the head of a script")
            nxt["topLevel"] = False
    else:
        parent = _need(blocks, edit.parent, where, "parent block")
        if edit.input is None:
            there = parent.get("next")
        else:
            there = input_block(parent.get("inputs", {}).get(edit.input))
        if there != edit.next:
            slot = f"input {edit.input}" if edit.input else "next block"
            raise PatchError(f"{where}: the parent's {slot} is {there!r}, not {edit.next!r}")
        if edit.input is None:
            parent["next"] = edit.block_id
        else:
            parent.setdefault("inputs", {})[edit.input] = [2, edit.block_id]
    for bid, child in edit.children.items():
        blocks[bid] = copy.deepcopy(child)
    blocks[edit.block_id] = block
    for bid in new:
        for ref in child_refs(blocks[bid]):
            if ref not in blocks:
                raise PatchError(f"{where}: block {bid!r} refers to a missing block {ref!r}")


def _change(project: Project, blocks: Blocks, edit: ChangeEdit, where: str) -> None:
    blk = _need(blocks, edit.block_id, where)
    kind, _, name = edit.what.partition(":")
    if kind == "opcode":
        if not isinstance(edit.value, str) or not known_opcode(edit.value, project):
            raise PatchError(f"{where}: unknown opcode {edit.value!r}")
        blk["opcode"] = edit.value
    elif kind == "field":
        if name not in blk.get("fields", {}):
            raise PatchError(f"{where}: the block has no field {name!r}")
        value = edit.value
        if not (isinstance(value, list) and 1 <= len(value) <= 2):
            raise PatchError(f"{where}: a field value is [value] or [value, id], not {value!r}")
        blk["fields"][name] = list(value) if len(value) == 2 else [value[0], None]
    else:
        value = edit.value
        if value is None:
            blk.get("inputs", {}).pop(name, None)
            return
        if not (isinstance(value, list) and len(value) >= 2 and value[0] in (1, 2, 3)):
            raise PatchError(f"{where}: an input is [1|2|3, block or value, ...], not {value!r}")
        for ref in (r for r in value[1:3] if isinstance(r, str)):
            _need(blocks, ref, where, "block in the input")
        blk.setdefault("inputs", {})[name] = copy.deepcopy(value)


def _settle(target: dict[str, Any], removed: set[str]) -> None:
    """Drop orphans of removed blocks, recompute parent links, refuse cycles."""
    blocks = target.get("blocks", {})
    referenced = {r for _, b in block_items(blocks) for r in [*child_refs(b), b.get("next")] if r}
    changed = True
    while changed:
        changed = False
        for bid, blk in list(block_items(blocks)):
            if bid not in referenced and blk.get("parent") in removed and not blk.get("topLevel"):
                removed.add(bid)
                blocks.pop(bid)
                changed = True
        referenced = {
            r for _, b in block_items(blocks) for r in [*child_refs(b), b.get("next")] if r
        }
    parents: dict[str, str] = {}
    for bid, blk in block_items(blocks):
        for ref in [*child_refs(blk), blk.get("next")]:
            if ref and isinstance(blocks.get(ref), dict):
                if ref in parents and parents[ref] != bid:
                    raise PatchError(
                        f"the patch gives block {ref!r} of {target_name(target)!r} two parents"
                    )
                parents[ref] = bid
    for bid, blk in block_items(blocks):
        blk["parent"] = parents.get(bid)
        if bid in parents:
            blk["topLevel"] = False
            blk.pop("x", None)
            blk.pop("y", None)
        elif not blk.get("topLevel"):
            blk.update(topLevel=True, x=0, y=0)
    for start in parents:
        seen, cur = set(), start
        while cur in parents:
            if cur in seen:
                raise PatchError(f"the patch makes a cycle through block {cur!r}")
            seen.add(cur)
            cur = parents[cur]


def canonical_code(project: Project) -> dict[str, dict[str, Any]]:
    """Per sprite, its blocks without positions or parent links (what runs, not where)."""
    out: dict[str, dict[str, Any]] = {}
    for t in project["targets"]:
        out[target_name(t)] = {
            bid: {k: v for k, v in b.items() if k not in ("x", "y", "parent", "comment")}
            for bid, b in _items(t)
        }
    return out


def same_code(a: Project, b: Project) -> bool:
    return canonical_code(a) == canonical_code(b)


def _place(blocks: Blocks, bid: str) -> tuple[str | None, str | None, str | None]:
    """Where a block hangs: (parent, input name or None for a stack, next)."""
    parent = blocks[bid].get("parent")
    slot = input_holding(blocks[parent], bid) if parent in blocks else None
    return parent, slot, blocks[bid].get("next")


def match_replaced(before: Project, after: Project) -> Project:
    """`after` with each block that replaces a removed block in the same place (same parent,
    same input or stack position, same next) renamed to the removed block's id, nested input
    blocks too (by input name): a block deleted and re-added in place, as an editor does it,
    then reads as the changes it amounts to. Nothing else changes."""
    out = copy.deepcopy(after)
    for t_after in out["targets"]:
        try:
            b0 = _target(before, target_name(t_after), "").get("blocks", {})
        except PatchError:
            continue
        b1 = t_after.get("blocks", {})
        gone = {_place(b0, bid): bid for bid in b0 if bid not in b1}
        rename: dict[str, str] = {}
        for bid in [b for b in b1 if b not in b0]:
            old = gone.get(_place(b1, bid))
            if old is not None and b0[old].get("shadow") == b1[bid].get("shadow"):
                rename[bid] = old
                todo = [(bid, old)]
                while todo:
                    new_id, old_id = todo.pop()
                    for name, inp in b1[new_id].get("inputs", {}).items():
                        kid = input_block(inp)
                        was = input_block(b0[old_id].get("inputs", {}).get(name))
                        if kid is None or was is None:
                            continue
                        if kid in b1 and kid not in b0 and was in b0 and was not in b1:
                            rename[kid] = was
                            todo.append((kid, was))
        if rename:
            text = json.dumps(b1)
            for new_id, old_id in rename.items():
                text = text.replace(json.dumps(new_id), json.dumps(old_id))
            t_after["blocks"] = json.loads(text)
    return out


def patch_between(before: Project, after: Project) -> list[Edit] | None:
    """The minimal edits turning `before` into `after`, or None when edits cannot do it."""
    edits: list[Edit] = []
    for t_after in after["targets"]:
        sprite = target_name(t_after)
        try:
            t_before = _target(before, sprite, "")
        except PatchError:
            return None
        b0, b1 = t_before.get("blocks", {}), t_after.get("blocks", {})
        gone = [bid for bid in b0 if bid not in b1]
        edits += [RemoveEdit(sprite=sprite, block_id=bid) for bid in gone if _root(b0, bid, gone)]
        edits += _adds(sprite, b1, [bid for bid in b1 if bid not in b0])
    try:
        mid = apply_patch(before, edits)
    except PatchError:
        return None
    for t_after in after["targets"]:
        sprite = target_name(t_after)
        b0, b1 = _target(mid, sprite, "").get("blocks", {}), t_after.get("blocks", {})
        for bid, blk in block_items(b1):
            if bid in b0:
                edits += _changes(sprite, bid, b0[bid], blk)
    try:
        ok = same_code(apply_patch(before, edits), after)
    except PatchError:
        return None
    return edits if ok else None


def _root(blocks: Blocks, bid: str, gone: list[str]) -> bool:
    """Removing `bid` is its own edit (not implied by removing its parent)."""
    parent = blocks[bid].get("parent")
    if not parent or parent not in gone:
        return True
    if bid in child_refs(blocks[parent]):
        return False
    top = parent
    while blocks.get(top, {}).get("parent"):
        top = blocks[top]["parent"]
    return not (is_hat(str(blocks[top].get("opcode"))) and top in gone)


def _adds(sprite: str, blocks: Blocks, new: list[str]) -> list[Edit]:
    nested = {c for bid in new for c in subtree(blocks, bid) if c != bid}
    out: list[Edit] = []
    placed: set[str] = set()
    todo = [bid for bid in new if bid not in nested]
    while todo:  # parents first, so every add finds its parent
        ready = [b for b in todo if blocks[b].get("parent") not in todo]
        if not ready:
            ready = todo[:1]
        for bid in ready:
            blk = blocks[bid]
            parent = blk.get("parent")
            slot = input_holding(blocks[parent], bid) if parent else None
            kids = {c: copy.deepcopy(blocks[c]) for c in subtree(blocks, bid) if c != bid}
            body = {k: copy.deepcopy(v) for k, v in blk.items() if k not in ("parent", "next")}
            nxt = input_block(blocks[parent]["inputs"][slot]) if slot else None
            out.append(
                AddEdit(
                    sprite=sprite,
                    block_id=bid,
                    block=body,
                    children=kids,
                    parent=parent,
                    input=slot,
                    next=blk.get("next") if not slot else _after(blocks, bid, nxt),
                )
            )
            placed.add(bid)
            todo.remove(bid)
    return out


def _after(blocks: Blocks, bid: str, current: str | None) -> str | None:
    return blocks[bid].get("next") if current == bid else current


def _changes(sprite: str, bid: str, old: dict[str, Any], new: dict[str, Any]) -> list[Edit]:
    out: list[Edit] = []
    if old.get("opcode") != new.get("opcode"):
        out.append(ChangeEdit(sprite=sprite, block_id=bid, what="opcode", value=new["opcode"]))
    f0, f1 = old.get("fields", {}), new.get("fields", {})
    for name in sorted(set(f0) | set(f1)):
        if f0.get(name) != f1.get(name) and name in f1:
            out.append(
                ChangeEdit(sprite=sprite, block_id=bid, what=f"field:{name}", value=f1[name])
            )
    i0, i1 = old.get("inputs", {}), new.get("inputs", {})
    for name in sorted(set(i0) | set(i1)):
        if i0.get(name) != i1.get(name):
            out.append(
                ChangeEdit(sprite=sprite, block_id=bid, what=f"input:{name}", value=i1.get(name))
            )
    return out


def _content(blocks: dict[str, dict[str, Any]], bid: Any) -> Any:
    """A block by what it is (opcode, fields, inputs' contents), its id left out."""
    blk = blocks.get(bid) if isinstance(bid, str) else None
    if blk is None:
        return bid
    inputs = {
        name: [inp[0], *(_content(blocks, r) for r in inp[1:])] if isinstance(inp, list) else inp
        for name, inp in sorted(blk.get("inputs", {}).items())
    }
    return {"opcode": blk.get("opcode"), "fields": blk.get("fields", {}), "inputs": inputs}


def normal_edits(edits: Sequence[Edit]) -> set[str]:
    """Each edit as a comparable string; an add is named by content, parent, slot and next."""
    out: set[str] = set()
    for e in edits:
        if isinstance(e, AddEdit):
            blocks = {e.block_id: e.block, **e.children}
            key: Any = ["add", e.sprite, _content(blocks, e.block_id), e.parent, e.input, e.next]
        elif isinstance(e, ChangeEdit):
            key = ["change", e.sprite, e.block_id, e.what, e.value]
        else:
            key = ["remove", e.sprite, e.block_id]
        out.add(json.dumps(key, sort_keys=True))
    return out


def d_edit(gold: Sequence[Edit], model: Sequence[Edit]) -> int:
    """|E_gold Δ E_model|: gold edits the model missed plus edits it made that gold has not."""
    return len(normal_edits(gold) ^ normal_edits(model))

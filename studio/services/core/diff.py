"""Block-level diff of two Scratch 3 projects: atomic add / remove / modify edits per sprite.

Sprites are matched by name (the stage as "Stage"). Blocks are matched by structure, not only by
id, because projects built from source number their blocks by position: scripts pair up by their
hat and content, stacks are aligned like sequences (same opcode required, same content and same
id preferred), and reporters pair up slot by slot. Blocks left over on both sides with the same
id and opcode are then paired as moved. Shadows (literals, menus) belong to their parent block:
changing a literal modifies the parent. An added or removed block carries its own linkage, so
its neighbours are not reported as moved.
"""

from __future__ import annotations

import json
from typing import Any

from studio.models.diff import BlockEdit, Change, ChangeKind, EditKind, ProjectDiff
from studio.services.core.blocks import (
    Blocks,
    Project,
    block_items,
    chain,
    compact_reporter,
    input_block,
    relation,
    scripts,
    shadow_value,
    subtree,
    target_name,
)
from studio.services.core.render import block_label

__all__ = [
    "Matcher", "Side", "block_types_used", "blocks_changed", "changed_block_ids",
    "changed_blocks_by_sprite", "diff_projects", "distance", "edit_distance",
]  # fmt: skip


class Side:
    """One target's block table with cached signatures."""

    def __init__(self, target: dict[str, Any] | None) -> None:
        raw = (target or {}).get("blocks", {})
        self.blocks: Blocks = {bid: blk for bid, blk in block_items(raw)}
        self._sigs: dict[str, str] = {}

    def real(self) -> list[str]:
        return [bid for bid, blk in self.blocks.items() if not blk.get("shadow")]

    def opcode(self, bid: str) -> str:
        return str(self.blocks[bid]["opcode"])

    def values(self, bid: str) -> dict[str, str | None]:
        """Field values and literal input values of a block (not its nested blocks)."""
        blk = self.blocks[bid]
        out: dict[str, str | None] = {}
        for name, field in blk.get("fields", {}).items():
            out[f"field:{name}"] = str(field[0]) if field else None
        for name, inp in blk.get("inputs", {}).items():
            if not name.startswith("SUBSTACK"):
                compact = compact_reporter(inp)
                literal = shadow_value(self.blocks, inp)
                out[f"input:{name}"] = f"({compact[1]})" if compact else literal
        proccode = (blk.get("mutation") or {}).get("proccode")
        if proccode is not None:
            out["field:proccode"] = str(proccode)
        return out

    def sig(self, bid: str) -> str:
        if bid not in self._sigs:
            values = sorted(self.values(bid).items())
            self._sigs[bid] = json.dumps([self.opcode(bid), values])
        return self._sigs[bid]

    def substacks(self, bid: str) -> dict[str, list[str]]:
        inputs = self.blocks[bid].get("inputs", {})
        return {
            n: chain(self.blocks, input_block(i))
            for n, i in inputs.items()
            if n.startswith("SUBSTACK")
        }

    def reporters(self, bid: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for name, inp in self.blocks[bid].get("inputs", {}).items():
            ref = input_block(inp) if isinstance(inp, list) and inp[0] in (2, 3) else None
            if ref is None or ref not in self.blocks or name.startswith("SUBSTACK"):
                continue
            if not self.blocks[ref].get("shadow"):
                out[name] = ref
        return out


class Matcher:
    """Pairs the blocks of an old and a new target."""

    def __init__(self, old: Side, new: Side) -> None:
        self.old, self.new = old, new
        self.pairs: dict[str, str] = {}
        self.paired_new: set[str] = set()

    def run(self) -> dict[str, str]:
        self._match_scripts()
        self._match_leftovers_by_id()
        return self.pairs

    def _score(self, a: str, b: str) -> int:
        same_op = self.old.opcode(a) == self.new.opcode(b)
        if not same_op:
            return 1 if a == b else 0
        return 2 + 2 * (self.old.sig(a) == self.new.sig(b)) + (a == b)

    def _match_scripts(self) -> None:
        olds, news = scripts(self.old.blocks), scripts(self.new.blocks)
        old_content = {t: self._content(self.old, t) for t in olds}
        new_content = {t: self._content(self.new, t) for t in news}
        scored = []
        for i, a in enumerate(olds):
            for j, b in enumerate(news):
                head = self._score(a, b)
                if head:
                    common = _multiset_common(old_content[a], new_content[b])
                    scored.append((-(10 * head + common), i, j, a, b))
        for *_, a, b in sorted(scored):
            if a not in self.pairs and b not in self.paired_new:
                self._align(chain(self.old.blocks, a), chain(self.new.blocks, b))

    @staticmethod
    def _content(side: Side, top: str) -> list[str]:
        return [side.sig(b) for b in subtree(side.blocks, top, with_next=True) if b in side.blocks]

    def _align(self, olds: list[str], news: list[str]) -> None:
        """Pair two stacks by the best-scoring order-preserving alignment."""
        n, m = len(olds), len(news)
        best = [[0] * (m + 1) for _ in range(n + 1)]
        for i in range(n - 1, -1, -1):
            for j in range(m - 1, -1, -1):
                s = self._score(olds[i], news[j])
                take = best[i + 1][j + 1] + s if s else -1
                best[i][j] = max(take, best[i + 1][j], best[i][j + 1])
        i = j = 0
        while i < n and j < m:
            s = self._score(olds[i], news[j])
            if s and best[i][j] == best[i + 1][j + 1] + s:
                self._pair(olds[i], news[j])
                i, j = i + 1, j + 1
            elif best[i][j] == best[i + 1][j]:
                i += 1
            else:
                j += 1

    def _pair(self, a: str, b: str) -> None:
        if a in self.pairs or b in self.paired_new:
            return
        self.pairs[a] = b
        self.paired_new.add(b)
        old_subs, new_subs = self.old.substacks(a), self.new.substacks(b)
        for name in old_subs.keys() & new_subs.keys():
            self._align(old_subs[name], new_subs[name])
        old_reps, new_reps = self.old.reporters(a), self.new.reporters(b)
        for name in old_reps.keys() & new_reps.keys():
            if self._score(old_reps[name], new_reps[name]):
                self._pair(old_reps[name], new_reps[name])

    def _match_leftovers_by_id(self) -> None:
        for bid in self.old.real():
            if bid in self.pairs or bid in self.paired_new or bid not in self.new.blocks:
                continue
            if not self.new.blocks[bid].get("shadow") and self.old.opcode(bid) == self.new.opcode(
                bid
            ):
                self._pair(bid, bid)


def _multiset_common(a: list[str], b: list[str]) -> int:
    counts: dict[str, int] = {}
    for x in a:
        counts[x] = counts.get(x, 0) + 1
    common = 0
    for x in b:
        if counts.get(x, 0) > 0:
            counts[x] -= 1
            common += 1
    return common


class _SpriteDiff:
    """The edits of one sprite, given the pairing of its blocks."""

    def __init__(self, sprite: str, old: Side, new: Side) -> None:
        self.sprite, self.old, self.new = sprite, old, new
        self.pairs = Matcher(old, new).run()
        self.back = {b: a for a, b in self.pairs.items()}
        self._moved_memo: dict[str, bool] = {}
        self._in_progress: set[str] = set()

    def edits(self) -> list[BlockEdit]:
        out = [self._removed(a) for a in self.old.real() if a not in self.pairs]
        for b in self.new.real():
            if b not in self.back:
                out.append(self._added(b))
            else:
                changes = self._changes(self.back[b], b)
                if changes:
                    out.append(self._modified(self.back[b], b, changes))
        return out

    def _skippable(self, side: Side, parent: str) -> bool:
        """Unmatched or moved blocks: their linkage belongs to their own edit."""
        if side is self.old:
            return parent not in self.pairs or self._moved(parent)
        return parent not in self.back or self._moved(self.back[parent])

    def _context(self, side: Side, bid: str) -> tuple[str | None, str]:
        """Where a block hangs, skipping added, removed or moved blocks above it in its stack."""
        parent, rel = relation(side.blocks, bid)
        while parent is not None and rel == "next" and self._skippable(side, parent):
            parent, rel = relation(side.blocks, parent)
        return parent, rel

    def _moved(self, a: str) -> bool:
        """Whether paired block `a` hangs somewhere else (cycles, as in a swap, count once)."""
        if a not in self._moved_memo:
            if a in self._in_progress:
                return False
            self._in_progress.add(a)
            old_parent, old_rel = self._context(self.old, a)
            new_parent, new_rel = self._context(self.new, self.pairs[a])
            same = old_rel == new_rel and (
                self.pairs.get(old_parent) == new_parent if old_parent else new_parent is None
            )
            self._in_progress.discard(a)
            self._moved_memo[a] = not same
        return self._moved_memo[a]

    def _anchor(self, bid: str) -> str:
        """The new-side context of a block, in old-side terms (for comparable edit keys)."""
        parent, rel = self._context(self.new, bid)
        if parent is None:
            return "top"
        if parent in self.back:
            return f"{rel}@{self.back[parent]}"
        return f"{rel}@+{self.new.sig(parent)}"

    def _where(self, side: Side, ctx: tuple[str | None, str]) -> str:
        parent, rel = ctx
        if parent is None:
            return "top of a script"
        label = block_label(side.blocks, parent)
        return f"after '{label}'" if rel == "next" else f"in {rel} of '{label}'"

    def _changes(self, a: str, b: str) -> list[Change]:
        changes: list[Change] = []
        old_op, new_op = self.old.opcode(a), self.new.opcode(b)
        if old_op != new_op:
            changes.append(
                Change(kind=ChangeKind.OPCODE, name="opcode", before=old_op, after=new_op)
            )
        before, after = self.old.values(a), self.new.values(b)
        for slot in sorted(before.keys() | after.keys()):
            if before.get(slot) != after.get(slot):
                kind, name = slot.split(":", 1)
                old, now = before.get(slot), after.get(slot)
                changes.append(Change(kind=ChangeKind(kind), name=name, before=old, after=now))
        if self._moved(a):
            old_where = self._where(self.old, self._context(self.old, a))
            new_where = self._where(self.new, self._context(self.new, b))
            changes.append(
                Change(kind=ChangeKind.MOVED, name="parent", before=old_where, after=new_where)
            )
        return changes

    def _edit(self, kind: EditKind, side: Side, bid: str, base: str | None, key: str) -> BlockEdit:
        return BlockEdit(
            kind=kind,
            sprite=self.sprite,
            block_id=bid,
            base_id=base,
            opcode=side.opcode(bid),
            text=block_label(side.blocks, bid),
            key=f"{kind.value}|{self.sprite}|{key}",
        )

    def _removed(self, a: str) -> BlockEdit:
        return self._edit(EditKind.REMOVE, self.old, a, a, a)

    def _added(self, b: str) -> BlockEdit:
        return self._edit(EditKind.ADD, self.new, b, None, f"{self.new.sig(b)}|{self._anchor(b)}")

    def _modified(self, a: str, b: str, changes: list[Change]) -> BlockEdit:
        parts = sorted(
            f"{c.kind.value}:{c.name}={self._anchor(b) if c.kind is ChangeKind.MOVED else c.after}"
            for c in changes
        )
        edit = self._edit(EditKind.MODIFY, self.new, b, a, f"{a}|{';'.join(parts)}")
        edit.changes = changes
        return edit


def _targets(project: Project) -> dict[str, dict[str, Any]]:
    return {target_name(t): t for t in project.get("targets", [])}


def diff_projects(old: Project, new: Project) -> ProjectDiff:
    """The atomic block edits that turn project.json `old` into `new`."""
    olds, news = _targets(old), _targets(new)
    names = [*olds, *(n for n in news if n not in olds)]
    edits: list[BlockEdit] = []
    for name in names:
        edits.extend(_SpriteDiff(name, Side(olds.get(name)), Side(news.get(name))).edits())
    return ProjectDiff(edits=edits)


def distance(old: Project, new: Project) -> int:
    """The number of atomic block edits between two projects."""
    return diff_projects(old, new).distance


def edit_distance(a: ProjectDiff, b: ProjectDiff) -> int:
    """d_edit = |E_a symmetric-difference E_b| for two diffs that start from the same project."""
    return a.edit_distance(b)


def changed_blocks_by_sprite(initial: Project, golden: Project) -> dict[str, set[str]]:
    """Per sprite, the ids of golden blocks that golden adds or modifies relative to initial."""
    out: dict[str, set[str]] = {}
    for edit in diff_projects(initial, golden).edits:
        if edit.kind is not EditKind.REMOVE:
            out.setdefault(edit.sprite, set()).add(edit.block_id)
    return out


def changed_block_ids(initial: Project, golden: Project) -> set[str]:
    """The ids of golden blocks that golden adds or modifies relative to initial."""
    return {bid for ids in changed_blocks_by_sprite(initial, golden).values() for bid in ids}


def blocks_changed(initial: Project, golden: Project) -> int:
    """How many blocks golden adds, removes or modifies relative to initial."""
    return distance(initial, golden)


def block_types_used(project: Project) -> list[str]:
    """Sorted opcodes of the non-shadow blocks of a project (compact reporters included)."""
    used: set[str] = set()
    for target in project.get("targets", []):
        for blk in target.get("blocks", {}).values():
            if isinstance(blk, list) and blk:
                used.add("data_variable" if blk[0] == 12 else "data_listcontents")
            elif isinstance(blk, dict) and not blk.get("shadow"):
                used.add(str(blk["opcode"]))
                for inp in blk.get("inputs", {}).values():
                    compact = compact_reporter(inp)
                    if compact is not None:
                        used.add("data_variable" if compact[0] == 12 else "data_listcontents")
    return sorted(used)

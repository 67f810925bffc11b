"""Side-by-side comparison of two Scratch projects, for people: pseudocode lines per target
(sprite or stage) aligned like a two-column text diff, plus a block-level summary.

The rows come from difflib on the pseudocode of `mutation.render`; the counts come from the
block-level diff of `mutation.diff`, so "1 block added" means one atomic edit, whatever it does
to the indentation of the lines around it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from studio.models.diff import EditKind, ProjectDiff
from studio.services.core.diff import block_types_used, diff_projects
from studio.services.core.render import render_project

__all__ = [
    "DiffRow", "DiffSummary", "Project", "ProjectComparison", "RowKind", "TargetDiff",
    "align_lines", "compare_projects",
]  # fmt: skip

Project = dict[str, Any]


class RowKind(StrEnum):
    """How one aligned row relates its left line to its right line."""

    SAME = "same"
    ADDED = "added"  # only on the right
    REMOVED = "removed"  # only on the left
    CHANGED = "changed"  # both sides, different text


@dataclass(frozen=True)
class DiffRow:
    """One row of the two columns; a missing side is None, line numbers count from 1."""

    kind: RowKind
    left: str | None
    right: str | None
    left_no: int | None = None
    right_no: int | None = None


@dataclass
class TargetDiff:
    """The aligned pseudocode of one sprite (or "Stage") and its block edits."""

    name: str
    rows: list[DiffRow]
    in_left: bool = True
    in_right: bool = True
    added: int = 0
    removed: int = 0
    changed: int = 0

    @property
    def differs(self) -> bool:
        return self.added + self.removed + self.changed > 0 or any(
            r.kind is not RowKind.SAME for r in self.rows
        )

    def headline(self) -> str:
        """`Coin: 2 blocks added, 1 changed`, `Stage: no change`; lone targets say so."""
        counts = [(self.added, "added"), (self.removed, "removed"), (self.changed, "changed")]
        parts = [f"{n} {what}" for n, what in counts if n]
        if parts:
            total = self.added + self.removed + self.changed
            noun = "block" if total == 1 else "blocks"
            parts[0] = parts[0].replace(" ", f" {noun} ", 1)
        where = ""
        if not self.in_left:
            where = " (new target)"
        elif not self.in_right:
            where = " (target removed)"
        return f"{self.name}{where}: " + (", ".join(parts) if parts else "no change")


@dataclass
class DiffSummary:
    """Block-level totals of the comparison and the opcodes the right project uses."""

    distance: int = 0
    added: int = 0
    removed: int = 0
    changed: int = 0
    block_types: list[str] = field(default_factory=list)

    def text(self, right_title: str = "the right project") -> str:
        edits = f"{self.distance} block edit{'s' if self.distance != 1 else ''}"
        counts = f"{self.added} added · {self.removed} removed · {self.changed} changed"
        return f"{edits} ({counts}) · {len(self.block_types)} block types in {right_title}"


@dataclass
class ProjectComparison:
    """Targets in project order (left first, then targets only on the right) and totals."""

    targets: list[TargetDiff]
    summary: DiffSummary

    @property
    def identical(self) -> bool:
        return self.summary.distance == 0 and not any(t.differs for t in self.targets)

    def differing(self) -> list[TargetDiff]:
        return [t for t in self.targets if t.differs]


def align_lines(left: list[str], right: list[str]) -> list[DiffRow]:
    """Pair up the lines of two texts: equal runs as same, replaced runs as changed pairs."""
    rows: list[DiffRow] = []
    matcher = difflib.SequenceMatcher(a=left, b=right, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            rows += [
                DiffRow(RowKind.SAME, left[i], right[j], i + 1, j + 1)
                for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
            ]
            continue
        paired = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        rows += [
            DiffRow(RowKind.CHANGED, left[i1 + k], right[j1 + k], i1 + k + 1, j1 + k + 1)
            for k in range(paired)
        ]
        rows += [DiffRow(RowKind.REMOVED, left[i], None, i + 1) for i in range(i1 + paired, i2)]
        rows += [
            DiffRow(RowKind.ADDED, None, right[j], None, j + 1) for j in range(j1 + paired, j2)
        ]
    return rows


def _lines(text: str | None) -> list[str]:
    return text.splitlines() if text else []


def _target_names(left: dict[str, str], right: dict[str, str]) -> list[str]:
    return [*left, *(name for name in right if name not in left)]


def _target_diff(
    name: str, left: dict[str, str], right: dict[str, str], edits: ProjectDiff
) -> TargetDiff:
    mine = edits.for_sprite(name)
    return TargetDiff(
        name=name,
        rows=align_lines(_lines(left.get(name)), _lines(right.get(name))),
        in_left=name in left,
        in_right=name in right,
        added=sum(e.kind is EditKind.ADD for e in mine),
        removed=sum(e.kind is EditKind.REMOVE for e in mine),
        changed=sum(e.kind is EditKind.MODIFY for e in mine),
    )


def compare_projects(
    left: Project, right: Project, include_unchanged: bool = False
) -> ProjectComparison:
    """Compare two project.json dicts; by default only targets that differ are listed."""
    left_text, right_text = render_project(left), render_project(right)
    edits = diff_projects(left, right)
    targets = [
        _target_diff(name, left_text, right_text, edits)
        for name in _target_names(left_text, right_text)
    ]
    summary = DiffSummary(
        distance=edits.distance,
        added=len(edits.of_kind(EditKind.ADD)),
        removed=len(edits.of_kind(EditKind.REMOVE)),
        changed=len(edits.of_kind(EditKind.MODIFY)),
        block_types=block_types_used(right),
    )
    shown = targets if include_unchanged else [t for t in targets if t.differs]
    return ProjectComparison(targets=shown, summary=summary)

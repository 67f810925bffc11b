"""Block-level differences between two Scratch projects (atomic edits, as in ScratchEval)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, Field

__all__ = ["BlockEdit", "Change", "ChangeKind", "EditKind", "ProjectDiff"]


class EditKind(StrEnum):
    """The three atomic block edits: a block appears, disappears, or changes."""

    ADD = "add"
    REMOVE = "remove"
    MODIFY = "modify"


class ChangeKind(StrEnum):
    """What a `modify` edit changed on its block."""

    OPCODE = "opcode"
    FIELD = "field"
    INPUT = "input"
    MOVED = "moved"


class Change(BaseModel):
    """One changed aspect of a block: a field or literal input value, its opcode, its place."""

    kind: ChangeKind
    name: str
    before: str | None = None
    after: str | None = None

    def __str__(self) -> str:
        label = "moved" if self.kind is ChangeKind.MOVED else f"{self.kind.value} {self.name}"
        return f"{label}: {self.before} -> {self.after}"


class BlockEdit(BaseModel):
    """One atomic edit of one block of one sprite ("Stage" for the stage).

    `block_id` is the block's id in the new project for add and modify, in the old project for
    remove; `base_id` is its id in the old project (None for add). `key` normalizes the edit so
    that two diffs from the same old project can be compared as sets (see `edit_distance`).
    """

    kind: EditKind
    sprite: str
    block_id: str
    base_id: str | None = None
    opcode: str
    text: str = ""
    changes: list[Change] = Field(default_factory=list)
    key: str = ""

    def __str__(self) -> str:
        head = f"{self.kind.value} {self.sprite} '{self.text or self.opcode}'"
        if not self.changes:
            return head
        return head + ": " + "; ".join(str(c) for c in self.changes)


class ProjectDiff(BaseModel):
    """All atomic edits turning one project into another, sprite by sprite."""

    edits: list[BlockEdit] = Field(default_factory=list)

    @property
    def distance(self) -> int:
        """The number of atomic edits."""
        return len(self.edits)

    def for_sprite(self, sprite: str) -> list[BlockEdit]:
        return [e for e in self.edits if e.sprite == sprite]

    def of_kind(self, kind: EditKind) -> list[BlockEdit]:
        return [e for e in self.edits if e.kind is kind]

    def keys(self) -> set[str]:
        return {e.key for e in self.edits}

    def edit_distance(self, other: ProjectDiff) -> int:
        """d_edit: the size of the symmetric difference of the two edit sets.

        Meaningful when both diffs start from the same project (a buggy project and two fixes).
        """
        return len(self.keys() ^ other.keys())

"""A repair patch: a list of atomic block edits addressed by sprite and block ids.

Three kinds of edit, as ScratchEval's repair track defines them:

- `remove`: a block goes. A statement's neighbours close the gap (its previous block, or the
  C-block holding it, points to its next block); a hat takes its whole script with it; a
  reporter leaves the input it filled empty (its shadow, if any, shows again). What was nested
  in the removed block's inputs goes too, unless another edit of the patch attaches it elsewhere.
- `add`: a new block (`block`: its opcode, fields and inputs, as in project.json) with the blocks
  nested in its inputs (`children`, by id), hung under `parent` (after it, or first in its input
  `input` such as SUBSTACK) in front of `next`, which must be what is there now; no parent makes
  it the head of a new script.
- `change`: one part of an existing block is replaced: `what` is `opcode`, `field:NAME` or
  `input:NAME`, and `value` the new opcode, field value (`[value, id]`) or input (`[kind, ...]`,
  or null to empty the input).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from studio.models.errors import StudioError

__all__ = ["PATCH_ADAPTER", "AddEdit", "ChangeEdit", "Edit", "Patch", "PatchError", "RemoveEdit"]


class PatchError(StudioError, ValueError):
    """A patch that is malformed or does not apply; the message names the edit (by its index,
    from 1) and the problem. A patch that fails is applied not at all."""


class RemoveEdit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    op: Literal["remove"] = "remove"
    sprite: str = Field(min_length=1)
    block_id: str = Field(min_length=1)


class AddEdit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    op: Literal["add"] = "add"
    sprite: str = Field(min_length=1)
    block_id: str = Field(min_length=1)
    block: dict[str, Any]
    children: dict[str, dict[str, Any]] = Field(default_factory=dict)
    parent: str | None = None
    input: str | None = None
    next: str | None = None


class ChangeEdit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    op: Literal["change"] = "change"
    sprite: str = Field(min_length=1)
    block_id: str = Field(min_length=1)
    what: str = Field(pattern=r"^(opcode|field:.+|input:.+)$")
    value: Any = None


Edit = Annotated[RemoveEdit | AddEdit | ChangeEdit, Field(discriminator="op")]


class Patch(BaseModel):
    """The edits, applied in order; all of them or none."""

    model_config = ConfigDict(extra="forbid")

    edits: list[Edit] = Field(default_factory=list)


PATCH_ADAPTER: TypeAdapter[list[Edit]] = TypeAdapter(list[Edit])

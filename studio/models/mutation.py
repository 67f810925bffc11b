"""Mutants of a golden project, made by mutation operators for adversarial checks."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

__all__ = ["Mutant", "OperatorInfo"]


class OperatorInfo(BaseModel):
    """A mutation operator as the UI lists it: its short name and what it does."""

    name: str
    doc: str


class Mutant(BaseModel):
    """One mutated copy of a golden project: which operator changed which block, and how.

    `tier` says how close the mutation is to what the task asks for: 0 when the mutated block is
    one the golden project adds or changes relative to the initial project, 1 when it sits in
    the same script as such a block, 2 otherwise. The mutated project.json travels in `project`,
    which is left out of dumps (`model_dump`, `model_dump_json`) and of the repr.
    """

    id: str
    operator: str
    sprite: str
    block_id: str
    description: str
    tier: int = 2
    project: dict[str, Any] = Field(default_factory=dict, exclude=True, repr=False)

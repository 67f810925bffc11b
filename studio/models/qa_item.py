"""A perception QA item (FORMATS.md section 6): `{task_id, instruction (the question),
screenshot, task_type, tag, ground_truth, focus_hint}` plus what the studio keeps: the
question's subject (block, field), the answer suggested from the VM at capture time and why,
each labeler's answer, and the review. Sets on disk are the services'
(`services.diagnostics.qa.item`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from studio.models.items import Review, SwSource

__all__ = ["QaAnswer", "QaItem", "QaType", "Subject", "Suggestion"]


class QaType(StrEnum):
    CONNECTION = "connection"
    EXISTENCE = "existence"
    FIELD = "field"


class Subject(BaseModel):
    """What the question is about, so the answer can be suggested again from the VM."""

    model_config = ConfigDict(extra="allow")

    block_id: str | None = None
    opcode: str | None = None
    field: str | None = None  # a field name, or an input name whose shadow holds the value
    target: str | None = None


class Suggestion(BaseModel):
    model_config = ConfigDict(extra="allow")

    answer: str
    tag: str
    why: str = ""


class QaAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    labeler: str
    answer: str
    at: str = ""


class QaItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task_id: str
    instruction: str
    screenshot: str
    task_type: QaType
    tag: str
    ground_truth: str
    focus_hint: str = ""
    subject: Subject = Field(default_factory=Subject)
    capture: dict[str, Any] = Field(default_factory=dict)  # area, clip, workspace, subject box
    suggestion: Suggestion | None = None
    answers: list[QaAnswer] = Field(default_factory=list)
    review: Review = Field(default_factory=Review)
    sw_extra: dict[str, Any] = Field(default_factory=dict)  # other fields (prompt, responses)
    sw_source: SwSource | None = None  # the published record (None: made in the studio)

"""Where an imported labeling item came from in a published ScratchWorld checkout."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class SwSource(BaseModel):
    """The published ScratchWorld record an imported item (or QA item) came from: its file name,
    the record as read and how the file was written (the fields of
    `scratchworld.layout.JsonStyle`; `text` holds the file itself when that style does not
    give back its bytes). Export starts from it, so an unchanged item is written back exactly."""

    model_config = ConfigDict(extra="forbid")

    file: str
    record: dict[str, Any]
    style: dict[str, Any] = Field(default_factory=dict)
    text: str | None = None

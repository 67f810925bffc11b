"""Perception QA items (FORMATS.md section 6) and where they live on disk.

An item is `{task_id, instruction (the question), screenshot, task_type, tag, ground_truth,
focus_hint}` plus what the studio keeps: the question's subject (block, field), the answer
suggested from the VM at capture time and why, each labeler's answer, and the review. A set
is a folder with `items/<task_id>.json` and `screenshots/<name>.png` (several items may share
a screenshot).
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from studio.services.atomic import write_bytes, write_text
from studio.services.errors import TaskFileError, cut
from studio.services.labeling.review import Review
from studio.services.labeling.source import SwSource
from studio.services.names import name_problem
from studio.services.untrusted_json import JsonInputError, read_json

ITEMS_DIR = "items"
SCREENSHOTS_DIR = "screenshots"


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


class QaSet:
    """A folder of QA items and their screenshots."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def item_path(self, task_id: str) -> Path:
        return self.root / ITEMS_DIR / f"{task_id}.json"

    def screenshot_path(self, name: str) -> Path:
        return self.root / SCREENSHOTS_DIR / name

    def save(self, item: QaItem, screenshot: bytes | None = None) -> None:
        if screenshot is not None:
            write_bytes(self.screenshot_path(item.screenshot), screenshot)
        text = json.dumps(item.model_dump(mode="json", exclude_none=True), indent=2) + "\n"
        write_text(self.item_path(item.task_id), text)

    def load(self, task_id: str) -> QaItem:
        return read_item(self.item_path(task_id))

    def items(self) -> list[QaItem]:
        folder = self.root / ITEMS_DIR
        if not folder.is_dir():
            raise TaskFileError(folder, "no QA items here (items/ is missing)")
        return [read_item(p) for p in sorted(folder.glob("*.json"))]


def read_item(path: Path) -> QaItem:
    try:
        data = read_json(path)
    except JsonInputError as exc:
        raise TaskFileError(path, f"not readable JSON ({exc.problem})") from None
    try:
        item = QaItem.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise TaskFileError(path, err["msg"], ".".join(str(p) for p in err["loc"])) from None
    named = {"task_id": item.task_id, "screenshot": item.screenshot}
    if item.sw_source is not None:
        named["sw_source.file"] = item.sw_source.file
    for field, name in named.items():
        problem = name_problem(name)
        if problem is not None:
            raise TaskFileError(path, f"{cut(repr(name), 80)} {problem}", field)
    return item

"""Perception QA items (FORMATS.md section 6) and where they live on disk.

An item is `{task_id, instruction (the question), screenshot, task_type, tag, ground_truth,
focus_hint}` plus what the studio keeps: the question's subject (block, field), the answer
suggested from the VM at capture time and why, each labeler's answer, and the review. A set
is a folder with `items/<task_id>.json` and `screenshots/<name>.png` (several items may share
a screenshot).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from studio.models.qa_item import QaItem
from studio.services.core.atomic import write_bytes, write_text
from studio.services.core.errors import TaskFileError, cut
from studio.services.core.names import name_problem
from studio.services.core.untrusted_json import JsonInputError, read_json

__all__ = ["ITEMS_DIR", "SCREENSHOTS_DIR", "QaSet", "read_item"]

ITEMS_DIR = "items"
SCREENSHOTS_DIR = "screenshots"


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

"""Single-step drag items (FORMATS.md section 5) and their folders.

An item folder holds `item.json` (the fields of the ScratchWorld layout plus review, labels
and computation figures), the project the item starts from and a screenshot of the screen the
item is about. Feasible points are `[x, y]` screen pixels of the 1280x720 page on the item's
grid. Files are written atomically; a broken file is named with the field at fault.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

from pydantic import ValidationError

from studio.models.drag_item import (
    DragItem,
)
from studio.models.errors import StudioError
from studio.services.core.atomic import write_bytes, write_text
from studio.services.core.errors import TaskFileError, cut
from studio.services.core.names import name_problem
from studio.services.core.untrusted_json import JsonInputError, read_json

__all__ = [
    "ITEM_FILE", "PARTIAL_FILE", "DragItemError", "ItemFolder", "check_screenshot", "load_item",
    "png_size", "scan_items", "write_item",
]  # fmt: skip

ITEM_FILE = "item.json"
PARTIAL_FILE = "regions.partial.json"


class DragItemError(StudioError):
    """An item that cannot be used as it is (missing block, screen that does not match)."""


class ItemFolder:
    """A drag item on disk."""

    def __init__(self, path: Path, item: DragItem) -> None:
        self.path = path
        self.item = item

    @property
    def project_path(self) -> Path:
        return self.path / self.item.init_project

    @property
    def screenshot_path(self) -> Path:
        return self.path / self.item.screenshot

    @property
    def partial_path(self) -> Path:
        return self.path / PARTIAL_FILE

    def save(self) -> None:
        text = json.dumps(self.item.model_dump(mode="json", exclude_none=True), indent=2) + "\n"
        write_text(self.path / ITEM_FILE, text)


def load_item(path: Path) -> ItemFolder:
    """Read and validate an item folder (or its item.json)."""
    folder = path.parent if path.name == ITEM_FILE else path
    file = folder / ITEM_FILE
    if not file.is_file():
        raise TaskFileError(file, "no drag item here (item.json is missing)")
    try:
        data = read_json(file)
    except JsonInputError as exc:
        raise TaskFileError(file, f"not readable JSON ({exc.problem})") from None
    try:
        item = DragItem.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise TaskFileError(file, err["msg"], where) from None
    named = {"init_project": item.init_project, "screenshot": item.screenshot}
    if item.sw_source is not None:
        named["sw_source.file"] = item.sw_source.file
    for field, name in named.items():
        problem = name_problem(name)
        if problem is None and name == ITEM_FILE:
            problem = "is the item file itself"
        if problem is not None:
            raise TaskFileError(file, f"{cut(repr(name), 80)} {problem}", field)
    entry = ItemFolder(folder, item)
    if not entry.project_path.is_file():
        raise TaskFileError(file, f"the project {item.init_project} is missing", "init_project")
    return entry


def scan_items(root: Path) -> list[ItemFolder]:
    """Every item folder under `root` (or `root` itself), sorted by id."""
    if (root / ITEM_FILE).is_file():
        return [load_item(root)]
    return sorted((load_item(p.parent) for p in root.rglob(ITEM_FILE)), key=lambda e: e.item.id)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG (DragItemError when it is not one)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        raise DragItemError("the screenshot is not a PNG file")
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def check_screenshot(entry: ItemFolder) -> None:
    """DragItemError unless the stored screenshot has the size of the stored viewport."""
    path = entry.screenshot_path
    if not path.is_file():
        return
    width, height = png_size(path.read_bytes())
    view = entry.item.evaluation_config.workspace_state.viewport
    if (width, height) != (view.get("width"), view.get("height")):
        raise DragItemError(
            f"{path}: the screenshot is {width}x{height} but the stored viewport is "
            f"{view.get('width')}x{view.get('height')}; capture it again"
        )


def write_item(
    folder: Path, item: DragItem, project: bytes, screenshot: bytes | None
) -> ItemFolder:
    folder.mkdir(parents=True, exist_ok=True)
    write_bytes(folder / item.init_project, project)
    if screenshot is not None:
        write_bytes(folder / item.screenshot, screenshot)
    entry = ItemFolder(folder, item)
    entry.save()
    return entry

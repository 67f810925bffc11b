"""Single-step drag items (FORMATS.md section 5) and their folders.

An item folder holds `item.json` (the fields of the ScratchWorld layout plus review, labels
and computation figures), the project the item starts from and a screenshot of the screen the
item is about. Feasible points are `[x, y]` screen pixels of the 1280x720 page on the item's
grid. Files are written atomically; a broken file is named with the field at fault.
"""

from __future__ import annotations

import json
import struct
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from studio.services.atomic import write_bytes, write_text
from studio.services.errors import StudioError, TaskFileError, cut
from studio.services.labeling.review import Review
from studio.services.labeling.source import SwSource
from studio.services.names import name_problem
from studio.services.untrusted_json import JsonInputError, read_json

ITEM_FILE = "item.json"
PROJECT_FILE = "project.sb3"
SCREENSHOT_FILE = "screenshot.png"
PARTIAL_FILE = "regions.partial.json"
DEFAULT_GRID = 5
VIEWPORT = {"width": 1280, "height": 720}


class DragItemError(StudioError):
    """An item that cannot be used as it is (missing block, screen that does not match)."""


class ConnectionType(StrEnum):
    NEXT = "next"  # the dragged block goes below the reference block
    PARENT = "parent"  # the dragged block (stack) goes above the reference block
    INPUT = "input"  # a reporter into the reference block's input `target_input_name`
    SUBSTACK_1 = "substack_1"  # first in the reference C-block's (first) mouth
    SUBSTACK_2 = "substack_2"  # first in the second mouth (if-else)


T1_TYPES = (ConnectionType.NEXT, ConnectionType.PARENT)


def category_of(connection: ConnectionType) -> Literal["T1", "T2"]:
    """T1 direct connection (next, parent); T2 slot insertion (input, substacks)."""
    return "T1" if connection in T1_TYPES else "T2"


class WorkspaceState(BaseModel):
    """What restores the screen: editing target, palette, zoom and scroll of both areas."""

    model_config = ConfigDict(extra="allow")

    target: str | None = None
    scroll_x: float = 0.0
    scroll_y: float = 0.0
    scale: float = 0.675
    category: str | None = None
    flyout_scroll_y: float = 0.0
    viewport: dict[str, int] = Field(default_factory=lambda: dict(VIEWPORT))


class Box(BaseModel):
    model_config = ConfigDict(extra="forbid")

    x: float
    y: float
    w: float
    h: float


class EvaluationConfig(BaseModel):
    """The ScratchWorld `evaluation_config` of an item, plus what the studio needs."""

    model_config = ConfigDict(extra="allow")

    target_block_opcode: str
    target_block_id: str | None = None  # None for a block taken from the palette
    reference_block_id: str
    reference_block_opcode: str
    connection_type: ConnectionType
    target_input_name: str | None = None
    seed_point: list[float] | None = None
    drag_start_point: list[float] | None = None
    feasible_start_points: list[list[int]] = Field(default_factory=list)
    feasible_points: list[list[int]] = Field(default_factory=list)
    workspace_state: WorkspaceState = Field(default_factory=WorkspaceState)
    setup_actions: list[dict[str, Any]] = Field(default_factory=list)
    source: Literal["canvas", "flyout"] = "canvas"
    flyout_index: int = 0
    grid: int = DEFAULT_GRID
    target_box: Box | None = None  # where the dragged block was on the stored screen
    reference_box: Box | None = None


class RegionLabel(BaseModel):
    """One labeler's regions for an item (kept apart from the other labelers')."""

    model_config = ConfigDict(extra="forbid")

    labeler: str
    start_points: list[list[int]] = Field(default_factory=list)
    end_points: list[list[int]] = Field(default_factory=list)
    at: str = ""


class RegionStats(BaseModel):
    """How the item's regions were computed."""

    model_config = ConfigDict(extra="allow")

    seconds: float = 0.0
    drags: int = 0
    pages: int = 0
    start_points: int = 0
    end_points: int = 0
    implied_points: int = 0
    method: str = ""


class DragItem(BaseModel):
    """A single-step drag item: `{id, category, instruction, init_project, evaluation_config}`."""

    model_config = ConfigDict(extra="forbid")

    id: str
    category: Literal["T1", "T2"]
    instruction: str
    init_project: str = PROJECT_FILE
    evaluation_config: EvaluationConfig
    screenshot: str = SCREENSHOT_FILE
    review: Review = Field(default_factory=Review)
    labels: list[RegionLabel] = Field(default_factory=list)
    region_stats: RegionStats | None = None
    sw_extra: dict[str, Any] = Field(default_factory=dict)  # other top-level fields (sprite)
    sw_source: SwSource | None = None  # the published record (None: made in the studio)

    @property
    def spec(self) -> dict[str, Any]:
        """What the page's trial helper needs to know about the item."""
        cfg = self.evaluation_config
        return {
            "source": cfg.source,
            "target_id": cfg.target_block_id,
            "target_opcode": cfg.target_block_opcode,
            "flyout_index": cfg.flyout_index,
            "reference_id": cfg.reference_block_id,
            "connection_type": cfg.connection_type.value,
            "input_name": cfg.target_input_name,
        }


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

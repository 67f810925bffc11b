"""A single-step drag item (FORMATS.md section 5): the fields of the ScratchWorld layout plus
the studio's review, labels and computation figures. Feasible points are `[x, y]` screen pixels
of the 1280x720 page on the item's grid. Reading and writing item folders is the services'
(`services.diagnostics.drag.item`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from studio.models.items import Review, SwSource

__all__ = [
    "DEFAULT_GRID", "PROJECT_FILE", "SCREENSHOT_FILE", "T1_TYPES", "VIEWPORT", "Box",
    "ConnectionType", "DragItem", "EvaluationConfig", "RegionLabel", "RegionStats",
    "WorkspaceState", "category_of",
]  # fmt: skip

PROJECT_FILE = "project.sb3"


SCREENSHOT_FILE = "screenshot.png"


DEFAULT_GRID = 5


VIEWPORT = {"width": 1280, "height": 720}


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
    # the grab point the end region (feasible_points) is for: where the block is held
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
    """One labeler's regions for an item (kept apart from the other labelers'), with the grab
    point its end region is for (`drag_start_point`; None in labels made before it was
    recorded: the item's own then)."""

    model_config = ConfigDict(extra="forbid")

    labeler: str
    start_points: list[list[int]] = Field(default_factory=list)
    end_points: list[list[int]] = Field(default_factory=list)
    at: str = ""
    drag_start_point: list[float] | None = None


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

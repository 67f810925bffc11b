"""Agent actions, observations and recorded steps, in the ScratchWorld action schemas.

Primitive mode (the agent sees pixels) and composite mode (the agent sees structure) each have
their own action set (FORMATS.md sections 3 and 4). Every action is `{"api": ..., "args": {...}}`;
`studio.models.action_parse.parse_action` validates one and names what is wrong.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from studio.models.errors import StudioError

__all__ = [
    "COMPOSITE_APIS", "PRIMITIVE_APIS", "ActionError", "AddBlock", "AddBlockArgs", "AddDataArgs",
    "AddList", "AddVariable", "BlockIndexArgs", "BlockInfo", "Click", "ClickArgs",
    "CompositeAction", "ConnectArgs", "ConnectBlocks", "Creation", "DeleteBlock", "DetachBlocks",
    "Done", "DoubleClick", "DragAndDrop", "DragArgs", "Element", "EmptyArgs", "EpisodeStatus",
    "Failed", "Hotkey", "HotkeyArgs", "Key", "KeyArgs", "Mode", "Observation", "Placement",
    "PointArgs", "PrimitiveAction", "ProgramChange", "Scroll", "ScrollArgs", "SelectSprite",
    "SelectSpriteArgs", "SelectStage", "SetBlockField", "SetFieldArgs", "StepRecord", "Stroke",
    "StrokeArgs", "TypeArgs", "TypeText",
]  # fmt: skip


class Mode(StrEnum):
    PRIMITIVE = "primitive"
    COMPOSITE = "composite"
    PATCH = "patch"  # the repair track: one patch of atomic edits (studio.models.patch_action)
    UNDERSTAND = "understand"  # name a forged bug's triggers and mechanism (ditto)
    TEXT = "text"  # the text track: scratchblocks text answers (studio.models.text_action)


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _one_target(args: BaseModel, point: tuple[str, str], index: str) -> None:
    has_point = all(getattr(args, p) is not None for p in point)
    has_some_point = any(getattr(args, p) is not None for p in point)
    has_index = getattr(args, index) is not None
    if has_some_point and not has_point:
        raise ValueError(f"give both {point[0]} and {point[1]}")
    if has_point == has_index:
        raise ValueError(f"give either {point[0]}/{point[1]} or {index}, exactly one of them")


# ---- primitive mode -------------------------------------------------------------------------
class PointArgs(_Args):
    x: float | None = None
    y: float | None = None
    index: int | None = None

    @model_validator(mode="after")
    def _target(self) -> PointArgs:
        _one_target(self, ("x", "y"), "index")
        return self


class ClickArgs(PointArgs):
    button: Literal["left", "right", "middle"] = "left"


class DragArgs(_Args):
    start_x: float | None = None
    start_y: float | None = None
    start_index: int | None = None
    end_x: float | None = None
    end_y: float | None = None
    end_index: int | None = None
    duration: float | None = Field(default=None, ge=0, le=10)

    @model_validator(mode="after")
    def _targets(self) -> DragArgs:
        _one_target(self, ("start_x", "start_y"), "start_index")
        _one_target(self, ("end_x", "end_y"), "end_index")
        return self


class StrokeArgs(_Args):
    """A stroke: press at the first point, move through the others in order, release at the
    last (a path, not only a straight drag: drawing in the paint editor, a curved drag).
    `duration` spreads the moves over that many seconds."""

    points: list[tuple[float, float]] = Field(min_length=2, max_length=500)
    duration: float | None = Field(default=None, ge=0, le=10)


class ScrollArgs(_Args):
    direction: Literal["up", "down", "left", "right"]
    amount: float = Field(default=3, gt=0, le=50)
    x: float | None = None
    y: float | None = None
    index: int | None = None

    @model_validator(mode="after")
    def _target(self) -> ScrollArgs:
        if any(v is not None for v in (self.x, self.y, self.index)):
            _one_target(self, ("x", "y"), "index")
        return self


class TypeArgs(_Args):
    text: str


class KeyArgs(_Args):
    key: str = Field(min_length=1)


class HotkeyArgs(_Args):
    keys: list[str] = Field(min_length=2)


class EmptyArgs(_Args):
    pass


class Click(BaseModel):
    api: Literal["click"]
    args: ClickArgs


class DoubleClick(BaseModel):
    api: Literal["double_click"]
    args: PointArgs


class DragAndDrop(BaseModel):
    api: Literal["drag_and_drop"]
    args: DragArgs


class Stroke(BaseModel):
    api: Literal["stroke"]
    args: StrokeArgs


class Scroll(BaseModel):
    api: Literal["scroll"]
    args: ScrollArgs


class TypeText(BaseModel):
    api: Literal["type"]
    args: TypeArgs


class Key(BaseModel):
    api: Literal["key"]
    args: KeyArgs


class Hotkey(BaseModel):
    api: Literal["hotkey"]
    args: HotkeyArgs


class Done(BaseModel):
    api: Literal["done"]
    args: EmptyArgs = Field(default_factory=EmptyArgs)


class Failed(BaseModel):
    api: Literal["failed"]
    args: EmptyArgs = Field(default_factory=EmptyArgs)


PrimitiveAction = Annotated[
    Click | DoubleClick | DragAndDrop | Stroke | Scroll | TypeText | Key | Hotkey | Done | Failed,
    Field(discriminator="api"),
]


# ---- composite mode -------------------------------------------------------------------------
class SelectSpriteArgs(_Args):
    name: str = Field(min_length=1)


class AddDataArgs(_Args):
    name: str = Field(min_length=1)
    scope: Literal["sprite", "all"] = "all"


class Creation(_Args):
    variableName: str | None = None
    listName: str | None = None


class AddBlockArgs(_Args):
    blockType: str = Field(min_length=1)
    creation: Creation | None = None

    @model_validator(mode="after")
    def _creation(self) -> AddBlockArgs:
        if self.blockType == "data_variable" and not (self.creation and self.creation.variableName):
            raise ValueError("data_variable needs creation.variableName")
        if self.blockType == "data_listcontents" and not (self.creation and self.creation.listName):
            raise ValueError("data_listcontents needs creation.listName")
        return self


class Placement(_Args):
    kind: Literal["stack_before", "stack_after", "statement_into", "value_into", "wrap"]
    inputName: str | None = None

    @model_validator(mode="after")
    def _input(self) -> Placement:
        if self.kind in ("statement_into", "value_into") and not self.inputName:
            raise ValueError(f"placement kind {self.kind} needs inputName")
        return self


class ConnectArgs(_Args):
    sourceBlockIndex: int
    targetBlockIndex: int
    placement: Placement


class BlockIndexArgs(_Args):
    blockIndex: int


class SetFieldArgs(_Args):
    blockIndex: int
    fieldName: str = Field(min_length=1)
    value: Any


class SelectSprite(BaseModel):
    api: Literal["select_sprite"]
    args: SelectSpriteArgs


class SelectStage(BaseModel):
    api: Literal["select_stage"]
    args: EmptyArgs = Field(default_factory=EmptyArgs)


class AddVariable(BaseModel):
    api: Literal["add_variable"]
    args: AddDataArgs


class AddList(BaseModel):
    api: Literal["add_list"]
    args: AddDataArgs


class AddBlock(BaseModel):
    api: Literal["add_block"]
    args: AddBlockArgs


class ConnectBlocks(BaseModel):
    api: Literal["connect_blocks"]
    args: ConnectArgs


class DetachBlocks(BaseModel):
    api: Literal["detach_blocks"]
    args: BlockIndexArgs


class SetBlockField(BaseModel):
    api: Literal["set_block_field"]
    args: SetFieldArgs


class DeleteBlock(BaseModel):
    api: Literal["delete_block"]
    args: BlockIndexArgs


CompositeAction = Annotated[
    SelectSprite
    | SelectStage
    | AddVariable
    | AddList
    | AddBlock
    | ConnectBlocks
    | DetachBlocks
    | SetBlockField
    | DeleteBlock
    | Done
    | Failed,
    Field(discriminator="api"),
]

PRIMITIVE_APIS = (
    "click",
    "double_click",
    "drag_and_drop",
    "stroke",
    "scroll",
    "type",
    "key",
    "hotkey",
    "done",
    "failed",
)
COMPOSITE_APIS = (
    "select_sprite",
    "select_stage",
    "add_variable",
    "add_list",
    "add_block",
    "connect_blocks",
    "detach_blocks",
    "set_block_field",
    "delete_block",
    "done",
    "failed",
)


class ActionError(StudioError, ValueError):
    """An action that is not valid for the mode; the message says what to fix."""


# ---- observations and steps -----------------------------------------------------------------


class Element(BaseModel):
    """One entry of the primitive-mode element list."""

    index: int
    type: str
    text: str = ""
    x: float
    y: float
    w: float
    h: float
    source: Literal["dom", "ocr"] = "dom"
    meta: dict[str, Any] = Field(default_factory=dict)


class BlockInfo(BaseModel):
    """One block of a composite observation in structured form (the text's twin, for tools).

    `index` is the `#<n>` of the text; `parent` is the index of the block it hangs from and
    `slot` how: "next", an input name (SUBSTACK, CONDITION, ...) or "top" for a script's head.
    `fields` and `inputs` hold the values shown in the text (an input's value is its shadow's).
    """

    index: int
    id: str  # the VM block id (equal in the editor's workspace)
    opcode: str
    parent: int | None = None
    slot: str = "top"
    fields: dict[str, Any] = Field(default_factory=dict)
    inputs: dict[str, Any] = Field(default_factory=dict)


class Observation(BaseModel):
    """What the agent sees before a step. Composite: `text`; primitive: screenshot + elements.

    Composite observations also carry `editing_target` and `blocks`, the structured twin of
    the text (index -> VM block id and place), used by tools such as the oracle agent and the
    debugger; an LLM agent is meant to read `text`.
    """

    mode: Mode
    step: int
    screenshot_png_b64: str | None = None
    elements: list[Element] = Field(default_factory=list)
    text: str | None = None
    version: int = 0  # program version the indexes refer to (composite mode)
    editing_target: str | None = None
    blocks: list[BlockInfo] = Field(default_factory=list)
    # patch mode: every target's blocks as in project.json (sprite name -> block id -> block)
    # and the task's bug report (symptom, expected, trigger), when it has one
    program: dict[str, dict[str, Any]] | None = None
    report: dict[str, Any] | None = None


class EpisodeStatus(StrEnum):
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    STEP_LIMIT = "step_limit"
    CLOSED = "closed"


class ProgramChange(BaseModel):
    """What one step changed in the program (VM level)."""

    added: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    moved: list[str] = Field(default_factory=list)
    fields_changed: list[str] = Field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.moved or self.fields_changed)


class StepRecord(BaseModel):
    """One line of a trajectory's steps.jsonl."""

    index: int
    at: datetime
    action: dict[str, Any]
    reasoning: str = ""
    ok: bool = True
    error: str | None = None
    duration_ms: float = 0.0
    screenshot: str | None = None  # file name beside steps.jsonl
    observation_summary: str = ""
    target: str | None = None  # element hit or block acted on
    change: ProgramChange = Field(default_factory=ProgramChange)
    status_after: EpisodeStatus = EpisodeStatus.RUNNING
    usage: dict[str, Any] | None = None  # tokens (and cost) the agent spent choosing this action

"""Request bodies of the ScratchWorld-compatible routes, as the published server takes them.

SCRATCHWORLD_API.md section 3: extra keys are ignored; a missing or ill-typed field is a 422
(coordinates are integers: a fractional number is refused, 100.0 is 100). A value of the right
type that cannot be used (a scroll direction "sideways", an empty key list, an unknown key) is
not a 422: the action answers 200 with `success: false` and error code INVALID_ARG.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "MAX_KEYS", "MAX_TEXT", "PRIMITIVE_BODIES", "ClickBody", "CompositeBody", "DragBody",
    "Envelope", "EvaluateBody", "HotkeyBody", "KeyBody", "MoveBody", "ScrollBody", "TypeBody",
]  # fmt: skip

MAX_TEXT = 10_000  # characters typed by one `type` action
MAX_KEYS = 16


class _Body(BaseModel):
    model_config = ConfigDict(extra="ignore")


class ClickBody(_Body):
    x: int
    y: int
    button: Literal["left", "middle", "right"] = "left"


class MoveBody(_Body):
    x: int
    y: int
    duration: float = Field(0.5, ge=0, le=60)


class DragBody(_Body):
    start_x: int
    start_y: int
    end_x: int
    end_y: int
    duration: float = Field(0.5, ge=0, le=60)


class ScrollBody(_Body):
    direction: str
    amount: int = Field(100, ge=-100_000, le=100_000)
    x: int | None = None
    y: int | None = None


class TypeBody(_Body):
    text: str = Field(max_length=MAX_TEXT)


class KeyBody(_Body):
    key: str = Field(max_length=64)


class HotkeyBody(_Body):
    keys: list[str] = Field(max_length=MAX_KEYS)


PRIMITIVE_BODIES: dict[str, type[_Body]] = {
    "click": ClickBody,
    "double_click": ClickBody,
    "move_to": MoveBody,
    "drag_and_drop": DragBody,
    "scroll": ScrollBody,
    "type": TypeBody,
    "key": KeyBody,
    "hold_key": KeyBody,
    "release_key": KeyBody,
    "hotkey": HotkeyBody,
}


class CompositeBody(_Body):
    api: str = Field(max_length=64)
    args: dict[str, Any] | None = None


class EvaluateBody(_Body):
    task_name: str = Field(min_length=1, max_length=256)
    sb3_file_name: str | None = None  # ignored, as the published server does
    evaluation_method: str = "node"
    timeout: float | None = None  # ignored: the script's limit is the task's


class Envelope(BaseModel):
    """What every action and composite call answers (with status 200, also on failure)."""

    success: bool
    requested_action: dict[str, Any]
    executed_action: dict[str, Any]
    data: dict[str, Any]
    error: dict[str, Any] | None
    meta: dict[str, Any]

"""Parsing an agent's action for the episode's mode: one entry for every mode.

`parse_action(raw, mode)` checks `{"api": ..., "args": {...}}` against the mode's actions
(primitive and composite in `studio.models.agent`, patch and understand in
`studio.models.patch_action`, text in `studio.models.text_action`) and returns the typed
action, or raises `ActionError` with what to fix.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from studio.models.agent import (
    COMPOSITE_APIS,
    PRIMITIVE_APIS,
    ActionError,
    CompositeAction,
    Mode,
    PrimitiveAction,
)
from studio.models.patch_action import parse_patch_action
from studio.models.text_action import parse_text_action

__all__ = ["COMPOSITE_ADAPTER", "PRIMITIVE_ADAPTER", "parse_action"]

PRIMITIVE_ADAPTER: TypeAdapter[Any] = TypeAdapter(PrimitiveAction)
COMPOSITE_ADAPTER: TypeAdapter[Any] = TypeAdapter(CompositeAction)


def parse_action(raw: Any, mode: Mode) -> Any:
    """Validate `{"api": ..., "args": {...}}` for `mode`; raise ActionError with a fix hint."""
    if not isinstance(raw, dict) or "api" not in raw:
        raise ActionError('an action is a JSON object {"api": ..., "args": {...}}')
    if mode in (Mode.PATCH, Mode.UNDERSTAND):
        return parse_patch_action(raw, mode)
    if mode is Mode.TEXT:
        return parse_text_action(raw)
    apis = PRIMITIVE_APIS if mode is Mode.PRIMITIVE else COMPOSITE_APIS
    if raw["api"] not in apis:
        raise ActionError(
            f"unknown api {raw['api']!r} in {mode.value} mode; use one of " + ", ".join(apis)
        )
    data = {"api": raw["api"], "args": raw.get("args") or {}}
    try:
        adapter = PRIMITIVE_ADAPTER if mode is Mode.PRIMITIVE else COMPOSITE_ADAPTER
        return adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "args"
        raise ActionError(f"{raw['api']}: {where}: {first['msg']}") from None

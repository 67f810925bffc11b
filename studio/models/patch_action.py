"""Patch mode's actions (the repair track): one patch of atomic edits, then done or failed.

    {"api": "apply_patch", "args": {"edits": [{"op": "change", "sprite": "Cat",
                                              "block_id": "move", "what": "input:STEPS",
                                              "value": [1, [4, "100"]]}, ...]}}

The edits are those of `studio.models.patch` (remove, add, change; addressed by sprite name
and block id). `parse_patch_action` checks the shape of the action: an `edits` list of JSON
objects, at least one. Each edit's own form (its `op`, ids, `what`) is checked when the patch is
applied (`studio.services.core.patch.parse_patch`), so that the message names the edit by its
number; a patch that does not apply is refused whole and the program stays as it was.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from studio.models.agent import ActionError, Done, Failed

__all__ = ["PATCH_APIS", "ApplyPatch", "ApplyPatchArgs", "PatchAction", "parse_patch_action"]

PATCH_APIS = ("apply_patch", "done", "failed")


class ApplyPatchArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    edits: list[dict[str, Any]] = Field(min_length=1)


class ApplyPatch(BaseModel):
    api: Literal["apply_patch"]
    args: ApplyPatchArgs


PatchAction = Annotated[ApplyPatch | Done | Failed, Field(discriminator="api")]
_PATCH: TypeAdapter[ApplyPatch | Done | Failed] = TypeAdapter(PatchAction)


def parse_patch_action(raw: dict[str, Any]) -> ApplyPatch | Done | Failed:
    """Validate a patch-mode action; ActionError naming what is wrong."""
    if raw.get("api") not in PATCH_APIS:
        raise ActionError(
            f"unknown api {raw.get('api')!r} in patch mode; use one of " + ", ".join(PATCH_APIS)
        )
    data = {"api": raw["api"], "args": raw.get("args") or {}}
    try:
        return _PATCH.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "args"
        raise ActionError(f"{raw['api']}: {where}: {first['msg']}") from None

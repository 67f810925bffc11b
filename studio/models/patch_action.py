"""The repair track's actions: patch mode's patch and understanding mode's answer.

Patch mode: one patch of atomic edits, then done (or failed).

    {"api": "apply_patch", "args": {"edits": [{"op": "change", "sprite": "Cat",
                                              "block_id": "move", "what": "input:STEPS",
                                              "value": [1, [4, "100"]]}, ...]}}

The edits are those of `studio.models.patch` (remove, add, change; addressed by sprite name
and block id). `parse_patch_action` checks the shape of the action: an `edits` list of JSON
objects, at least one. Each edit's own form (its `op`, ids, `what`) is checked when the patch is
applied (`studio.services.core.patch.parse_patch`), so that the message names the edit by its
number; a patch that does not apply is refused whole and the program stays as it was.

Understanding mode: the agent names the events that trigger a forged bug, in the trigger
vocabulary (`green_flag`, `key:space`, `click:Cat`, ...), and its mechanism, then says done:

    {"api": "explain_bug", "args": {"triggers": ["green_flag"],
                                     "mechanism": "missing_initialization"}}

The last answer counts; it is scored when the episode ends (trigger F1, mechanism accuracy).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from studio.models.agent import ActionError, Done, Failed, Mode

__all__ = [
    "PATCH_APIS", "UNDERSTAND_APIS", "ApplyPatch", "ApplyPatchArgs", "ExplainBug",
    "ExplainBugArgs", "PatchAction", "UnderstandAction", "parse_patch_action",
]  # fmt: skip

PATCH_APIS = ("apply_patch", "done", "failed")
UNDERSTAND_APIS = ("explain_bug", "done", "failed")


class ApplyPatchArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    edits: list[dict[str, Any]] = Field(min_length=1)


class ApplyPatch(BaseModel):
    api: Literal["apply_patch"]
    args: ApplyPatchArgs


class ExplainBugArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    triggers: list[str] = Field(default_factory=list, max_length=50)
    mechanism: str = Field(min_length=1, max_length=200)


class ExplainBug(BaseModel):
    api: Literal["explain_bug"]
    args: ExplainBugArgs


PatchAction = Annotated[ApplyPatch | Done | Failed, Field(discriminator="api")]
UnderstandAction = Annotated[ExplainBug | Done | Failed, Field(discriminator="api")]
_PATCH: TypeAdapter[ApplyPatch | Done | Failed] = TypeAdapter(PatchAction)
_UNDERSTAND: TypeAdapter[ExplainBug | Done | Failed] = TypeAdapter(UnderstandAction)


def parse_patch_action(
    raw: dict[str, Any], mode: Mode = Mode.PATCH
) -> ApplyPatch | ExplainBug | Done | Failed:
    """Validate an action of patch or understanding mode; ActionError naming what is wrong."""
    apis = UNDERSTAND_APIS if mode is Mode.UNDERSTAND else PATCH_APIS
    if raw.get("api") not in apis:
        raise ActionError(
            f"unknown api {raw.get('api')!r} in {mode.value} mode; use one of " + ", ".join(apis)
        )
    data = {"api": raw["api"], "args": raw.get("args") or {}}
    adapter: TypeAdapter[Any] = _UNDERSTAND if mode is Mode.UNDERSTAND else _PATCH
    try:
        parsed: ApplyPatch | ExplainBug | Done | Failed = adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "args"
        raise ActionError(f"{raw['api']}: {where}: {first['msg']}") from None
    return parsed

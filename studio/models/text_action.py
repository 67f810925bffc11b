"""The text track's actions: the agent answers with scratchblocks text.

    {"api": "apply_text", "args": {"text": "// sprite: Cat\\nwhen flag clicked\\nmove (10) steps",
                                   "sprite": "Cat"}}

`text` is scratchblocks text in the dialect `studio blocks text` writes: one block a line, the
blocks inside a C-block indented and closed by `end`, menus marked ` v`. A line `// stage` or
`// sprite: NAME` marks the target the lines after it belong to; each target the text marks
gets its scripts replaced by the text's (a marker with nothing under it empties that target),
and the targets it does not mark are kept as they are. Lines before the first marker belong to
`sprite` when given, else to the project's only sprite (text without a marker in a project of
several sprites is refused: name the target). A sprite the project lacks is created.

Then `done` (or `failed`). An answer may be given again before `done`: each one replaces the
scripts of the targets it marks, and the program the episode ends with is judged.
`parse_text_action` checks the action's shape; the text itself is read when it is applied, and
a line that cannot be placed refuses the whole answer with the line's number.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from studio.models.agent import ActionError, Done, Failed

__all__ = [
    "MAX_ANSWER_CHARS", "TEXT_APIS", "ApplyText", "ApplyTextArgs", "TextAction",
    "parse_text_action",
]  # fmt: skip

TEXT_APIS = ("apply_text", "done", "failed")
MAX_ANSWER_CHARS = 2_000_000  # the block text reader's own limit on one text


class ApplyTextArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=MAX_ANSWER_CHARS)
    sprite: str | None = Field(default=None, min_length=1, max_length=200)


class ApplyText(BaseModel):
    api: Literal["apply_text"]
    args: ApplyTextArgs


TextAction = Annotated[ApplyText | Done | Failed, Field(discriminator="api")]
_TEXT: TypeAdapter[ApplyText | Done | Failed] = TypeAdapter(TextAction)


def parse_text_action(raw: dict[str, Any]) -> ApplyText | Done | Failed:
    """Validate an action of text mode; ActionError naming what is wrong."""
    if raw.get("api") not in TEXT_APIS:
        raise ActionError(
            f"unknown api {raw.get('api')!r} in text mode; use one of " + ", ".join(TEXT_APIS)
        )
    data = {"api": raw["api"], "args": raw.get("args") or {}}
    try:
        parsed: ApplyText | Done | Failed = _TEXT.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "args"
        raise ActionError(f"{raw['api']}: {where}: {first['msg']}") from None
    return parsed

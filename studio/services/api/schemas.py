"""Request and response bodies of the agent API, as pydantic models.

The OpenAPI document at GET /openapi.json is generated from these models and the routes
(`app.build_app`); nothing of it is written by hand. Request models forbid unknown fields and
check each field with a message that says what to send instead, so that a client sees
`'mode' must be 'composite' or 'primitive', not 'vr'` rather than a schema path.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from studio.models.agent import EpisodeStatus, Mode, Observation
from studio.services.episodes.feedback import MAX_FEEDBACK_TURNS

__all__ = [
    "MAX_STEP_LIMIT", "ActionRequest", "Deleted", "EpisodeList", "EpisodeRequest", "EpisodeSummary",
    "ErrorBody", "EvaluateRequest", "ObservationResponse", "ProgramResponse",
]  # fmt: skip

MAX_STEP_LIMIT = 10_000


class ErrorBody(BaseModel):
    """Every 4xx and 5xx answer."""

    error: str = Field(description="what is wrong, and what to send instead")


class EpisodeRequest(BaseModel):
    """POST /episodes: start an episode of a task."""

    model_config = ConfigDict(extra="forbid")

    task: str = Field(description="a task folder path, or the id of a task in the library")
    mode: Mode = Field(
        Mode.COMPOSITE,
        description="composite (text), primitive (pixels), patch (one patch of block edits), "
        "understand (name a bug's triggers) or text (answers in scratchblocks text)",
    )
    agent: str = Field("api", description="the name recorded in the trajectory's run.json")
    step_limit: int | None = Field(None, ge=1, le=MAX_STEP_LIMIT)
    feedback_turns: int = Field(
        0,
        ge=0,
        le=MAX_FEEDBACK_TURNS,
        description="mid-episode evaluations the agent may ask for (POST .../evaluate while the "
        "episode runs), each recorded as a feedback turn; 0 (the default): none",
    )

    @field_validator("task", mode="before")
    @classmethod
    def _task(cls, value: Any) -> Any:
        if not isinstance(value, str) or not value.strip():
            raise ValueError("'task' must be a task folder path or a task id (a string)")
        return value.strip()

    @field_validator("mode", mode="before")
    @classmethod
    def _mode(cls, value: Any) -> Any:
        if not isinstance(value, str) or value not in {m.value for m in Mode}:
            names = " or ".join(repr(m.value) for m in Mode)
            raise ValueError(f"'mode' must be {names}, not {value!r}")
        return value

    @field_validator("agent", mode="before")
    @classmethod
    def _agent(cls, value: Any) -> Any:
        if not isinstance(value, str) or not value.strip():
            raise ValueError("'agent' must be a non-empty string (recorded in run.json)")
        return value.strip()

    @field_validator("feedback_turns", mode="before")
    @classmethod
    def _feedback(cls, value: Any) -> Any:
        if type(value) is not int or not 0 <= value <= MAX_FEEDBACK_TURNS:
            raise ValueError(f"'feedback_turns' must be an integer from 0 to {MAX_FEEDBACK_TURNS}")
        return value

    @field_validator("step_limit", mode="before")
    @classmethod
    def _limit(cls, value: Any) -> Any:
        if value is not None and (type(value) is not int or not 1 <= value <= MAX_STEP_LIMIT):
            raise ValueError(f"'step_limit' must be an integer from 1 to {MAX_STEP_LIMIT}")
        return value


class ActionRequest(BaseModel):
    """POST /episodes/{id}/actions: one action of the episode's mode (FORMATS.md 3 and 4)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"api": "add_block", "args": {"blockType": "motion_movesteps"}},
                {"api": "click", "args": {"x": 640, "y": 360}, "reasoning": "open the menu"},
                {"api": "done"},
            ]
        },
    )

    api: str = Field(description="the action's name, e.g. click, drag_and_drop, add_block, done")
    args: dict[str, Any] | None = Field(None, description="the action's arguments")
    reasoning: str = Field("", description="recorded beside the step")

    @field_validator("api", mode="before")
    @classmethod
    def _api(cls, value: Any) -> Any:
        if not isinstance(value, str):
            raise ValueError("'api' must be a string naming the action, e.g. \"done\"")
        return value

    @field_validator("args", mode="before")
    @classmethod
    def _args(cls, value: Any) -> Any:
        if value is not None and not isinstance(value, dict):
            raise ValueError("'args' must be a JSON object of the action's arguments")
        return value

    @field_validator("reasoning", mode="before")
    @classmethod
    def _reasoning(cls, value: Any) -> Any:
        if not isinstance(value, str):
            raise ValueError("'reasoning' must be a string")
        return value


class EvaluateRequest(BaseModel):
    """POST /episodes/{id}/evaluate (optional body): which clock, which seed, and `final`.

    On an episode that has ended this is its evaluation, the agent's result. On a running
    episode it is a feedback turn (counted against the episode's `feedback_turns`, recorded,
    never the result; refused with 409 when none is left), unless `final` is true: then the
    episode is evaluated as it stands, as its result, and closed (no more actions)."""

    model_config = ConfigDict(extra="forbid")

    clock: Literal["task", "real", "virtual"] = Field(
        "task",
        description="task (default): accelerated unless the task needs real time; real: "
        "wall-clock time as in the published benchmark; virtual: accelerated",
    )
    seed: int = 0
    final: bool = Field(
        False,
        description="on a running episode: evaluate it as its result and close it, rather "
        "than take a feedback turn",
    )

    @field_validator("final", mode="before")
    @classmethod
    def _final(cls, value: Any) -> Any:
        if not isinstance(value, bool):
            raise ValueError("'final' must be true or false")
        return value

    @field_validator("clock", mode="before")
    @classmethod
    def _clock(cls, value: Any) -> Any:
        if not isinstance(value, str) or value not in ("task", "real", "virtual"):
            raise ValueError(f"'clock' must be 'task', 'real' or 'virtual', not {value!r}")
        return value

    @field_validator("seed", mode="before")
    @classmethod
    def _seed(cls, value: Any) -> Any:
        if type(value) is not int:
            raise ValueError("'seed' must be an integer")
        return value


class EpisodeSummary(BaseModel):
    id: str
    task: str = Field(description="task id")
    mode: Mode
    status: EpisodeStatus
    steps: int = Field(ge=0)


class EpisodeList(BaseModel):
    episodes: list[EpisodeSummary]


class Deleted(BaseModel):
    id: str
    deleted: bool


class ObservationResponse(Observation):
    """What the agent sees, with the episode's status."""

    status: EpisodeStatus


class ProgramResponse(BaseModel):
    """GET /episodes/{id}/program: the episode's current program (until it is deleted), what
    `studio run --api` keeps as an episode's final program (its d_edit and drift)."""

    id: str
    sb3_base64: str = Field(description="the program as a .sb3 file, base64-encoded")

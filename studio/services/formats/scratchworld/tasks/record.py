"""What a ScratchWorld task was, kept in task.metadata.scratchworld so export can rebuild it.

The record holds the original task JSON object whole, the file it came from and how it was
written, the project file names and content hashes, and the task lists that named it.
`Baseline` is what import made of the original object: export compares the task against it and
writes the original value for every field that did not change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from studio.models.errors import StudioError
from studio.models.task import Category, Convention, Task, TestCase
from studio.services.formats.scratchworld.tasks.layout import JsonStyle

__all__ = [
    "DEFAULT_TIMEOUT_S", "METADATA_KEY", "MS_THRESHOLD", "SW_FIELD_NAMES", "Baseline",
    "FieldProblem", "ListMembership", "ListShape", "SwRecord", "TestCasesAt", "baseline_of",
]  # fmt: skip

METADATA_KEY = "scratchworld"
MS_THRESHOLD = 1000  # a timeout above this many "seconds" is read as milliseconds
DEFAULT_TIMEOUT_S = 60.0
TestCasesAt = Literal["evaluation", "top"]


class ListMembership(BaseModel):
    """One mention of the task in a task list file: under which key, as what entry, where."""

    model_config = ConfigDict(extra="forbid")

    file: str
    key: str | None  # None when the list file is a plain JSON list
    entry: str
    index: int


class ListShape(BaseModel):
    """The parts of a task list file that are not entries: key order, other values, style."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["dict", "list"] = "dict"
    keys: list[str] = Field(default_factory=list)
    extra: dict[str, Any] = Field(default_factory=dict)
    style: JsonStyle = Field(default_factory=JsonStyle)


class SwRecord(BaseModel):
    """metadata.scratchworld of an imported task."""

    model_config = ConfigDict(extra="forbid")

    file: str  # relative to the tasks folder, e.g. "debug/pong_starter_x.json"
    style: JsonStyle = Field(default_factory=JsonStyle)
    original: dict[str, Any]
    timeout_unit: Literal["s", "ms"] = "s"
    initial_file: str | None = None  # the .sb3 name when the JSON names it without ".sb3"
    golden_source: str | None = None
    sha256: dict[str, str] = Field(default_factory=dict)  # initial, golden, script
    task_lists: list[ListMembership] = Field(default_factory=list)
    task_list_shapes: dict[str, ListShape] = Field(default_factory=dict)

    @classmethod
    def of(cls, task: Task) -> SwRecord | None:
        """The record of an imported task; None for our own tasks. Raises ValidationError."""
        raw = (task.metadata.model_extra or {}).get(METADATA_KEY)
        return None if raw is None else cls.model_validate(raw)


class FieldProblem(StudioError):
    """A task JSON object lacks a field or holds a wrong value (ScratchWorld field names)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


@dataclass
class Baseline:
    """The task fields import derives from an original ScratchWorld task object."""

    id: str
    category: str
    instruction: str
    description: str
    initial_project: str  # as written in the JSON
    function: str
    timeout_s: float
    timeout_unit: Literal["s", "ms"]
    eval_description: str
    test_cases: list[dict[str, Any]]
    test_cases_at: TestCasesAt | None
    convention: str = Convention.SCRATCHWORLD.value
    notes: list[str] = field(default_factory=list)

    @property
    def script(self) -> str:
        return self.function if self.function.endswith(".js") else f"{self.function}.js"


def _text(obj: dict[str, Any], key: str, where: str, required: bool = True) -> str:
    if key not in obj:
        if required:
            raise FieldProblem(where + key, "required field is missing")
        return ""
    value = obj[key]
    if not isinstance(value, str):
        raise FieldProblem(where + key, f"must be a string, not {type(value).__name__}")
    return value


def _timeout(evaluation: dict[str, Any], notes: list[str]) -> tuple[float, Literal["s", "ms"]]:
    if "timeout" not in evaluation:
        notes.append(f"no evaluation.timeout; using {DEFAULT_TIMEOUT_S:g} s")
        return DEFAULT_TIMEOUT_S, "s"
    value = evaluation["timeout"]
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise FieldProblem("evaluation.timeout", f"must be a positive number, not {value!r}")
    if value > MS_THRESHOLD:
        notes.append(f"evaluation.timeout {value} read as milliseconds ({value / 1000:g} s)")
        return value / 1000, "ms"
    return float(value), "s"


def _test_cases(raw: dict[str, Any], evaluation: dict[str, Any]) -> tuple[list[Any], Any]:
    if "test_cases" in evaluation:
        return evaluation["test_cases"], "evaluation"
    if "test_cases" in raw:
        return raw["test_cases"], "top"
    return [], None


def _checked_cases(cases: Any, at: TestCasesAt) -> list[dict[str, Any]]:
    where = "evaluation.test_cases" if at == "evaluation" else "test_cases"
    if not isinstance(cases, list):
        raise FieldProblem(where, "must be a list of {input, output} objects")
    out = []
    for i, case in enumerate(cases):
        try:
            out.append(TestCase.model_validate(case).model_dump())
        except ValidationError as exc:
            loc = ".".join(str(p) for p in exc.errors()[0]["loc"])
            msg = exc.errors()[0]["msg"]
            raise FieldProblem(f"{where}[{i}]{'.' + loc if loc else ''}", msg) from None
    return out


def _function(evaluation: dict[str, Any]) -> str:
    """The script's name: a plain file name in the scripts folder, never a path."""
    name = _text(evaluation, "function", "evaluation.")
    if not name or "/" in name or "\\" in name or name.strip(".") == "" or "\0" in name:
        raise FieldProblem("evaluation.function", f"{name!r} is not a plain file name")
    return name


def _convention(evaluation: dict[str, Any]) -> str:
    """`evaluation.convention` is ours (export writes it for studio-convention tasks only);
    a published task file has none: the published convention applies."""
    value = evaluation.get("convention", Convention.SCRATCHWORLD.value)
    if value not in {c.value for c in Convention}:
        raise FieldProblem("evaluation.convention", f"{value!r} is not studio or scratchworld")
    return str(value)


def baseline_of(raw: Any) -> Baseline:
    """Map an original task object to our fields; FieldProblem names the ScratchWorld field."""
    if not isinstance(raw, dict):
        raise FieldProblem("(file)", "must hold one JSON object")
    evaluation = raw.get("evaluation")
    if not isinstance(evaluation, dict):
        problem = "required field is missing" if evaluation is None else "must be an object"
        raise FieldProblem("evaluation", problem)
    category = _text(raw, "type", "")
    if category not in {c.value for c in Category}:
        raise FieldProblem("type", f"{category!r} is not one of create, debug, extend, compute")
    notes: list[str] = []
    timeout_s, unit = _timeout(evaluation, notes)
    cases, at = _test_cases(raw, evaluation)
    return Baseline(
        id=_text(raw, "name", ""),
        category=category,
        instruction=_text(raw, "instruction", ""),
        description=_text(raw, "description", "", required=False),
        initial_project=_text(raw, "initial_project", ""),
        function=_function(evaluation),
        timeout_s=timeout_s,
        timeout_unit=unit,
        eval_description=_text(evaluation, "description", "evaluation.", required=False),
        test_cases=_checked_cases(cases, at) if at else [],
        test_cases_at=at,
        convention=_convention(evaluation),
        notes=notes,
    )


# Our model's field names, as ScratchWorld calls them (for messages about Task validation).
SW_FIELD_NAMES = {
    "id": "name",
    "category": "type",
    "evaluation.script": "evaluation.function",
    "evaluation.timeout_s": "evaluation.timeout",
    "golden_project": "golden project",
}

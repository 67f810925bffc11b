"""A benchmark task: what the agent is asked to do and how its program is judged."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "FULL_STAGE", "SCRATCHWORLD_CAP_S", "SMALL_STAGE", "TASK_FILE", "Category", "ClockPreference",
    "Convention", "EquivalentMutant", "Evaluation", "Review", "ReviewEvent", "ReviewState",
    "ScriptLimit", "Task", "TaskMetadata", "TestCase",
]  # fmt: skip

TASK_FILE = "task.json"


class Category(StrEnum):
    """The four task kinds of ScratchWorld."""

    CREATE = "create"
    DEBUG = "debug"
    EXTEND = "extend"
    COMPUTE = "compute"


class ReviewState(StrEnum):
    DRAFT = "draft"
    IN_REVIEW = "in_review"
    APPROVED = "approved"
    REJECTED = "rejected"


class ReviewEvent(BaseModel):
    """One change of review state: who, when, to what, and why."""

    model_config = ConfigDict(extra="forbid")

    state: ReviewState
    by: str = ""
    at: datetime
    comment: str = ""


class Review(BaseModel):
    model_config = ConfigDict(extra="forbid")

    state: ReviewState = ReviewState.DRAFT
    history: list[ReviewEvent] = Field(default_factory=list)


class TestCase(BaseModel):
    """An input/output pair of a compute task (passed to the script in its config)."""

    __test__ = False  # not a pytest test class

    model_config = ConfigDict(extra="forbid")

    input: str | int | float | list[str | int | float]
    output: str | int | float


def _plain_name(value: str | None) -> str | None:
    """A file named by a task file is a plain name inside the task folder, never a path."""
    if value is not None and (
        "/" in value or "\\" in value or "\0" in value or value.strip(".") == ""
    ):
        raise ValueError("must be a file name inside the task folder")
    return value


class ClockPreference(StrEnum):
    """Which clock evaluations of this task use."""

    AUTO = "auto"  # accelerated, unless a check finds it disagrees with real time
    VIRTUAL = "virtual"
    REAL = "real"


class Convention(StrEnum):
    """How the evaluation script is called and stopped.

    - `studio`: the script gets `config` = {task_id, category, timeout, test_cases} from this
      file and is stopped after `evaluation.timeout_s` (tasks authored in the studio).
    - `scratchworld`: exactly as the published ScratchWorld service calls it: `config` is `{}`
      and one fixed 120 s cap applies to the whole script; `evaluation.timeout_s` is the set's
      own number (kept for export) and limits nothing, as the scripts use their own per-case
      limits; the stage is in small stage mode (tasks imported from a ScratchWorld set).
    """

    STUDIO = "studio"
    SCRATCHWORLD = "scratchworld"


SCRATCHWORLD_CAP_S = 120.0  # the published service's safety cap on a whole script
FULL_STAGE = (480, 360)  # the stage's size on screen, CSS px
SMALL_STAGE = (240, 180)  # in the editor's small stage mode, which the published runner selects


@dataclass(frozen=True)
class ScriptLimit:
    """How long a script may run, and where that number comes from (for messages)."""

    seconds: float
    source: str


class Evaluation(BaseModel):
    """How the task is judged: the script file, its time limit and the helper library."""

    model_config = ConfigDict(extra="forbid")

    script: str = "evaluate.js"
    timeout_s: float = Field(default=60.0, gt=0, le=3600)
    description: str = ""
    helper_library: str | None = None  # a task set's own helper file; None = ours
    test_cases: list[TestCase] = Field(default_factory=list)
    clock: ClockPreference = ClockPreference.AUTO
    convention: Convention = Convention.STUDIO

    @field_validator("script", "helper_library")
    @classmethod
    def _plain_file_name(cls, value: str | None) -> str | None:
        return _plain_name(value)

    def limit(self) -> ScriptLimit:
        """The whole-script time limit this task's convention applies."""
        if self.convention is Convention.SCRATCHWORLD:
            return ScriptLimit(
                SCRATCHWORLD_CAP_S, "the published ScratchWorld convention's cap on a whole script"
            )
        return ScriptLimit(self.timeout_s, "evaluation.timeout_s in task.json")

    def stage_size(self) -> tuple[int, int]:
        """The stage's size on screen during the evaluation. The published runner switches the
        editor to small stage mode before it evaluates, and the renderer maps mouse positions
        (sprite clicks) through the stage's on-screen box: under that convention the stage is
        small here too, so clicks land where they land in the published protocol."""
        return SMALL_STAGE if self.convention is Convention.SCRATCHWORLD else FULL_STAGE


class EquivalentMutant(BaseModel):
    """A surviving mutant the author judged equivalent to the golden program, and why."""

    model_config = ConfigDict(extra="forbid")

    mutant_id: str
    operator: str = ""
    block_id: str = ""
    description: str = ""
    reason: str = Field(min_length=1)
    by: str = ""
    at: datetime | None = None


class TaskMetadata(BaseModel):
    model_config = ConfigDict(extra="allow")

    block_types_used: list[str] = Field(default_factory=list)
    blocks_changed: int | None = None
    difficulty: str = ""
    tags: list[str] = Field(default_factory=list)


class Task(BaseModel):
    """Everything in a task folder's task.json; the projects and script are files beside it."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    category: Category
    instruction: str = Field(min_length=1)
    description: str = ""
    initial_project: str = "initial.sb3"
    golden_project: str | None = "golden.sb3"
    negative_projects: list[str] = Field(default_factory=list)
    evaluation: Evaluation = Field(default_factory=Evaluation)
    author: str = ""
    review: Review = Field(default_factory=Review)
    metadata: TaskMetadata = Field(default_factory=TaskMetadata)
    equivalent_mutants: list[EquivalentMutant] = Field(default_factory=list)

    @field_validator("initial_project", "golden_project")
    @classmethod
    def _plain_file_name(cls, value: str | None) -> str | None:
        return _plain_name(value)

    def eval_config(self) -> dict[str, object]:
        """The `config` object handed to the evaluation script (`{}` as ScratchWorld passes it)."""
        if self.evaluation.convention is Convention.SCRATCHWORLD:
            return {}
        return {
            "task_id": self.id,
            "category": self.category.value,
            "timeout": self.evaluation.timeout_s,
            "test_cases": [c.model_dump() for c in self.evaluation.test_cases],
        }

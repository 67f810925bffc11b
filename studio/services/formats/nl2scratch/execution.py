"""Execution verdicts of NL2Scratch predictions: each prediction run in its task's project and
judged by the task's own script.

Where a set was imported (`studio import nl2scratch`), each row's key has a task whose
task.json keeps the row (`metadata.nl2scratch`: key, sprite). `imported_tasks(library)` finds
them. `execute` builds each prediction into its task's *initial* project, replacing the
scripts of the row's sprite (text without target markers goes there; marked text replaces the
targets it names), and evaluates the result with the task's evaluation script on the clock the
studio's clock policy picks for the task (the virtual clock unless the task needs real time).
A prediction with lines that cannot be placed is not run: its verdict is a failure whose
`error` names the first such line. Rows whose key has no task get no verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from studio.models.errors import StudioError
from studio.services.core.blocktext.project_text import BlockTextError, build_into
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import TaskFolder, scan_library
from studio.services.runtime.clock_agreement import evaluate_on_chosen_clock
from studio.services.runtime.evaluator import Evaluator

__all__ = ["ExecutionVerdict", "execute", "imported_tasks", "row_sprite"]


@dataclass(frozen=True)
class ExecutionVerdict:
    """A prediction judged by its task's script: passed (every test), tests passed and run,
    the clock it ran on, and why it was not judged or failed to run (`error`)."""

    key: str
    task_id: str
    passed: bool
    passed_tests: int
    total_tests: int
    clock: str
    error: str | None = None


def _stored(entry: TaskFolder) -> dict[str, object] | None:
    meta = entry.task.metadata.model_extra or {}
    stored = meta.get("nl2scratch")
    return stored if isinstance(stored, dict) and "key" in stored else None


def imported_tasks(library: Path) -> tuple[dict[str, TaskFolder], list[str]]:
    """The tasks below `library` made from NL2Scratch rows, by key; and the task folders that
    could not be read (named with why)."""
    scan = scan_library(library)
    found: dict[str, TaskFolder] = {}
    for entry in scan.tasks:
        stored = _stored(entry)
        if stored is not None:
            found.setdefault(str(stored["key"]), entry)
    return found, [str(e) for e in scan.errors]


def row_sprite(entry: TaskFolder) -> str:
    """The sprite the task's row program lives in."""
    stored = _stored(entry) or {}
    return str(stored.get("sprite") or "Sprite1")


async def execute(
    evaluator: Evaluator,
    predictions: list[tuple[str, list[str]]],
    tasks: dict[str, TaskFolder],
    progress: Callable[[int, int, str], None] | None = None,
) -> dict[str, ExecutionVerdict]:
    """The verdict of each (key, predicted lines) whose key has a task (see the module doc)."""
    out: dict[str, ExecutionVerdict] = {}
    todo = [(key, lines) for key, lines in predictions if key in tasks]
    for index, (key, lines) in enumerate(todo):
        if progress:
            progress(index, len(todo), key)
        out[key] = await _judge(evaluator, key, lines, tasks[key])
    return out


async def _judge(
    evaluator: Evaluator, key: str, lines: list[str], entry: TaskFolder
) -> ExecutionVerdict:
    task_id = entry.task.id
    text = "\n".join(lines)
    try:
        data, _project = load_sb3(entry.initial_path)
        built = build_into(
            data, entry.initial_path.name, text, f"prediction {key}", row_sprite(entry)
        )
    except BlockTextError as exc:
        first = exc.problems[0] if exc.problems else "no line"
        return ExecutionVerdict(key, task_id, False, 0, 0, "", f"does not build: {first}")
    except StudioError as exc:
        return ExecutionVerdict(key, task_id, False, 0, 0, "", f"cannot be built: {exc}")
    result = await evaluate_on_chosen_clock(
        evaluator, entry, built.data, project_name=f"prediction-{task_id}.sb3"
    )
    error = None
    if result.error is not None:
        error = f"{result.error.kind.value}: {result.error.message}"
    return ExecutionVerdict(
        key,
        task_id,
        result.ok,
        result.passed_tests,
        result.total_tests,
        result.clock.value,
        error,
    )

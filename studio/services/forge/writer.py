"""Writing a forged debug task into a library: whole or not at all.

What an agent may see (instruction, description, tags) says nothing of the mechanism, the
site or the fix: those are only in `bug.json`.

The task is assembled in a hidden folder of the library (`.forge-<id>-<random>`) and renamed to
its id when complete, so a forge stopped by Ctrl+C or a kill leaves either the whole task or a
hidden leftover that the next forge removes (`clean_leftovers`); a folder named after the id
means the task was kept before, and `forged_ids` lists them so a rerun does not repeat them.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from pathlib import Path

from studio.models.forge import BUG_FILE, BugRecord
from studio.models.task import TASK_FILE, Category, Convention, Review, ReviewState, Task
from studio.services.core import atomic
from studio.services.core.store import TaskFolder

__all__ = ["PREFIX", "clean_leftovers", "forged_ids", "instruction_for", "write_task"]

PREFIX = ".forge-"


def clean_leftovers(library: Path) -> None:
    """Remove half-written tasks left by a forge that was stopped."""
    if library.is_dir():
        for child in library.iterdir():
            if child.name.startswith(PREFIX) and child.is_dir():
                shutil.rmtree(child, ignore_errors=True)


def forged_ids(library: Path) -> set[str]:
    """Ids of the whole tasks already in the library."""
    if not library.is_dir():
        return set()
    return {c.name for c in library.iterdir() if (c / TASK_FILE).is_file()}


def instruction_for(golden: Task, record: BugRecord) -> str:
    r = record.report
    wanted = golden.instruction
    if golden.category is Category.DEBUG and golden.evaluation.description:
        wanted = golden.evaluation.description  # its instruction describes its own bug
    return (
        f"This project should do the following: {wanted}\n\n"
        f"Bug report. Symptom: {r.symptom} Expected: {r.expected} Trigger: {r.trigger}\n\n"
        "Find the bug and fix the project with the smallest change."
    )


def write_task(
    library: Path,
    task_id: str,
    golden: TaskFolder,
    bugged_sb3: bytes,
    record: BugRecord,
    derived_script: str | None,
) -> Path:
    """The debug task `task_id` in `library`: initial = bugged, golden = the golden's, the
    golden's own script (and helper library) or `derived_script`, bug.json; review draft."""
    library.mkdir(parents=True, exist_ok=True)
    final = library / task_id
    work = library / f"{PREFIX}{task_id}-{secrets.token_hex(4)}"
    work.mkdir()
    try:
        src = golden.task
        assert golden.golden_path is not None
        evaluation = src.evaluation.model_copy(deep=True)
        if derived_script is not None:
            evaluation.script = "evaluate.js"
            evaluation.helper_library = None
            evaluation.convention = Convention.STUDIO  # as propose ran and validated it
            atomic.write_text(work / "evaluate.js", derived_script)
        else:
            shutil.copyfile(golden.script_path, work / evaluation.script)
            if evaluation.helper_library:
                shutil.copyfile(golden.helper_path, work / evaluation.helper_library)
        shutil.copyfile(golden.golden_path, work / "golden.sb3")
        atomic.write_bytes(work / "initial.sb3", bugged_sb3)
        metadata = src.metadata.model_copy(deep=True)
        metadata.tags = sorted({*metadata.tags, "forged"})  # the mechanism stays in bug.json
        task = Task(
            id=task_id,
            category=Category.DEBUG,
            instruction=instruction_for(src, record),
            description=f"Forged from {src.id}; the ground truth is in {BUG_FILE}.",
            initial_project="initial.sb3",
            golden_project="golden.sb3",
            evaluation=evaluation,
            author=src.author,
            review=Review(state=ReviewState.DRAFT),
            metadata=metadata,
        )
        atomic.write_text(work / TASK_FILE, task.model_dump_json(indent=2) + "\n")
        atomic.write_text(work / BUG_FILE, json.dumps(record.model_dump(), indent=2) + "\n")
        os.rename(work, final)  # whole, or not there at all
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return final

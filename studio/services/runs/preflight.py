"""Tasks checked before any agent plays them: a broken task is the task's problem.

`task_problems(tasks)` finds what would make every episode of a task fail whatever the agent
does, and names it: an initial project that is not a loadable Scratch 3 project
(`core.sb3.load_sb3`: not a zip, no project.json, missing assets, an extension that does not
load offline), and an evaluation script (or the task's own helper library) that cannot be
read or does not parse (`runtime.page_scripts.syntax_error`, in a blank page of a browser:
the script is parsed as the evaluation runner wraps it, and nothing of it runs). `studio
run` reports these tasks as task problems and plays none of them (exit code 1);
`record_problems` leaves a run.json for each of their episodes (no verdict, `meta.failure`
"task", `meta.error` the problem), so `studio report` names them apart from the agent's
episodes, and a resume checks them again.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from studio.models.agent import EpisodeStatus, Mode
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.core import atomic, paths
from studio.services.core.errors import ProjectFileError
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import TaskFolder
from studio.services.runtime import page_scripts
from studio.services.runtime.windows import open_page

__all__ = [
    "PARSE_LIMIT_S", "TaskProblem", "project_problems", "record_problems", "task_problems",
]  # fmt: skip

PARSE_LIMIT_S = 30.0  # parsing one script in a blank page


@dataclass(frozen=True)
class TaskProblem:
    """What makes a task unplayable: the task, the file and the problem."""

    task: TaskFolder
    message: str

    def line(self) -> str:
        return f"TASK PROBLEM {self.task.task.id}: {self.message}"


def project_problems(tasks: list[TaskFolder]) -> list[TaskProblem]:
    """Tasks whose initial project is not a loadable Scratch 3 project."""
    found = []
    for task in tasks:
        try:
            load_sb3(task.initial_path)
        except ProjectFileError as exc:
            found.append(TaskProblem(task, f"initial project {exc}"))
    return found


async def task_problems(tasks: list[TaskFolder], context: Any = None) -> list[TaskProblem]:
    """Every problem of `tasks` (see the module docstring), in the tasks' order. Scripts are
    parsed in a page of the browser `context` (a Playwright context), or of a browser started
    here for it when there is none."""
    found = project_problems(tasks)
    scripts: list[tuple[TaskFolder, str, str]] = []
    for task in tasks:
        for path in _scripts(task):
            try:
                scripts.append((task, path.name, path.read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError) as exc:
                found.append(TaskProblem(task, f"{path}: cannot be read ({exc})"))
    if scripts:
        found += await _parse_all(scripts, context)
    order = {task.task.id: i for i, task in enumerate(tasks)}
    return sorted(found, key=lambda p: order.get(p.task.task.id, 0))


def _scripts(task: TaskFolder) -> list[Any]:
    own = [task.script_path]
    if task.helper_path != paths.HELPER_LIBRARY:  # the studio's own library is ours to keep
        own.append(task.helper_path)
    return own


async def _parse_all(scripts: list[tuple[TaskFolder, str, str]], context: Any) -> list[TaskProblem]:
    if context is None:
        from studio.services.runtime.browser import BrowserPool

        async with BrowserPool(spares=0) as pool:
            return await _parse_all(scripts, pool.context)
    page = await asyncio.wait_for(open_page(context), PARSE_LIMIT_S)
    try:
        found = []
        for task, name, source in scripts:
            error = await asyncio.wait_for(page_scripts.syntax_error(page, source), PARSE_LIMIT_S)
            if error is not None:
                found.append(TaskProblem(task, f"{name} does not parse: SyntaxError: {error}"))
        return found
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(page.close(), PARSE_LIMIT_S)


def record_problems(problems: list[TaskProblem], jobs: list[Any], mode: Mode, agent: str) -> None:
    """A run.json in the folder of every job (campaign.Job) of a task with a problem."""
    why = {p.task.task.id: p.message for p in problems}
    now = datetime.now(UTC)
    for job in jobs:
        message = why.get(job.task.task.id)
        if message is None:
            continue
        run = RunInfo(
            episode_id="",
            task_id=job.task.task.id,
            task_folder=str(job.task.folder),
            mode=mode,
            agent=agent,
            started_at=now,
            ended_at=now,
            status=EpisodeStatus.CLOSED,
            meta={"failure": "task", "error": message, "epoch": job.epoch},
        )
        job.folder.mkdir(parents=True, exist_ok=True)
        atomic.write_text(job.folder / RUN_FILE, run.model_dump_json(indent=2) + "\n")

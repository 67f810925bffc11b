"""Forging debug tasks from goldens: the one loop `studio forge` and the window's *Forge debug
tasks…* run (the forge itself is `services.forge.pipeline`).

- `goldens_in(paths)`: the tasks with a golden project under each path (a task folder or a
  library), and the folders that failed to load on the way. StudioError names the paths when
  there is no golden at all.
- `forge_all(evaluator, goldens, library, options, events)`: each golden in turn through
  `forge_golden`, writing kept bugs as whole debug tasks into `library`; `events` (a
  `ForgeEvents`) hears progress (golden i of n and what happened) and every judged candidate
  (a `Verdict`: reruns, kept or why not, the bugged program). To cancel, cancel the asyncio
  task that awaits it (the window's Cancel, the command's Ctrl+C): a forged task is written
  whole or not at all, so only whole tasks are left behind.
- Review before the library (the window): `open_staging(library)` makes a hidden folder in
  the library for the forge to write into (the library's scan skips hidden folders);
  `keep(staged_task, library, instruction)` moves one forged task into the library whole (one
  rename), with the author's edited instruction when given; `drop(staged_task)` removes one;
  `close_staging(staging)` removes what the author neither kept nor dropped.
- A forge or a window killed while it forged leaves its staging folder behind:
  `clean_stale_staging(library)` removes the staging folders whose owner process is gone
  (`services.forge.staging`: each staging folder names its owner), and `forge_all` does so
  first in the library it forges into and in `kept_in`; the window calls it whenever it opens
  a library. Only whole tasks are left in the library, and what the author kept there is not
  forged again.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from studio.models.errors import StudioError
from studio.models.forge import ForgeOutcome
from studio.models.task import TASK_FILE
from studio.services.core import atomic
from studio.services.core.store import TaskFolder, load_task, scan_library
from studio.services.forge import staging as staging_folders
from studio.services.forge.pipeline import ForgeOptions, Verdict, forge_golden
from studio.services.runtime.evaluator import Evaluates

__all__ = [
    "STAGING_PREFIX",
    "ForgeEvents",
    "clean_stale_staging",
    "close_staging",
    "drop",
    "forge_all",
    "goldens_in",
    "keep",
    "open_staging",
]

STAGING_PREFIX = staging_folders.PREFIX


@dataclass
class ForgeEvents:
    """What a front end hears while forging. `progress(index, total, golden, what)`: golden
    `index` (from 0) of `total` did `what` (the forge's own words); `verdict(v)`: a candidate
    was judged; `finished(index, total, outcome)`: golden `index` is done."""

    progress: Callable[[int, int, str, str], None] = lambda _i, _n, _g, _w: None
    verdict: Callable[[Verdict], None] = lambda _v: None
    finished: Callable[[int, int, ForgeOutcome], None] = lambda _i, _n, _o: None


def goldens_in(paths: Sequence[Path]) -> tuple[list[TaskFolder], list[str]]:
    """The tasks with a golden project under `paths`, and one line per folder that failed."""
    found: list[TaskFolder] = []
    errors: list[str] = []
    for path in paths:
        scan = scan_library(path)
        errors += [str(e) for e in scan.errors]
        found += [t for t in scan.tasks if t.task.golden_project]
    if not found:
        names = ", ".join(str(p) for p in paths)
        raise StudioError(f"{names}: no task with a golden project to forge from")
    return found, errors


async def forge_all(
    evaluator: Evaluates,
    goldens: Sequence[TaskFolder],
    library: Path,
    options: ForgeOptions,
    events: ForgeEvents | None = None,
    kept_in: Sequence[Path] = (),
) -> list[ForgeOutcome]:
    """Forge from every golden in turn into `library`; one outcome per golden, in order (a
    golden that cannot be forged has its `error` and the others go on). A task already in
    `library` or in one of `kept_in` (the window's library, when forging into its staging
    folder) counts as kept before and is not forged again. Stale staging folders of `library`
    and of `kept_in` (left by a forge that was killed) are removed first."""
    for root in (library, *kept_in):
        clean_stale_staging(root)
    events = events or ForgeEvents()
    outcomes: list[ForgeOutcome] = []
    total = len(goldens)
    for index, entry in enumerate(goldens):

        def said(golden: str, what: str, index: int = index) -> None:
            events.progress(index, total, golden, what)

        outcome = await forge_golden(
            evaluator, entry, library, options, said, events.verdict, kept_in
        )
        outcomes.append(outcome)
        events.finished(index, total, outcome)
    return outcomes


def open_staging(library: Path) -> Path:
    """A new hidden folder in `library` where forged tasks wait for the author."""
    library.mkdir(parents=True, exist_ok=True)
    staging = library / f"{STAGING_PREFIX}{secrets.token_hex(4)}"
    staging.mkdir()
    staging_folders.claim(staging)
    return staging


def clean_stale_staging(library: Path) -> list[Path]:
    """Remove the staging folders of `library` left by a forge whose process is gone (a kill,
    a crash): what the author had not kept. The folders removed."""
    return staging_folders.clean_stale(library)


def keep(staged_task: Path, library: Path, instruction: str | None = None) -> Path:
    """Move the forged task at `staged_task` into `library` whole; `instruction`, when given
    and not blank, replaces the forged one first. The task's folder in the library is returned."""
    entry = load_task(staged_task)
    final = library / entry.task.id
    if final.exists():
        raise StudioError(f"{final}: a task with this id is already in the library")
    if instruction is not None and instruction.strip():
        task = entry.task.model_copy(update={"instruction": instruction.strip()})
        atomic.write_text(staged_task / TASK_FILE, task.model_dump_json(indent=2) + "\n")
    os.rename(staged_task, final)  # whole, or not there at all
    return final


def drop(staged_task: Path) -> None:
    """Remove a forged task the author does not want."""
    shutil.rmtree(staged_task, ignore_errors=True)


def close_staging(staging: Path) -> None:
    """Remove the staging folder and whatever the author did not keep."""
    shutil.rmtree(staging, ignore_errors=True)

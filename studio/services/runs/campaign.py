"""A campaign: a run folder that knows what it is for, so it can be resumed and re-judged.

`<run dir>/campaign.json` (the `Manifest`, written atomically before the first episode) names
the tasks (id, folder, SHA-256 of the evaluation script's content), the agent, the mode, the
number of epochs, the base seed and the settings (step limit, clock, retries, limits, prices),
and the studio version. Episode `(task, epoch)` is recorded in `<run dir>/<task id>/` when
there is one epoch, else in `<run dir>/<task id>/epoch-<e>/`; its agent seed is
`seed + (e - 1) * len(tasks) + position of the task in the manifest`, the same on a resume.

`<run dir>/results.jsonl` gets one line per finished episode (`{"task", "epoch", "success",
"passed", "total", "failure", "folder"}`), appended and synced as each one ends. An episode is
finished when it has a line there, or when its run.json holds a verdict or an agent failure
(the process died between the two writes; the line is then added). Environment failures left
after the retries are not finished: a resume plays them again. A torn last line (the process
was killed while writing it) is named, dropped and rewritten; any other line that is not a
result is an error naming the file and the line. `plan_jobs` lists the episodes left to play.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from studio import __version__
from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.core import atomic
from studio.services.core.store import TaskFolder

__all__ = [
    "FORMAT", "MANIFEST_FILE", "RESULTS_FILE", "CampaignTask", "Job", "Ledger", "Manifest",
    "changed_scripts", "check_resume", "episode_folder", "key", "new_manifest", "plan_jobs",
    "read_manifest", "result_line", "script_hash", "write_manifest",
]  # fmt: skip

MANIFEST_FILE = "campaign.json"
RESULTS_FILE = "results.jsonl"
FORMAT = 1


class CampaignTask(BaseModel):
    """One task of a campaign, with the content hash of the script that judges it."""

    id: str
    folder: str
    script_sha256: str


class Manifest(BaseModel):
    """What a campaign plays: `campaign.json` of its run folder."""

    format: int = FORMAT
    studio_version: str = __version__
    created_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    agent: str
    mode: Mode
    epochs: int = 1
    seed: int = 0
    tasks: list[CampaignTask]
    settings: dict[str, Any] = Field(default_factory=dict)

    def task_ids(self) -> list[str]:
        return [t.id for t in self.tasks]


def script_hash(path: Path) -> str:
    """SHA-256 of a file's bytes ('' when it cannot be read)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def new_manifest(
    tasks: list[TaskFolder], agent: str, mode: Mode, epochs: int, seed: int, **settings: Any
) -> Manifest:
    entries = [
        CampaignTask(id=t.task.id, folder=str(t.folder), script_sha256=script_hash(t.script_path))
        for t in tasks
    ]
    return Manifest(
        agent=agent, mode=mode, epochs=epochs, seed=seed, tasks=entries, settings=settings
    )


def write_manifest(run_dir: Path, manifest: Manifest) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    atomic.write_text(run_dir / MANIFEST_FILE, manifest.model_dump_json(indent=2) + "\n")


def read_manifest(run_dir: Path) -> Manifest:
    """The manifest of `run_dir`; StudioError naming the file when it is missing or torn."""
    path = Path(run_dir) / MANIFEST_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise StudioError(f"{path}: cannot be read, not a campaign folder? ({exc})") from None
    try:
        return Manifest.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "file"
        raise StudioError(f"{path}: torn or invalid manifest: '{where}': {first['msg']}") from None


def check_resume(
    manifest: Manifest, given: list[TaskFolder], where: Path | None = None
) -> list[str]:
    """StudioError when TASKS given on a resume are not the manifest's; warnings otherwise
    (another studio version, an evaluation script changed since the campaign began). `where`
    (the campaign's folder) names the manifest in the messages."""
    named = f"{Path(where) / MANIFEST_FILE}: " if where is not None else ""
    if given and sorted(t.task.id for t in given) != sorted(manifest.task_ids()):
        extra = sorted({t.task.id for t in given} - set(manifest.task_ids()))
        missing = sorted(set(manifest.task_ids()) - {t.task.id for t in given})
        raise StudioError(
            f"{named}the tasks given are not the campaign's (not in it: {extra or 'none'}; "
            f"missing: {missing or 'none'}); give the same tasks or none"
        )
    warnings = []
    if manifest.studio_version != __version__:
        warnings.append(
            f"{named}the campaign was started by studio {manifest.studio_version}, "
            f"this is {__version__}"
        )
    return warnings + changed_scripts(manifest, given)


def changed_scripts(manifest: Manifest, tasks: list[TaskFolder]) -> list[str]:
    """A warning for each task whose evaluation script is not the one the manifest hashed."""
    entries = {entry.id: entry for entry in manifest.tasks}
    warnings = []
    for task in tasks:
        entry = entries.get(task.task.id)
        path = task.script_path
        if entry is not None and path is not None and script_hash(path) != entry.script_sha256:
            warnings.append(f"{path}: evaluation script changed since the campaign began")
    return warnings


def episode_folder(run_dir: Path, task_id: str, epoch: int, epochs: int) -> Path:
    return run_dir / task_id if epochs == 1 else run_dir / task_id / f"epoch-{epoch}"


def key(task_id: str, epoch: int) -> tuple[str, int]:
    return task_id, epoch


class Ledger:
    """`results.jsonl`: the finished episodes of a campaign, one line each."""

    def __init__(self, run_dir: Path) -> None:
        self.path = Path(run_dir) / RESULTS_FILE
        self.warnings: list[str] = []
        self.done: dict[tuple[str, int], dict[str, Any]] = {}
        self._read()

    def _read(self) -> None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise StudioError(f"{self.path}: cannot be read ({exc})") from None
        lines = raw.split(b"\n")
        good = 0
        for n, line in enumerate(lines, 1):
            if not line.strip():
                good += len(line) + 1
                continue
            record = _record(line)
            if record is None and n == len(lines):  # torn last line: no newline after it
                self.warnings.append(
                    f"{self.path}: line {n} is torn (the run was killed while writing it); "
                    "dropped, that episode is looked up in its folder"
                )
                with open(self.path, "r+b") as fh:
                    fh.truncate(good)
                return
            if record is None:
                raise StudioError(f"{self.path}: line {n}: not a result line")
            self.done[key(record["task"], record["epoch"])] = record
            good += len(line) + 1
        if raw and not raw.endswith(b"\n"):  # whole last record, its newline never written
            with open(self.path, "ab") as fh:
                fh.write(b"\n")

    def finished(self, task_id: str, epoch: int, folder: Path) -> bool:
        """Has the episode a result (here, or a verdict in its run.json, then noted here)?"""
        if key(task_id, epoch) in self.done:
            return True
        run = _run_info(folder)
        if run is None or not (run.eval is not None or run.meta.get("failure") == "agent"):
            return False
        self.add(result_line(run, task_id, epoch, folder))
        return True

    def add(self, record: dict[str, Any]) -> None:
        """Append one line and sync it to disk."""
        self.done[key(record["task"], record["epoch"])] = record
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record) + "\n")
            fh.flush()
            os.fsync(fh.fileno())


def result_line(run: RunInfo, task_id: str, epoch: int, folder: Path) -> dict[str, Any]:
    result = run.eval
    return {
        "task": task_id,
        "epoch": epoch,
        "success": bool(result and result.ok),
        "passed": result.passed_tests if result else 0,
        "total": result.total_tests if result else 0,
        "failure": run.meta.get("failure"),
        "folder": str(folder),
        **{k: run.meta[k] for k in ("repair", "understanding") if k in run.meta},
    }


def _record(line: bytes) -> dict[str, Any] | None:
    try:
        data = json.loads(line.decode("utf-8"))
    except ValueError:
        return None
    ok = isinstance(data, dict) and isinstance(data.get("task"), str)
    return data if ok and isinstance(data.get("epoch"), int) else None


def _run_info(folder: Path) -> RunInfo | None:
    try:
        return RunInfo.model_validate_json((folder / RUN_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


@dataclass(frozen=True)
class Job:
    """One episode to play: a task in an epoch, its seed position and its folder."""

    task: TaskFolder
    epoch: int
    position: int
    folder: Path


def plan_jobs(
    tasks: list[TaskFolder], run_dir: Path, epochs: int = 1, ledger: Ledger | None = None
) -> tuple[list[Job], int]:
    """The episodes left to play (epoch by epoch) and how many the ledger holds as finished.

    An unfinished episode's folder (the run was stopped or killed in it) is emptied first."""
    jobs, finished = [], 0
    for epoch in range(1, epochs + 1):
        for i, task in enumerate(tasks):
            folder = episode_folder(run_dir, task.task.id, epoch, epochs)
            if ledger is not None and ledger.finished(task.task.id, epoch, folder):
                finished += 1
                continue
            if ledger is not None and folder.exists():
                shutil.rmtree(folder)
            jobs.append(Job(task, epoch, (epoch - 1) * len(tasks) + i, folder))
    return jobs, finished

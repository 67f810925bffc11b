"""The result folders ScratchWorld's published runners write, read as they are
(SCRATCHWORLD_API.md section 12), for `studio report`, the run viewer and the bundle.

Three kinds of folder are recognised by name, at the folder given or anywhere below it:

- **task runner** `result_<model>_<mode>_<agent>/<category>/<task>/` (mode `composite` or
  `primitive`): one row of the report, labelled `<model> (<agent>)`, with SR and PSR per
  category. Each task folder's `result.json` becomes a `RunInfo` (the studio's run header), so
  the report counts it exactly as a studio run: the verdict is the `evaluation` the runner
  stored (`success`, `passed_tests`, `total_tests`, `partial_success_rate`, `details`); an
  exception record (`{success: false, error, traceback}`) counts as a failed task with PSR 0.
  The start time is the first turn of the interaction log, the end the record's `timestamp`.
- **drag runner** `result_single_step_drag_benchmark_<model>/<id>/<run>/result.json`, and
- **perception runner** `result_visual_perception_benchmark_<model>/<task_id>/result.json`:
  one diagnostics row each (`results_diag`).

Nothing here fails on a folder's content: a torn or unreadable result.json, a task folder
without one, a recording or screenshot the files name but that is missing, each becomes a
problem line naming its path, and whatever else could be read is counted and shown.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from studio.models.agent import EpisodeStatus, Mode
from studio.models.evaluation import ErrorKind, EvalError, EvalResult, TestDetail
from studio.models.report import DiagnosticRow, RunEntry
from studio.models.trajectory import RunInfo

__all__ = [
    "LOG_PREFIX", "RESULT_FILE", "SOURCE", "FieldResults", "ResultFolder", "TaskResult", "classify",
    "find_result_folders", "read_json", "read_log", "read_task", "resolve", "task_folders",
    "task_results", "turn_screenshot",
]  # fmt: skip

RESULT_FILE = "result.json"
LOG_PREFIX = "interaction_log_"
SOURCE = "scratchworld"
_TASK_DIR = re.compile(r"^result_(?P<model>.+)_(?P<mode>composite|primitive)_(?P<agent>.+)$")
_DRAG_DIR = re.compile(r"^result_single_step_drag_benchmark_(?P<model>.+)$")
_QA_DIR = re.compile(r"^result_visual_perception_benchmark_(?P<model>.+)$")
_STATUS = {
    "done": EpisodeStatus.DONE,
    "completed": EpisodeStatus.DONE,
    "failed": EpisodeStatus.FAILED,
}


@dataclass(frozen=True)
class ResultFolder:
    """A runner's result folder: kind `task`, `drag` or `qa`, and what its name says."""

    path: Path
    kind: str
    model: str
    mode: str = ""
    agent: str = ""

    @property
    def label(self) -> str:
        """The report's agent column: `<model> (<agent>)` for a task runner, else the model."""
        return f"{self.model} ({self.agent})" if self.agent else self.model


@dataclass
class TaskResult:
    """One task folder of a task runner: its run header (None when result.json is unreadable),
    its interaction log (if any) and the problems met reading it."""

    folder: Path
    run: RunInfo | None
    log: Path | None = None
    problems: list[str] = field(default_factory=list)


@dataclass
class FieldResults:
    """Everything below a folder: task episodes (as report entries), diagnostics rows, problems."""

    folders: list[ResultFolder] = field(default_factory=list)
    entries: list[RunEntry] = field(default_factory=list)
    diagnostics: list[DiagnosticRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def classify(path: Path) -> ResultFolder | None:
    """The kind of result folder `path` is by its name (None: not one)."""
    name = path.name
    for kind, pattern in (("drag", _DRAG_DIR), ("qa", _QA_DIR)):
        m = pattern.match(name)
        if m:
            return ResultFolder(path, kind, m["model"])
    m = _TASK_DIR.match(name)
    return ResultFolder(path, "task", m["model"], m["mode"], m["agent"]) if m else None


def find_result_folders(root: Path) -> list[ResultFolder]:
    """`root` itself when it is a result folder, else every result folder below it."""
    root = Path(root)
    if not root.is_dir():
        return []
    own = classify(root)
    if own is not None:
        return [own]
    found: list[ResultFolder] = []
    for path in sorted(p for p in root.rglob("result_*") if p.is_dir()):
        if any(f.path in path.parents for f in found):
            continue
        folder = classify(path)
        if folder is not None:
            found.append(folder)
    return found


# ---- task runner ---------------------------------------------------------------------------
def task_folders(folder: ResultFolder) -> list[Path]:
    """`<category>/<task>/` folders of a task runner's result folder."""
    return sorted(
        task
        for category in folder.path.iterdir()
        if category.is_dir() and not category.name.startswith(".")
        for task in category.iterdir()
        if task.is_dir() and not task.name.startswith(".")
    )


def task_results(folder: ResultFolder) -> list[TaskResult]:
    return [read_task(path, folder) for path in task_folders(folder)]


def read_json(path: Path, problems: list[str]) -> Any:
    """The JSON in `path`, or None with a problem line naming the file (torn, unreadable)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        problems.append(f"{path}: cannot be read ({exc.strerror or exc})")
        return None
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        torn = isinstance(exc, json.JSONDecodeError) and not data.rstrip().endswith((b"}", b"]"))
        what = "torn (ends mid-record)" if torn else "not JSON"
        problems.append(f"{path}: {what}: {exc}; left out")
        return None


def read_task(path: Path, folder: ResultFolder) -> TaskResult:
    """One task folder as a run header, checking the files the record and the log name."""
    problems: list[str] = []
    result_path = path / RESULT_FILE
    logs = sorted(path.glob(f"{LOG_PREFIX}*.json"))
    log = logs[-1] if logs else None
    if not result_path.exists():
        problems.append(f"{result_path}: missing (the task did not finish); left out")
        return TaskResult(path, None, log, problems)
    data = read_json(result_path, problems)
    if data is None:
        return TaskResult(path, None, log, problems)
    if not isinstance(data, dict):
        problems.append(f"{result_path}: not a result object; left out")
        return TaskResult(path, None, log, problems)
    turns = read_log(log, problems) if log is not None else []
    _check_files(path, data, turns, problems)
    run = _run_info(path, folder, data, log, turns, result_path, problems)
    return TaskResult(path, run, log, problems)


def read_log(path: Path, problems: list[str]) -> list[dict[str, Any]]:
    """The turns of an interaction log (a list, or an object holding one)."""
    data = read_json(path, problems)
    if isinstance(data, dict):
        data = next((data[k] for k in ("interactions", "turns", "steps", "log") if k in data), None)
    if data is None:
        return []
    if not isinstance(data, list):
        problems.append(f"{path}: holds no list of turns")
        return []
    return [t for t in data if isinstance(t, dict)]


def turn_screenshot(turn: dict[str, Any]) -> str | None:
    """The screenshot path a turn names (relative to the task folder, or absolute)."""
    for key in ("screenshot_path", "screenshot", "screenshot_file"):
        value = turn.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def resolve(task: Path, name: str) -> Path:
    """A file a record names: as given when it exists, else under the task folder by its last
    two parts or its name (the runner may have written absolute paths of another machine)."""
    given = Path(name)
    candidates = [given] if given.is_absolute() else [task / given]
    candidates += [task.joinpath(*given.parts[-2:]), task / given.name]
    return next((c for c in candidates if c.is_file()), candidates[-1])


def _recording(data: dict[str, Any]) -> str | None:
    rec = data.get("recording")
    if isinstance(rec, str):
        return rec
    if isinstance(rec, dict):
        for key in ("file", "path", "video_file", "filename"):
            if isinstance(rec.get(key), str):
                return str(rec[key])
    return None


def _check_files(
    task: Path, data: dict[str, Any], turns: list[dict[str, Any]], problems: list[str]
) -> None:
    recording = _recording(data)
    if recording is not None and not resolve(task, recording).is_file():
        problems.append(f"{task / Path(recording).name}: recording missing (named in result.json)")
    missing = [s for s in map(turn_screenshot, turns) if s and not resolve(task, s).is_file()]
    if missing:
        shown = ", ".join(Path(s).name for s in missing[:3]) + (" ..." if len(missing) > 3 else "")
        problems.append(f"{task}: {len(missing)} screenshot(s) missing ({shown})")


def _when(value: Any) -> datetime | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return datetime.fromtimestamp(float(value), UTC)
    if isinstance(value, str):
        try:
            when = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        return when if when.tzinfo else when.replace(tzinfo=UTC)
    return None


def _raised(data: dict[str, Any]) -> bool:
    """Is the result file a task runner's exception record (no evaluation, an error)?"""
    return "error" in data and not isinstance(data.get("evaluation"), dict)


def _evaluation(task_id: str, data: dict[str, Any], path: Path, problems: list[str]) -> EvalResult:
    project = str(data.get("output_file") or "")
    ev = data.get("evaluation")
    if _raised(data):
        message = str(data.get("error") or "the task runner raised")
        error = EvalError(kind=ErrorKind.CRASH, message=f"task runner: {message}")
        return EvalResult(task_id=task_id, project=project, error=error)
    if not isinstance(ev, dict):
        problems.append(f"{path}: no 'evaluation' object; counted as failed")
        return EvalResult(task_id=task_id, project=project)
    details = []
    for raw in ev.get("details") or []:
        try:
            details.append(TestDetail.model_validate(raw))
        except ValidationError:
            problems.append(f"{path}: field 'evaluation.details': an entry is not a test; skipped")
    passed, total = _int(ev.get("passed_tests")), _int(ev.get("total_tests"))
    psr = ev.get("partial_success_rate")
    if not isinstance(psr, int | float) or isinstance(psr, bool):
        psr = passed / total if total else 0.0
    success = ev.get("success")
    return EvalResult(
        task_id=task_id,
        project=project,
        success=bool(success if isinstance(success, bool) else data.get("success")),
        passed_tests=passed,
        total_tests=total,
        partial_success_rate=float(psr),
        details=details,
    )


def _int(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def _run_info(
    task: Path,
    folder: ResultFolder,
    data: dict[str, Any],
    log: Path | None,
    turns: list[dict[str, Any]],
    result_path: Path,
    problems: list[str],
) -> RunInfo:
    task_id = str(data.get("task_name") or task.name)
    ended = _when(data.get("timestamp"))
    started = next((w for w in (_when(t.get("timestamp")) for t in turns) if w), None)
    if started is None:
        started = ended or datetime.fromtimestamp(result_path.stat().st_mtime, UTC)
    interaction = data.get("agent_interaction")
    interaction = interaction if isinstance(interaction, dict) else {}
    final = str(interaction.get("final_status") or "").lower()
    status = _STATUS.get(final)
    if status is None:
        status = EpisodeStatus.STEP_LIMIT if "step" in final else EpisodeStatus.CLOSED
    steps = _int(interaction.get("steps_used")) or len(turns)
    session = log.stem[len(LOG_PREFIX) :] if log is not None else ""
    return RunInfo(
        episode_id=session or f"{folder.path.name}/{task.parent.name}/{task.name}",
        task_id=task_id,
        mode=Mode(folder.mode),
        agent=folder.label,
        started_at=started,
        ended_at=ended if ended and ended >= started else started,
        status=status,
        steps=steps,
        eval=_evaluation(task_id, data, result_path, problems),
        meta={
            "category": str(data.get("task_type") or task.parent.name).lower(),
            "source": SOURCE,
            "model": folder.model,
            "final_reason": interaction.get("final_reason"),
            "recording": _recording(data),
            # the published tables count a task runner's exception as the task failed
            **({"failure": "agent"} if _raised(data) else {}),
        },
    )

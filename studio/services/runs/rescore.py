"""Re-scoring a campaign: judge each finished episode's final project again, with the script
its task has now, and say which verdicts changed and why (test by test).

An episode is every run.json below the run folder that holds a verdict and sits beside its
`final.sb3`. Its task is looked up by id in `tasks_dir` when given, else in the folder the
campaign's manifest (or the run.json) names. The manifest's SHA-256 of each task's script is
compared with the script's content now (`script_changed`), so a changed verdict can be told
apart from a flaky one. Stored verdicts are never rewritten: the outcome is a `Rescore` that
the command writes to `<run dir>/rescore.json`. Episodes that cannot be judged (no final
project, task not found, the evaluation crashed) carry a `problem` naming the path.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from pydantic import BaseModel, Field

from studio.models.errors import StudioError
from studio.models.evaluation import EvalResult
from studio.models.trajectory import FINAL_PROJECT, RUN_FILE, RunInfo
from studio.services.core.paths import SetupError
from studio.services.core.store import TaskFolder, load_task, scan_library
from studio.services.runs.campaign import MANIFEST_FILE, read_manifest, script_hash

__all__ = [
    "RESCORE_FILE", "EpisodeRescore", "Evaluate", "Rescore", "TestChange", "Verdict", "compare",
    "rescore",
]  # fmt: skip

RESCORE_FILE = "rescore.json"
Evaluate = Callable[[TaskFolder, Path], Awaitable[EvalResult]]


class TestChange(BaseModel):
    """A test whose outcome differs: None when the test is absent on that side."""

    __test__ = False

    name: str
    before: bool | None
    after: bool | None
    error: str | None = None  # the new run's message for the test


class Verdict(BaseModel):
    success: bool
    passed: int
    total: int

    @classmethod
    def of(cls, result: EvalResult) -> Verdict:
        return cls(success=result.ok, passed=result.passed_tests, total=result.total_tests)

    def text(self) -> str:
        return f"{'PASS' if self.success else 'FAIL'} {self.passed}/{self.total}"


class EpisodeRescore(BaseModel):
    task_id: str
    epoch: int | None = None
    folder: str
    script_changed: bool | None = None  # None: the manifest does not know the script
    before: Verdict
    after: Verdict | None = None
    tests: list[TestChange] = Field(default_factory=list)
    problem: str | None = None

    @property
    def changed(self) -> bool:
        return self.after is not None and (self.after != self.before or bool(self.tests))

    def line(self) -> str:
        label = self.task_id + (f"#{self.epoch}" if self.epoch and self.epoch > 1 else "")
        if self.problem is not None:
            return f"?     {label}: {self.problem}"
        assert self.after is not None
        why = " (script changed)" if self.script_changed else ""
        if not self.changed:
            return f"same  {label}: {self.after.text()}{why}"
        tests = "; ".join(
            f"'{t.name}' {_state(t.before)} -> {_state(t.after)}"
            + (f" ({t.error})" if t.error else "")
            for t in self.tests
        )
        return f"CHANGED {label}: {self.before.text()} -> {self.after.text()}{why}: {tests}"


class Rescore(BaseModel):
    run_dir: str
    scripts: dict[str, dict[str, str]] = Field(default_factory=dict)  # id -> {manifest, now}
    episodes: list[EpisodeRescore] = Field(default_factory=list)

    @property
    def changed(self) -> list[EpisodeRescore]:
        return [e for e in self.episodes if e.changed]


def _state(passed: bool | None) -> str:
    return "absent" if passed is None else "passed" if passed else "failed"


def compare(before: EvalResult, after: EvalResult) -> list[TestChange]:
    """The tests whose outcome differs between two results of the same project (by name)."""
    old = {d.name: d.passed for d in before.details}
    new = {d.name: d for d in after.details}
    changes = []
    for name in [*old, *(n for n in new if n not in old)]:
        now = new.get(name)
        if old.get(name) != (now.passed if now else None):
            error = now.error if now is not None and isinstance(now.error, str) else None
            changes.append(
                TestChange(name=name, before=old.get(name), after=now and now.passed, error=error)
            )
    if after.error is not None and (before.error is None or before.error.kind != after.error.kind):
        changes.append(
            TestChange(name="(script)", before=None, after=False, error=after.error.message)
        )
    return changes


async def rescore(run_dir: Path, evaluate: Evaluate, tasks_dir: Path | None = None) -> Rescore:
    """Judge every finished episode below `run_dir` again with `evaluate(task, project)`."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir) if (run_dir / MANIFEST_FILE).is_file() else None
    known = {t.id: t.script_sha256 for t in manifest.tasks} if manifest else {}
    folders = {t.id: Path(t.folder) for t in manifest.tasks} if manifest else {}
    library = _library(tasks_dir) if tasks_dir is not None else {}
    out = Rescore(run_dir=str(run_dir))
    tasks: dict[str, TaskFolder | str] = {}
    for path in sorted(run_dir.rglob(RUN_FILE)):
        try:
            run = RunInfo.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            out.episodes.append(_broken(path, f"{path}: cannot be read ({exc})"))
            continue
        if run.eval is None:
            continue
        tid = run.task_id
        if tid not in tasks:
            tasks[tid] = _task(tid, library, folders.get(tid) or _given(run.task_folder), tasks_dir)
        task = tasks[tid]
        epoch = run.meta.get("epoch") if isinstance(run.meta.get("epoch"), int) else None
        entry = EpisodeRescore(
            task_id=tid, epoch=epoch, folder=str(path.parent), before=Verdict.of(run.eval)
        )
        out.episodes.append(entry)
        if isinstance(task, str):
            entry.problem = task
            continue
        now = script_hash(task.script_path)
        if tid in known:
            entry.script_changed = now != known[tid]
            out.scripts[tid] = {"manifest": known[tid], "now": now}
        project = path.parent / FINAL_PROJECT
        if not project.is_file():
            entry.problem = f"{project}: no final project to judge"
            continue
        try:
            result = await evaluate(task, project)
        except SetupError:  # the studio's set-up, not this run: it stops the rescore
            raise
        except StudioError as exc:
            entry.problem = f"{project}: {exc}"
            continue
        entry.after = Verdict.of(result)
        entry.tests = compare(run.eval, result)
    return out


def _broken(path: Path, problem: str) -> EpisodeRescore:
    return EpisodeRescore(
        task_id="?",
        folder=str(path.parent),
        before=Verdict(success=False, passed=0, total=0),
        problem=problem,
    )


def _given(folder: str | None) -> Path | None:
    return Path(folder) if folder else None


def _library(tasks_dir: Path) -> dict[str, TaskFolder]:
    scan = scan_library(tasks_dir)
    return {t.task.id: t for t in scan.tasks}


def _task(
    tid: str, library: dict[str, TaskFolder], folder: Path | None, tasks_dir: Path | None
) -> TaskFolder | str:
    """The task to judge with, or why there is none."""
    if tasks_dir is not None:
        return library.get(tid) or f"{tasks_dir}: no task {tid}"
    if folder is None:
        return f"task {tid}: the run names no task folder (give --tasks DIR)"
    try:
        return load_task(folder)
    except StudioError as exc:
        return f"{folder}: {exc} (give --tasks DIR)"

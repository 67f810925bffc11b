"""Import a ScratchWorld task set into task folders, one folder per task.

Every problem with one task (bad JSON, missing field, missing script or project, broken .sb3) is
reported with the file it concerns and that task is skipped; the others are imported.

Everything in the set is untrusted. Task files are read with the bounded JSON reader; the file
names a task file gives (initial project, script) are plain names resolved inside their own
folder (names.py); a task whose name is a folder the library keeps for itself (`.trash`,
`diagnostics`, hidden names, `.`, `..`) is refused; a file of the set that is a symbolic link
out of the checkout (or out of a folder given with --tasks/--scripts/--projects) is not read or
copied (links that stay inside are followed). Each task folder is built in a hidden
`.<id>.<tag>.….importing` folder beside its place; one a killed import left is removed by the
next import (leftovers.py).
"""

from __future__ import annotations

import shutil
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from studio.models.errors import StudioError
from studio.models.task import Task
from studio.services.core import atomic
from studio.services.core.errors import ProjectFileError, TaskFileError, cut
from studio.services.core.leftovers import clean_leftovers, temp_dir
from studio.services.core.names import contained, library_name_problem, name_problem
from studio.services.core.sb3 import check_sb3
from studio.services.core.store import MAX_TASK_FILE, TaskFolder, load_task, save_task
from studio.services.core.untrusted_json import JsonInputError, loads
from studio.services.formats.scratchworld.tasks.layout import (
    GOLDEN_SUFFIX,
    HELPER_NAME,
    JsonStyle,
    match_golden,
    resolve_dirs,
    sha256,
)
from studio.services.formats.scratchworld.tasks.record import (
    METADATA_KEY,
    SW_FIELD_NAMES,
    Baseline,
    FieldProblem,
    ListMembership,
    ListShape,
    SwRecord,
    baseline_of,
)
from studio.services.formats.scratchworld.tasks.reports import ImportReport, Problem
from studio.services.formats.scratchworld.tasks.studio_fields import task_fields
from studio.services.formats.scratchworld.tasks.tasklists import parse_task_list, resolve_entry
from studio.services.runtime import editions
from studio.services.runtime.editions import Edition

__all__ = ["import_scratchworld", "outside", "plain"]


class _Skip(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


@dataclass
class _Parsed:
    path: Path
    rel: str
    raw: dict[str, object]
    style: JsonStyle
    base: Baseline
    lists: list[ListMembership] = field(default_factory=list)
    shapes: dict[str, ListShape] = field(default_factory=dict)


class _Sources:
    """The set's scripts and projects folders; checks each .sb3 once and notes what is used."""

    def __init__(self, scripts: Path, projects: Path, roots: Collection[Path]) -> None:
        self.scripts, self.projects, self.roots = scripts, projects, roots
        self.golden_names = sorted(p.name for p in projects.glob("*" + GOLDEN_SUFFIX))
        self.used: set[str] = set()
        self._sb3: dict[str, bytes | ProjectFileError] = {}
        helper = scripts / HELPER_NAME
        self.helper: bytes | None = None
        self.refused: Problem | None = None  # the helper library, linked out of the checkout
        if helper.is_file():
            try:
                outside(helper, roots, helper, None)
                self.helper = helper.read_bytes()
            except _Skip as skip:
                self.refused = skip.problem

    def project(self, name: str, task_file: Path, field: str) -> bytes:
        path = self.projects / plain(name, task_file, field)
        self.used.add(name)
        if name not in self._sb3:
            outside(path, self.roots, task_file, field)
            if not path.is_file():
                msg = f"names {name}, which is not in {self.projects}"
                raise _Skip(Problem(task_file, msg, field))
            data = path.read_bytes()
            try:
                check_sb3(data, path)
                self._sb3[name] = data
            except ProjectFileError as exc:
                self._sb3[name] = exc
        found = self._sb3[name]
        if isinstance(found, ProjectFileError):
            raise _Skip(Problem(found.path, f"{found.problem} (needed by {task_file.name})"))
        return found

    def script(self, name: str, task_file: Path) -> bytes:
        path = self.scripts / plain(name, task_file, "evaluation.function")
        self.used.add(name)
        if name == HELPER_NAME:
            raise _Skip(Problem(task_file, "names the helper library", "evaluation.function"))
        outside(path, self.roots, task_file, "evaluation.function")
        if not path.is_file():
            msg = f"names {name}, which is not in {self.scripts}"
            raise _Skip(Problem(task_file, msg, "evaluation.function"))
        data = path.read_bytes()
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            raise _Skip(Problem(path, "is not UTF-8 text")) from None
        return data


def plain(name: str, task_file: Path, field: str) -> str:
    """`name` when it is a plain file name (see names.py); else the task is skipped."""
    problem = name_problem(name)
    if problem is not None:
        raise _Skip(Problem(task_file, f"{cut(repr(name), 80)} {problem}", field))
    return name


def outside(path: Path, roots: Collection[Path], task_file: Path, field: str | None) -> None:
    """Skip the task when `path` is a symbolic link (or lies in a folder linked) outside the
    checkout: a checkout's files are copied only when they stay inside it."""
    if path.exists() and not any(contained(path, root) for root in roots):
        msg = f"{path} is a symbolic link to {path.resolve()}, outside the checkout; not copied"
        raise _Skip(Problem(task_file, msg, field))


def import_scratchworld(
    root: Path | str,
    dest: Path | str,
    tasks_dir: Path | str | None = None,
    scripts_dir: Path | str | None = None,
    projects_dir: Path | str | None = None,
    *,
    overwrite: bool = False,
    also_used: Collection[str] = (),
) -> ImportReport:
    """Import every task of the set at `root` into `dest/<id>/`; `dest` records the set's
    editor edition (`edition.json`: the set's own when it has one, else classic).

    Raises StudioError when the set is unusable (a folder is missing, no task files); problems
    with single tasks are listed in the report. Existing task folders are kept unless
    `overwrite`. `also_used` names projects that other items of the checkout (drag items) use,
    so that they are not reported as unused.
    """
    root, dest = Path(root), Path(dest)
    tdir, sdir, pdir = resolve_dirs(
        root, *(Path(d) if d else None for d in (tasks_dir, scripts_dir, projects_dir))
    )
    for kind, folder in (("tasks", tdir), ("scripts", sdir), ("projects", pdir)):
        if not folder.is_dir():
            raise StudioError(f"{folder}: the {kind} folder of the set does not exist")
    task_files = sorted(p for p in tdir.glob("*/*.json") if p.is_file())
    if not task_files:
        raise StudioError(f"{tdir}: no task files (<category>/<id>.json) in it")
    report = ImportReport(root, dest)
    roots = [root, *(Path(d) for d in (tasks_dir, scripts_dir, projects_dir) if d)]
    sources = _Sources(sdir, pdir, roots)
    sources.used.update(also_used)
    if sources.refused is not None:
        report.skipped.append(sources.refused)
    elif sources.helper is None:
        report.warnings.append(f"{sdir / HELPER_NAME}: missing; tasks will use our helpers")
    parsed = _parse_all(_inside(task_files, roots, report), tdir, report)
    lists = _inside(sorted(p for p in tdir.glob("*.json") if p.is_file()), roots, report)
    _read_lists(lists, tdir, parsed, report)
    dest.mkdir(parents=True, exist_ok=True)
    clean_leftovers(dest)
    _record_edition(root, dest, report)
    for item in parsed:
        try:
            _import_one(item, sources, dest, report, overwrite)
        except _Skip as skip:
            report.skipped.append(skip.problem)
        except (OSError, StudioError) as exc:  # one task's trouble never stops the others
            report.skipped.append(Problem(item.path, f"cannot be imported ({exc})"))
    _warn_unused(sources, report)
    return report


def _inside(files: list[Path], roots: Collection[Path], report: ImportReport) -> list[Path]:
    """The files that stay inside the checkout; each symbolic link out of it is reported."""
    kept = []
    for path in files:
        try:
            outside(path, roots, path, None)
            kept.append(path)
        except _Skip as skip:
            report.skipped.append(skip.problem)
    return kept


def _record_edition(root: Path, dest: Path, report: ImportReport) -> None:
    """The imported library runs on the set's editor edition: the one the set records (a set
    the studio exported), else classic, the published benchmark's editor."""
    edition = editions.edition_for(root) if (root / editions.EDITION_FILE).is_file() else None
    edition = edition or Edition.CLASSIC
    if (dest / editions.EDITION_FILE).is_file():
        before = editions.read_edition(dest)
        if before is not edition:
            report.warnings.append(
                f"{dest / editions.EDITION_FILE}: the library was {before.value}; it is now "
                f"{edition.value}, the edition of the imported set"
            )
    editions.write_edition(dest, edition)


def _parse_all(files: list[Path], tdir: Path, report: ImportReport) -> list[_Parsed]:
    parsed: list[_Parsed] = []
    seen: dict[str, Path] = {}
    for path in files:
        try:
            item = _parse(path, tdir)
        except _Skip as skip:
            report.skipped.append(skip.problem)
            continue
        if item.base.id in seen:
            msg = f"name {item.base.id!r} is also the name of {seen[item.base.id]}"
            report.skipped.append(Problem(path, msg, "name"))
            continue
        seen[item.base.id] = path
        report.warnings.extend(f"{path}: {note}" for note in item.base.notes)
        parsed.append(item)
    return parsed


def _parse(path: Path, tdir: Path) -> _Parsed:
    try:
        text = path.read_text(encoding="utf-8")
        raw = loads(text, path, max_bytes=MAX_TASK_FILE)
    except JsonInputError as exc:
        raise _Skip(Problem(path, exc.problem)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _Skip(Problem(path, f"cannot be read ({exc})")) from None
    try:
        base = baseline_of(raw)
    except FieldProblem as exc:
        raise _Skip(Problem(path, exc.problem, exc.field)) from None
    rel = path.relative_to(tdir).as_posix()
    return _Parsed(path, rel, raw, JsonStyle.detect(text), base)


def _read_lists(files: list[Path], tdir: Path, parsed: list[_Parsed], report: ImportReport) -> None:
    by_rel = {p.rel: p for p in parsed}
    for path in files:
        try:
            found = parse_task_list(path.name, path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            report.skipped.append(Problem(path, f"is not a task list ({exc})"))
            continue
        named = 0
        for key, entry, index in found.entries:
            rel = resolve_entry(key, entry, set(by_rel))
            if rel is None:
                report.warnings.append(f"{path}: {entry!r} names no task that was read")
                continue
            by_rel[rel].lists.append(
                ListMembership(file=path.name, key=key, entry=entry, index=index)
            )
            by_rel[rel].shapes[path.name] = found.shape
            named += 1
        if named:
            report.task_lists.append(path.name)
        else:
            report.warnings.append(f"{path}: names no task that was read; it is not kept")


def _import_one(
    item: _Parsed, sources: _Sources, dest: Path, report: ImportReport, overwrite: bool
) -> None:
    base = item.base
    problem = library_name_problem(base.id)
    if problem is not None:
        raise _Skip(Problem(item.path, f"{cut(repr(base.id), 80)} {problem}", "name"))
    final = dest / base.id
    if final.exists() and not overwrite:
        _note_used(base, sources)  # its files are this task's, not unused ones
        raise _Skip(
            Problem(
                item.path,
                f"{final} already exists; not overwritten (--overwrite replaces it)",
                "name",
            )
        )
    initial_name, golden_name = _note_used(base, sources)
    files = {
        initial_name: sources.project(initial_name, item.path, "initial_project"),
        base.script: sources.script(base.script, item.path),
    }
    if golden_name:
        files[golden_name] = sources.project(golden_name, item.path, "golden project")
    else:
        report.without_golden.append(base.id)
    if sources.helper is not None:
        files[HELPER_NAME] = sources.helper
    task = _task(item, initial_name, golden_name, files, helper=sources.helper is not None)
    _write_folder(task, files, final, dest)
    report.imported.append(base.id)


def _initial_name(name: str, projects: Path) -> str:
    if (
        name_problem(name) is None
        and not name.endswith(".sb3")
        and (projects / f"{name}.sb3").is_file()
    ):
        return f"{name}.sb3"
    return name


def _task(
    item: _Parsed, initial: str, golden: str | None, files: dict[str, bytes], helper: bool
) -> Task:
    base = item.base
    record = SwRecord(
        file=item.rel,
        style=item.style,
        original=item.raw,
        timeout_unit=base.timeout_unit,
        initial_file=initial if initial != base.initial_project else None,
        golden_source=golden,
        sha256={
            "initial": sha256(files[initial]),
            "script": sha256(files[base.script]),
            **({"golden": sha256(files[golden])} if golden else {}),
        },
        task_lists=item.lists,
        task_list_shapes=item.shapes,
    )
    data: dict[str, Any] = {
        "id": base.id,
        "category": base.category,
        "instruction": base.instruction,
        "description": base.description,
        "initial_project": initial,
        "golden_project": golden,
        "evaluation": {
            "script": base.script,
            "timeout_s": base.timeout_s,
            "description": base.eval_description,
            "helper_library": HELPER_NAME if helper else None,
            "test_cases": base.test_cases,
            "convention": base.convention,
        },
        "metadata": {METADATA_KEY: record.model_dump(mode="json")},
    }
    kept = task_fields(item.raw)  # what an export by the studio kept beside the published fields
    if "metadata" in kept:
        kept["metadata"] = {**kept["metadata"], METADATA_KEY: record.model_dump(mode="json")}
    data.update(kept)
    try:
        return Task.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        ours = ".".join(str(p) for p in first["loc"])
        raise _Skip(Problem(item.path, first["msg"], SW_FIELD_NAMES.get(ours, ours))) from None


def _write_folder(task: Task, files: dict[str, bytes], final: Path, dest: Path) -> None:
    """Build the folder beside its final place, check it loads, then move it there."""
    tmp = temp_dir(dest, task.id, ".importing")
    try:
        for name, data in files.items():
            atomic.write_bytes(tmp / name, data)
        save_task(TaskFolder(task, tmp))
        load_task(tmp)
        if final.exists():
            old = temp_dir(dest, task.id, ".old")
            final.replace(old / task.id)
            tmp.replace(final)
            shutil.rmtree(old)
        else:
            tmp.replace(final)
    except TaskFileError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise _Skip(Problem(exc.path, exc.problem, exc.field)) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _note_used(base: Baseline, sources: _Sources) -> tuple[str, str | None]:
    """The task's initial and golden project names, noted (with its script) as used."""
    initial_name = _initial_name(base.initial_project, sources.projects)
    golden_name = match_golden(base.id, sources.golden_names)
    sources.used.update(n for n in (initial_name, base.script, golden_name) if n)
    return initial_name, golden_name


def _warn_unused(sources: _Sources, report: ImportReport) -> None:
    for path in sorted(sources.projects.glob("*.sb3")):
        if path.name not in sources.used:
            report.warnings.append(f"{path}: used by no task; not imported")
    for path in sorted(sources.scripts.glob("*.js")):
        if path.name not in sources.used and path.name != HELPER_NAME:
            report.warnings.append(f"{path}: used by no task; not imported")

"""Export task folders to the ScratchWorld layout (tasks, scripts and projects folders).

Imported tasks come back as they were read, field by field, unless we changed them; files that
several tasks share (a default initial project, a family golden) are written once. When two
tasks want one file name for different bytes, the task whose file is unchanged since import
keeps the name and the other gets a name of its own (reported as a warning).

Names come from task files and are not trusted: every name written (project, script, the task
file's place `metadata.scratchworld.file`, task list names) is a plain name inside its folder
of DEST, or is replaced by the studio's own name with a warning; a JSON style read at import is
used only when it is a small indent (layout.JsonStyle). A task whose files are symbolic links
out of its folder is skipped and named.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from studio.models.errors import StudioError
from studio.models.task import Convention
from studio.services.core import atomic, paths
from studio.services.core.errors import cut
from studio.services.core.names import contained, name_problem
from studio.services.core.store import TaskFolder, scan_library
from studio.services.formats.scratchworld.tasks.layout import (
    GOLDEN_SUFFIX,
    HELPER_NAME,
    PROJECTS_DIR,
    SCRIPTS_DIR,
    TASKS_DIR,
    JsonStyle,
    match_golden,
    sha256,
)
from studio.services.formats.scratchworld.tasks.record import (
    Baseline,
    FieldProblem,
    ListShape,
    SwRecord,
    baseline_of,
)
from studio.services.formats.scratchworld.tasks.reports import ExportReport, Problem
from studio.services.formats.scratchworld.tasks.taskjson import task_json
from studio.services.formats.scratchworld.tasks.tasklists import ListedTask, rebuild_task_lists
from studio.services.runtime import editions

__all__ = ["export_scratchworld"]


@dataclass
class _Item:
    entry: TaskFolder
    record: SwRecord | None
    base: Baseline | None
    initial: bytes
    golden: bytes | None
    script: bytes
    helper: bytes | None
    initial_out: str = ""
    golden_out: str | None = None
    script_out: str = ""

    @property
    def id(self) -> str:
        return self.entry.task.id

    def unchanged(self, kind: str, data: bytes | None) -> bool:
        """Whether a file has the bytes it had at import (its owner keeps a shared name)."""
        known = self.record.sha256.get(kind) if self.record else None
        return data is not None and known == sha256(data)


class _Names:
    """One output folder: a name holds one content; equal contents share a name."""

    def __init__(self, reserved: tuple[str, ...] = ()) -> None:
        self.files: dict[str, bytes] = {}
        self.reserved = set(reserved)

    def _take(self, name: str, data: bytes) -> bool:
        return name not in self.reserved and self.files.setdefault(name, data) == data

    def claim(self, wanted: list[str], data: bytes) -> str:
        """The first free name of `wanted` (names that are not plain are passed over: they
        came from task files), else the last one with a number added."""
        wanted = [n for n in wanted if name_problem(n) is None] or ["unnamed.bin"]
        for name in dict.fromkeys(wanted):
            if self._take(name, data):
                return name
        stem, _, suffix = wanted[-1].rpartition(".")
        n = 2
        while not self._take(f"{stem}_{n}.{suffix}", data):
            n += 1
        return f"{stem}_{n}.{suffix}"


def export_scratchworld(
    src: Path | str, dest: Path | str, *, overwrite: bool = False
) -> ExportReport:
    """Write every task folder under `src` to `dest` in the ScratchWorld layout; a library
    that is not on the classic edition (the published set's) records its own in
    `dest/edition.json`.

    Raises StudioError when `src` holds no task folders or `dest` is a non-empty folder (unless
    `overwrite`, which replaces files of the same name and leaves others).
    """
    src, dest = Path(src), Path(dest)
    scan = scan_library(src)
    if not scan.tasks and not scan.errors:
        raise StudioError(f"{src}: no task folders (with task.json) in it")
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())) and not overwrite:
        raise StudioError(f"{dest}: exists and is not an empty folder; not overwritten")
    report = ExportReport(src, dest)
    report.skipped.extend(Problem(e.path, e.problem, e.field) for e in scan.errors)
    items = _collect(scan.tasks, report)
    helper = _choose_helper(items, report)
    projects, scripts = _allocate(items, report)
    _check_goldens(items, projects, report)
    files = _task_files(items, report)
    files[SCRIPTS_DIR / HELPER_NAME] = helper
    # the library's editor edition travels with the set when it is not the published one
    # (classic, what an importer assumes of a set that records none)
    edition = editions.edition_for(src)
    if edition is not editions.Edition.CLASSIC:
        files[Path(editions.EDITION_FILE)] = (
            json.dumps({"edition": edition.value}) + "\n"
        ).encode()
    for item in items:
        files[SCRIPTS_DIR / item.script_out] = scripts.files[item.script_out]
        files[PROJECTS_DIR / item.initial_out] = projects.files[item.initial_out]
        if item.golden_out:
            files[PROJECTS_DIR / item.golden_out] = projects.files[item.golden_out]
    for rel, data in sorted(files.items()):
        atomic.write_bytes(dest / rel, data)
    report.files = sorted(rel.as_posix() for rel in files)
    report.exported = [item.id for item in items]
    return report


def _collect(entries: list[TaskFolder], report: ExportReport) -> list[_Item]:
    items: list[_Item] = []
    seen: dict[str, Path] = {}
    for entry in sorted(entries, key=lambda e: e.task.id):
        task = entry.task
        if task.id in seen:
            msg = f"id {task.id!r} is also the id of {seen[task.id]}"
            report.skipped.append(Problem(entry.folder / "task.json", msg, "id"))
            continue
        seen[task.id] = entry.folder
        try:
            _refuse_links_out(entry)
            items.append(_read_item(entry, report))
        except _LinkOut as exc:
            report.skipped.append(exc.problem)
        except OSError as exc:
            name = getattr(exc, "filename", None) or entry.folder
            report.skipped.append(Problem(Path(name), f"cannot be read ({exc.strerror or exc})"))
    return items


class _LinkOut(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def _refuse_links_out(entry: TaskFolder) -> None:
    """A task whose files are symbolic links out of its folder is not exported (named)."""
    files = [entry.initial_path, entry.script_path, entry.golden_path]
    if entry.task.evaluation.helper_library:
        files.append(entry.helper_path)
    for path in files:
        if path is not None and not contained(path, entry.folder):
            msg = f"{path.name} is a symbolic link to {path.resolve()}, outside the task folder"
            raise _LinkOut(Problem(entry.folder / "task.json", msg))


def _read_item(entry: TaskFolder, report: ExportReport) -> _Item:
    record, base = None, None
    try:
        record = SwRecord.of(entry.task)
        base = baseline_of(record.original) if record else None
    except (ValidationError, FieldProblem):
        record = None
        report.warnings.append(
            f"{entry.folder / 'task.json'}: metadata.scratchworld is not readable; "
            "exported as a task new to the set"
        )
    helper_name = entry.task.evaluation.helper_library
    golden = entry.golden_path
    if entry.task.evaluation.convention is Convention.STUDIO:
        report.warnings.append(
            f"{entry.task.id}: written for the studio's convention; the published service calls "
            "its script with config {} and a 120 s cap (the file says so to our import)"
        )
    return _Item(
        entry=entry,
        record=record,
        base=base,
        initial=entry.initial_path.read_bytes(),
        golden=golden.read_bytes() if golden else None,
        script=entry.script_path.read_bytes(),
        helper=entry.helper_path.read_bytes() if helper_name else None,
    )


def _choose_helper(items: list[_Item], report: ExportReport) -> bytes:
    """The set's helper library (the one most tasks carry), else the studio's own."""
    counts = Counter(item.helper for item in items if item.helper is not None)
    if not counts:
        return paths.HELPER_LIBRARY.read_bytes()
    chosen = counts.most_common(1)[0][0]
    others = [item.id for item in items if item.helper not in (None, chosen)]
    ours = [item.id for item in items if item.helper is None]
    if others:
        report.warnings.append(
            f"tasks {', '.join(others)} carry a different {HELPER_NAME}; "
            "they will run with the exported one"
        )
    if ours:
        report.warnings.append(
            f"tasks {', '.join(ours)} use the studio's helper library; they will run with the "
            f"set's {HELPER_NAME}, which may lack functions they call"
        )
    return chosen


def _allocate(items: list[_Item], report: ExportReport) -> tuple[_Names, _Names]:
    """Choose output names: unchanged files first, so they keep their shared names."""
    projects, scripts = _Names(), _Names(reserved=(HELPER_NAME,))
    for first in (True, False):
        for item in items:
            if item.unchanged("initial", item.initial) == first:
                item.initial_out = projects.claim(_initial_names(item), item.initial)
            if item.unchanged("script", item.script) == first:
                item.script_out = scripts.claim(_script_names(item), item.script)
        for item in items:
            if item.golden is not None and item.unchanged("golden", item.golden) == first:
                item.golden_out = projects.claim(_golden_names(item), item.golden)
    for item in items:
        _warn_renamed(item, report)
    return projects, scripts


def _initial_names(item: _Item) -> list[str]:
    own = [f"{item.id}.sb3", f"{item.id}_initial.sb3"]
    name = item.entry.task.initial_project
    return [name, *own] if item.record and name.endswith(".sb3") else own


def _script_names(item: _Item) -> list[str]:
    name = item.entry.task.evaluation.script
    return [name, f"{item.id}.js"] if item.record and name.endswith(".js") else [f"{item.id}.js"]


def _golden_names(item: _Item) -> list[str]:
    exact = f"{item.id}{GOLDEN_SUFFIX}"
    source = item.record.golden_source if item.record else None
    if source and match_golden(item.id, [source]) == source:
        return [source, exact]
    return [exact]


def _warn_renamed(item: _Item, report: ExportReport) -> None:
    for out, wanted in (
        (item.initial_out, _initial_names(item)[0]),
        (item.script_out, _script_names(item)[0]),
        (item.golden_out, _golden_names(item)[0] if item.golden is not None else None),
    ):
        if out != wanted:
            report.warnings.append(
                f"{item.id}: {wanted} is taken by another task's different file; written as {out}"
            )


def _check_goldens(items: list[_Item], projects: _Names, report: ExportReport) -> None:
    """Make every golden one that import will find again for its task, and only for it."""
    stuck: set[str] = set()

    def names() -> list[str]:
        used = [i.golden_out for i in items if i.golden_out] + [i.initial_out for i in items]
        return [n for n in used if n.endswith(GOLDEN_SUFFIX)]

    changed = True
    while changed:
        changed = False
        for item in items:
            if item.golden is None or item.id in stuck:
                continue
            if match_golden(item.id, names()) != item.golden_out:
                exact = f"{item.id}{GOLDEN_SUFFIX}"
                item.golden_out = projects.claim([exact], item.golden)
                if item.golden_out == exact:
                    changed = True
                else:
                    stuck.add(item.id)
                    report.warnings.append(f"{item.id}: import will not find its golden project")
    for item in items:
        found = match_golden(item.id, names())
        if item.golden is None and found:
            report.warnings.append(
                f"{item.id}: has no golden project, but import will take {found} as its golden"
            )


def _task_files(items: list[_Item], report: ExportReport) -> dict[Path, bytes]:
    files: dict[Path, bytes] = {}
    listed: list[ListedTask] = []
    shapes: dict[str, ListShape] = {}
    for item in list(items):
        task, record, base = item.entry.task, item.record, item.base
        rel = f"{task.category.value}/{task.id}.json"
        if record and base and (task.id, task.category.value) == (base.id, base.category):
            if _task_file_ok(record.file):
                rel = record.file
            else:
                report.warnings.append(
                    f"{item.entry.folder / 'task.json'}: metadata.scratchworld.file "
                    f"{cut(repr(record.file), 80)} is not a task file name of the tasks folder; "
                    f"written as {rel}"
                )
        if TASKS_DIR / rel in files:
            report.skipped.append(Problem(item.entry.folder, f"{rel} is written by another task"))
            items.remove(item)
            continue
        style = record.style if record else JsonStyle()
        data = task_json(task, record, base, item.initial_out, item.script_out)
        files[TASKS_DIR / rel] = style.dump(data).encode("utf-8")
        listed.append(
            ListedTask(
                task_id=task.id,
                category=task.category.value,
                file=rel,
                original_file=record.file if record else None,
                original_category=base.category if base else None,
                memberships=list(record.task_lists) if record else [],
            )
        )
        for name, shape in (record.task_list_shapes if record else {}).items():
            if name_problem(name) is None and name.endswith(".json"):
                shapes.setdefault(name, shape)
            else:
                report.warnings.append(
                    f"{item.entry.folder / 'task.json'}: the task list {cut(repr(name), 80)} "
                    "is not a plain .json file name; not written"
                )
    for name, text in rebuild_task_lists(listed, shapes).items():
        files[TASKS_DIR / name] = text.encode("utf-8")
    return files


def _task_file_ok(rel: str) -> bool:
    """A task file's place in the tasks folder: `<id>.json` or `<category>/<id>.json`, each
    part a plain name (metadata.scratchworld.file comes from a file and is not trusted)."""
    parts = rel.split("/")
    return (
        rel.endswith(".json")
        and len(parts) <= 2
        and all(name_problem(part) is None and not part.startswith(".") for part in parts)
    )

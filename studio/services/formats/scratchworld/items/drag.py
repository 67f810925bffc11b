"""Single-step drag items in the published ScratchWorld layout, imported and exported as files.

```
single_step_drag_benchmark/tasks/<id>.json        the item's record (diagnostics_drag_record.py)
scratch-gui/static/<init_project>                 its project (beside the task projects)
single_step_drag_benchmark/screenshots/<id>.png   the screenshot of an item made in the studio
```

In the studio each item is an item folder `drag/<id>/` (item.json and the project under its
published name).

Import (`import_drag`). Ids and project names must be plain names, ids unique in the checkout;
each project is read and checked once (`_Projects`). An item folder is written beside its
place, checked to load, then moved there; an existing folder is kept unless `overwrite`.
`drag_project_names` tells the task importer which projects the drag items use.

Export (`export_drag`). Every item folder under the source (hidden folders skipped) is written
in id order: its record, its project and, for an item made in the studio, its screenshot when it
has one. An item whose files would clash with files already written is skipped.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pydantic import ValidationError

from studio.models.drag_item import DragItem
from studio.services.core.errors import ProjectFileError, TaskFileError
from studio.services.core.leftovers import clean_leftovers, temp_dir
from studio.services.core.names import contained
from studio.services.core.sb3 import check_sb3
from studio.services.diagnostics.drag.item import (
    ITEM_FILE,
    PARTIAL_FILE,
    ItemFolder,
    load_item,
    write_item,
)
from studio.services.formats.scratchworld.items.common import (
    STUDIO_KEY,
    BadRecord,
    Output,
    Report,
    from_validation,
    in_checkout,
    plain_name,
    read_capped,
    read_png,
    read_record,
    require,
    who_of,
)
from studio.services.formats.scratchworld.items.drag_record import (
    DRAG_FIELDS,
    drag_file_name,
    drag_item_of,
    drag_project_name,
    drag_record,
)
from studio.services.formats.scratchworld.tasks.layout import PROJECTS_DIR
from studio.services.formats.scratchworld.tasks.reports import Problem

__all__ = [
    "DRAG_DIR", "DRAG_SHOTS", "DRAG_TASKS", "MAX_PROJECT_BYTES", "drag_project_names",
    "export_drag", "import_drag",
]  # fmt: skip

DRAG_DIR = Path("single_step_drag_benchmark")
DRAG_TASKS = DRAG_DIR / "tasks"
DRAG_SHOTS = DRAG_DIR / "screenshots"  # screenshots of items made in the studio only

MAX_PROJECT_BYTES = 256 * 1024 * 1024


# ---- import ----------------------------------------------------------------------------------
class _Projects:
    """The checkout's projects folder: each .sb3 read and checked once."""

    def __init__(self, folder: Path, roots: list[Path]) -> None:
        self.folder, self.roots = folder, roots
        self._seen: dict[str, bytes | ProjectFileError] = {}

    def get(self, name: str, who: str, record: Path) -> bytes:
        path = self.folder / name
        in_checkout(path, self.roots, record, "init_project")
        if name not in self._seen:
            data = read_capped(path, MAX_PROJECT_BYTES, who, "init_project", record)
            try:
                check_sb3(data, path)
                self._seen[name] = data
            except ProjectFileError as exc:
                self._seen[name] = exc
        found = self._seen[name]
        if isinstance(found, ProjectFileError):
            raise BadRecord(found.path, f"{who}: {found.problem} (needed by {record.name})")
        return found


def drag_project_names(root: Path) -> set[str]:
    """The project names the drag records of a checkout use (unreadable records ignored)."""
    names: set[str] = set()
    for path in sorted((root / DRAG_TASKS).glob("*.json")):
        try:
            raw, _ = read_record(path)
        except (BadRecord, OSError):
            continue
        if plain_name(raw.get("init_project")):
            names.add(raw["init_project"])
    return names


def import_drag(
    root: Path,
    dest: Path,
    report: Report,
    projects_dir: Path | None = None,
    *,
    overwrite: bool = False,
) -> None:
    """Each `single_step_drag_benchmark/tasks/*.json` of `root` to an item folder
    `dest/<id>/`; problems are named in the report and the item skipped."""
    folder = root / DRAG_TASKS
    roots = [root, *([projects_dir] if projects_dir else [])]
    projects = _Projects(projects_dir or root / PROJECTS_DIR, roots)
    if dest.is_dir():
        clean_leftovers(dest)
    seen: dict[str, Path] = {}
    for path in sorted(p for p in folder.glob("*.json") if p.is_file()):
        try:
            in_checkout(path, [root], path, None)
            item, project, shot = _read_drag(path, projects, root / DRAG_SHOTS)
            if item.id in seen:
                msg = f"item {item.id}: the id is also the id of {seen[item.id].name}"
                raise BadRecord(path, msg, "id")
            seen[item.id] = path
            _write_folder(dest / item.id, overwrite, path, item.id, item, project, shot)
        except BadRecord as bad:
            report.skipped.append(bad.problem)
            continue
        report.drag_items.append(item.id)


def _read_drag(
    path: Path, projects: _Projects, shots: Path
) -> tuple[DragItem, bytes, bytes | None]:
    raw, text = read_record(path)
    who = who_of(raw, "id", path)
    require(raw, DRAG_FIELDS, who, path)
    if not plain_name(raw["id"]):
        raise BadRecord(path, f"{who}: the id {raw['id']!r} cannot name a folder", "id")
    name = raw["init_project"]
    if not plain_name(name) or name in (ITEM_FILE, PARTIAL_FILE):
        raise BadRecord(path, f"{who}: {name!r} is not a plain file name", "init_project")
    try:
        item = drag_item_of(raw, path.name, text)
    except ValidationError as exc:
        raise from_validation(exc, who, path) from None
    project = projects.get(name, who, path)
    shot = None
    if item.sw_source is None:  # made in the studio: its screenshot, when it has one
        shot_path = shots / f"{item.id}.png"
        in_checkout(shot_path, projects.roots, path, "screenshot")
        if shot_path.is_file():
            shot = read_png(shot_path, who, path)
    if not plain_name(item.init_project) or item.init_project in (ITEM_FILE, PARTIAL_FILE):
        raise BadRecord(path, f"{who}: {item.init_project!r} is not a plain file name", STUDIO_KEY)
    if shot is not None and (not plain_name(item.screenshot) or item.screenshot == ITEM_FILE):
        raise BadRecord(path, f"{who}: {item.screenshot!r} is not a plain file name", STUDIO_KEY)
    return item, project, shot


def _write_folder(
    final: Path,
    overwrite: bool,
    record: Path,
    item_id: str,
    item: DragItem,
    project: bytes,
    shot: bytes | None,
) -> None:
    """Write the item folder beside its place, check it loads, then move it there."""
    if final.exists() and not overwrite:
        raise BadRecord(record, f"item {item_id}: {final} already exists; not overwritten", "id")
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_dir(final.parent, item_id, ".importing")
    try:
        write_item(tmp, item, project, shot)
        load_item(tmp)
        if final.exists():
            old = temp_dir(final.parent, item_id, ".old")
            final.replace(old / item_id)
            tmp.replace(final)
            shutil.rmtree(old)
        else:
            tmp.replace(final)
    except TaskFileError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise BadRecord(record, f"item {item_id}: {exc.problem}", exc.field) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


# ---- export ----------------------------------------------------------------------------------
def _items_under(root: Path, name: str) -> list[Path]:
    found = (p for p in root.rglob(name) if p.is_file())
    return sorted(p for p in found if not any(s.startswith(".") for s in p.relative_to(root).parts))


def export_drag(src: Path, out: Output, report: Report) -> None:
    """Every item folder under `src` to the published layout."""
    entries: list[ItemFolder] = []
    for file in _items_under(src, ITEM_FILE):
        try:
            entries.append(load_item(file.parent))
        except TaskFileError as exc:
            report.skipped.append(Problem(exc.path, exc.problem, exc.field))
    for entry in sorted(entries, key=lambda e: e.item.id):
        item = entry.item
        try:
            files = _drag_files(entry, report)
        except BadRecord as bad:
            report.skipped.append(bad.problem)
            continue
        except OSError as exc:
            report.skipped.append(Problem(entry.path, f"item {item.id}: cannot be read ({exc})"))
            continue
        clash = out.clash(files)
        if clash is not None:
            msg = f"item {item.id}: {clash} is already written with other content"
            field = "init_project" if clash.startswith(PROJECTS_DIR.as_posix()) else "id"
            report.skipped.append(Problem(entry.path / ITEM_FILE, msg, field))
            continue
        out.put(files)
        report.drag_items.append(item.id)


def _drag_files(entry: ItemFolder, report: Report) -> dict[str, bytes]:
    item = entry.item
    project = drag_project_name(item)
    file = entry.path / ITEM_FILE
    if not plain_name(project):
        raise BadRecord(
            file, f"item {item.id}: {project!r} is not a plain file name", "init_project"
        )
    if not plain_name(item.id):
        raise BadRecord(file, f"item {item.id}: the id cannot name a file", "id")
    for path in (entry.project_path, entry.screenshot_path):
        if path.exists() and not contained(path, entry.path):
            raise BadRecord(
                file, f"item {item.id}: {path.name} is a symbolic link out of its folder"
            )
    data, notes = drag_record(item, project)
    report.warnings.extend(notes)
    files = {
        (DRAG_TASKS / drag_file_name(item)).as_posix(): data,
        (PROJECTS_DIR / project).as_posix(): entry.project_path.read_bytes(),
    }
    if item.sw_source is None and entry.screenshot_path.is_file():
        files[(DRAG_SHOTS / f"{item.id}.png").as_posix()] = entry.screenshot_path.read_bytes()
    return files

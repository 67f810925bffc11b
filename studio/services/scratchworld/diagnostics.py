"""Drag items and perception QA items in the published ScratchWorld layout, both ways.

The published layout (FORMATS.md sections 5 and 6), beside the tasks of a checkout:

```
single_step_drag_benchmark/tasks/<id>.json    {id, category, instruction, init_project,
                                               evaluation_config, sprite?}
scratch-gui/static/<init_project>             the item's project (beside the task projects)
visual_perception_benchmark/tasks/<n>.json    {task_id, instruction, screenshot, task_type, tag,
                                               ground_truth, focus_hint, prompt,
                                               response_content, full_response}
visual_perception_benchmark/screenshots_final/<screenshot>
```

In the studio, under a library's `diagnostics/` folder: drag items are item folders
`drag/<id>/` (item.json and the project under its published name), QA items one QA set `qa/`
(`items/<task_id>.json`, `screenshots/<name>`).

Round trip. Import keeps each record as read, with its file name and JSON style, in the item's
`sw_source`. Export starts from that record and lays over it only the published fields the
studio changed (compared with what import makes of the record), so an unchanged item is written
back byte for byte and studio-only data (review, labels, answers, ...) stays in the studio.
Changed regions (feasible points, drag start) are written once the item's review is approved.
Items made in the studio have no record: they are written with the published keys plus a
`"studio"` key holding the rest (and a drag item's screenshot as
`single_step_drag_benchmark/screenshots/<id>.png`), which import reads back.

File names taken from records are untrusted: only plain names are used (no folders, no `..`).
"""

from __future__ import annotations

import copy
import json
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from studio.services.atomic import write_bytes
from studio.services.drag.item import (
    ITEM_FILE,
    PARTIAL_FILE,
    PROJECT_FILE,
    DragItem,
    DragItemError,
    ItemFolder,
    SwSource,
    load_item,
    png_size,
    write_item,
)
from studio.services.drag.review import ReviewState
from studio.services.errors import ProjectFileError, StudioError, TaskFileError
from studio.services.qa.item import ITEMS_DIR, QaItem, QaSet, read_item
from studio.services.sb3 import check_sb3
from studio.services.scratchworld.layout import PROJECTS_DIR, JsonStyle
from studio.services.scratchworld.reports import ExportReport, ImportReport, Problem

DIAGNOSTICS_DIR = "diagnostics"  # in a library: diagnostics/drag/<id>/, diagnostics/qa/
DRAG_SUB, QA_SUB = "drag", "qa"
DRAG_DIR = Path("single_step_drag_benchmark")
DRAG_TASKS = DRAG_DIR / "tasks"
DRAG_SHOTS = DRAG_DIR / "screenshots"  # screenshots of items made in the studio only
QA_DIR = Path("visual_perception_benchmark")
QA_TASKS = QA_DIR / "tasks"
QA_SHOTS = QA_DIR / "screenshots_final"
STUDIO_KEY = "studio"
LOCAL_PROJECT = "local_project"  # under "studio": the project's name in the item folder

MAX_RECORD_BYTES = 16 * 1024 * 1024
MAX_PROJECT_BYTES = 256 * 1024 * 1024
MAX_SCREENSHOT_BYTES = 32 * 1024 * 1024
SCREEN = (1280, 720)

DRAG_FIELDS = ("id", "category", "instruction", "init_project", "evaluation_config")
QA_FIELDS = ("task_id", "instruction", "screenshot", "task_type", "tag", "ground_truth")
QA_OPTIONAL = ("focus_hint",)
# evaluation_config fields of the studio's own (never written over a published record)
STUDIO_CONFIG = frozenset(
    {"setup_actions", "source", "flyout_index", "grid", "target_box", "reference_box"}
)
STUDIO_WORKSPACE = frozenset(
    {"target", "scroll_x", "scroll_y", "category", "flyout_scroll_y", "viewport"}
)
# evaluation_config fields a region computation changes: written once the item is approved
REGION_KEYS = frozenset(
    {"feasible_points", "feasible_start_points", "drag_start_point", "seed_point"}
    | {"first_valid_point"}
)
POINT_KEYS = ("seed_point", "drag_start_point")
POINTS_KEYS = ("feasible_points", "feasible_start_points")
# studio fields that cannot be null: a published null leaves the studio's default
NOT_NULL = frozenset(
    {"feasible_points", "feasible_start_points", "workspace_state"} | STUDIO_CONFIG
) - {"target_box", "reference_box"}

Report = ImportReport | ExportReport


class _Bad(Exception):
    """One item that cannot be imported or exported: which file, what, which field."""

    def __init__(self, file: Path, problem: str, field: str | None = None) -> None:
        super().__init__(problem)
        self.problem = Problem(file, problem, field)


def plain_name(value: Any) -> bool:
    """A file name to use as it is: no folders, no `..`, nothing hidden, nothing odd."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= 255
        and not value.startswith(".")
        and value == value.strip()
        and not any(c in value for c in "/\\:\0")
    )


def has_diagnostics(root: Path) -> bool:
    """Whether a checkout holds drag items or QA items."""
    return (root / DRAG_TASKS).is_dir() or (root / QA_TASKS).is_dir()


def diagnostics_folder(src: Path) -> Path | None:
    """The studio's diagnostics folder of `src`: `src/diagnostics` of a library, or `src`
    itself when it holds `drag/` or `qa/`."""
    if (src / DIAGNOSTICS_DIR).is_dir():
        return src / DIAGNOSTICS_DIR
    if (src / DRAG_SUB).is_dir() or (src / QA_SUB).is_dir():
        return src
    return None


def _read_bytes(path: Path, limit: int, who: str, field: str | None, record: Path) -> bytes:
    if not path.is_file():
        raise _Bad(record, f"{who}: names {path.name}, which is not in {path.parent}", field)
    size = path.stat().st_size
    if size > limit:
        raise _Bad(path, f"{who}: {size} bytes, more than the {limit} allowed")
    return path.read_bytes()


def _read_record(path: Path) -> tuple[dict[str, Any], str]:
    size = path.stat().st_size
    if size > MAX_RECORD_BYTES:
        raise _Bad(path, f"{size} bytes, more than the {MAX_RECORD_BYTES} allowed for a record")
    try:
        text = path.read_text(encoding="utf-8")
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _Bad(path, f"invalid JSON at line {exc.lineno}: {exc.msg}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _Bad(path, f"cannot be read ({exc})") from None
    if not isinstance(raw, dict):
        raise _Bad(path, "must hold one JSON object")
    return raw, text


def _who(raw: dict[str, Any], key: str, path: Path) -> str:
    value = raw.get(key)
    return f"item {value}" if isinstance(value, str | int) and value != "" else f"item {path.stem}"


def _require(raw: dict[str, Any], keys: Iterable[str], who: str, path: Path) -> None:
    missing = [k for k in keys if k not in raw]
    if missing:
        raise _Bad(path, f"{who}: required field is missing", ", ".join(missing))


def _validation(exc: ValidationError, who: str, path: Path) -> _Bad:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    return _Bad(path, f"{who}: {err['msg']}", loc or None)


def _source(raw: dict[str, Any], file: str, text: str) -> dict[str, Any]:
    style = JsonStyle.detect(text)
    exact = style.dump(raw) == text
    return {
        "file": file,
        "record": copy.deepcopy(raw),
        "style": style.model_dump(),
        "text": None if exact else text,
    }


def _record_bytes(source: SwSource, out: dict[str, Any], changed: bool) -> bytes:
    """The file of a published record: as read when unchanged, else in the file's style."""
    style = JsonStyle.model_validate(source.style)
    if not changed and source.text is not None:
        return source.text.encode("utf-8")
    return style.dump(out).encode("utf-8")


# ---- mapping ---------------------------------------------------------------------------------
def _xy(point: Any) -> Any:
    if isinstance(point, dict) and "x" in point and "y" in point:
        return [point["x"], point["y"]]
    return point


def _studio_config(raw: Any) -> Any:
    """A published evaluation_config as the studio reads it: every key kept (unknown ones as
    extras), `source` from target_block_id, points written as {x, y} read as [x, y]."""
    if not isinstance(raw, dict):
        return raw
    cfg = copy.deepcopy(raw)
    for key in NOT_NULL:
        if key in cfg and cfg[key] is None:
            del cfg[key]
    for key in POINT_KEYS:
        if key in cfg:
            cfg[key] = _xy(cfg[key])
    for key in POINTS_KEYS:
        if isinstance(cfg.get(key), list):
            cfg[key] = [_xy(p) for p in cfg[key]]
    cfg["source"] = "flyout" if cfg.get("target_block_id") is None else "canvas"
    return cfg


def drag_item_of(raw: dict[str, Any], file: str | None = None, text: str | None = None) -> DragItem:
    """What import makes of a drag record (ValidationError when it does not fit). With `text`
    (the file as read), the record is kept in the item for export."""
    studio = raw.get(STUDIO_KEY)
    known = set(DRAG_FIELDS) | ({STUDIO_KEY} if isinstance(studio, dict) else set())
    data: dict[str, Any] = {k: raw[k] for k in DRAG_FIELDS if k in raw}
    data["sw_extra"] = {k: v for k, v in raw.items() if k not in known}
    if isinstance(studio, dict):  # written by the studio's export: the studio's own fields
        data.update({k: v for k, v in studio.items() if k != LOCAL_PROJECT})
        data["init_project"] = studio.get(LOCAL_PROJECT, raw.get("init_project"))
    else:
        data["evaluation_config"] = _studio_config(raw.get("evaluation_config"))
        if file is not None and text is not None:
            data["sw_source"] = _source(raw, file, text)
    return DragItem.model_validate(data)


def _scalar_text(value: Any) -> Any:
    return str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


def qa_item_of(raw: dict[str, Any], file: str | None = None, text: str | None = None) -> QaItem:
    """What import makes of a QA record (ValidationError when it does not fit)."""
    studio = raw.get(STUDIO_KEY)
    known = set(QA_FIELDS + QA_OPTIONAL) | ({STUDIO_KEY} if isinstance(studio, dict) else set())
    data: dict[str, Any] = {
        k: _scalar_text(raw[k]) for k in QA_FIELDS + QA_OPTIONAL if raw.get(k) is not None
    }
    data["sw_extra"] = {k: v for k, v in raw.items() if k not in known}
    if isinstance(studio, dict):
        data.update(studio)
    elif file is not None and text is not None:
        data["sw_source"] = _source(raw, file, text)
    return QaItem.model_validate(data)


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    return False


def _whole(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_whole(v) for v in value]
    return value


def _like(new: Any, old: Any) -> Any:
    """A changed value spelled as the one it replaces: whole numbers without `.0` when the old
    value had no fractions, points as {x, y} objects when they were."""
    if old is None:
        return new
    if not _has_float(old):
        new = _whole(new)
    is_xy = isinstance(old, dict) and "x" in old and "y" in old
    if is_xy and isinstance(new, list) and len(new) == 2:
        return {"x": new[0], "y": new[1]}
    if isinstance(old, list) and old and isinstance(old[0], dict) and isinstance(new, list):
        return [_like(p, old[0]) for p in new]
    return new


_MISSING = object()


class _Overlay:
    """Lays the published fields the studio changed over a copy of the original record."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.out = copy.deepcopy(record)
        self.changed = False

    def put(self, obj: dict[str, Any], key: str, new: Any, base: Any) -> None:
        if new != base:
            obj[key] = _like(new, obj.get(key))
            self.changed = True

    def extra(self, current: dict[str, Any], base: dict[str, Any]) -> None:
        for key in dict.fromkeys([*base, *current]):
            if key not in current:
                self.out.pop(key, None)
                self.changed = True
            else:
                self.put(self.out, key, current[key], base.get(key, _MISSING))


def drag_record(item: DragItem, project: str) -> tuple[bytes, list[str]]:
    """The file of an item in the published layout (and notes for the report); `project` is
    the name its project is written under in scratch-gui/static."""
    source = item.sw_source
    if source is None:
        return JsonStyle().dump(_new_drag_record(item, project)).encode("utf-8"), []
    base = drag_item_of(source.record)
    over = _Overlay(source.record)
    for key in ("id", "category", "instruction"):
        over.put(over.out, key, getattr(item, key), getattr(base, key))
    over.put(over.out, "init_project", project, source.record.get("init_project"))
    over.extra(item.sw_extra, base.sw_extra)
    notes: list[str] = []
    cfg_out = over.out.get("evaluation_config")
    if isinstance(cfg_out, dict):
        cur = item.evaluation_config.model_dump(mode="json")
        old = base.evaluation_config.model_dump(mode="json")
        waiting = []
        for key in dict.fromkeys([*old, *cur]):
            if key in STUDIO_CONFIG or key == "workspace_state":
                continue
            new, was = cur.get(key), old.get(key)
            if new != was and key in REGION_KEYS and item.review.state is not ReviewState.APPROVED:
                waiting.append(key)
                continue
            over.put(cfg_out, key, new, was)
        _overlay_workspace(over, cfg_out, cur["workspace_state"], old["workspace_state"])
        if waiting:
            notes.append(
                f"drag item {item.id}: {', '.join(waiting)} changed but the item is not "
                "approved; the published values are written"
            )
    return _record_bytes(source, over.out, over.changed), notes


def _overlay_workspace(
    over: _Overlay, cfg_out: dict[str, Any], cur: dict[str, Any], old: dict[str, Any]
) -> None:
    keys = [k for k in dict.fromkeys([*old, *cur]) if k not in STUDIO_WORKSPACE]
    if all(cur.get(k) == old.get(k) for k in keys):
        return
    ws = cfg_out.get("workspace_state")
    if not isinstance(ws, dict):
        ws = cfg_out["workspace_state"] = {}
    for key in keys:
        over.put(ws, key, cur.get(key), old.get(key))


def _new_drag_record(item: DragItem, project: str) -> dict[str, Any]:
    data = item.model_dump(mode="json", exclude_none=True)
    cfg = item.evaluation_config.model_dump(mode="json")
    keep_null = ("target_block_id", "target_input_name")
    record = {k: data[k] for k in DRAG_FIELDS}
    record["init_project"] = project
    record["evaluation_config"] = {k: v for k, v in cfg.items() if v is not None or k in keep_null}
    record.update(item.sw_extra)
    studio = {
        k: v for k, v in data.items() if k not in DRAG_FIELDS and k not in ("sw_extra", "sw_source")
    }
    if item.init_project != project:
        studio[LOCAL_PROJECT] = item.init_project
    record[STUDIO_KEY] = studio
    return record


def qa_record(item: QaItem) -> bytes:
    """The file of a QA item in the published layout."""
    source = item.sw_source
    if source is None:
        data = item.model_dump(mode="json", exclude_none=True)
        fields = QA_FIELDS + QA_OPTIONAL
        record = {k: data[k] for k in fields}
        record.update(item.sw_extra)
        record[STUDIO_KEY] = {
            k: v for k, v in data.items() if k not in fields and k not in ("sw_extra", "sw_source")
        }
        return JsonStyle().dump(record).encode("utf-8")
    base = qa_item_of(source.record).model_dump(mode="json")
    cur = item.model_dump(mode="json")
    over = _Overlay(source.record)
    for key in QA_FIELDS + QA_OPTIONAL:
        over.put(over.out, key, cur[key], base[key])
    over.extra(item.sw_extra, base["sw_extra"])
    return _record_bytes(source, over.out, over.changed)


def qa_file_name(item: QaItem) -> str:
    return item.sw_source.file if item.sw_source else f"{item.task_id}.json"


def drag_file_name(item: DragItem) -> str:
    source = item.sw_source
    if source is not None and source.record.get("id") == item.id:
        return source.file
    return f"{item.id}.json"


def drag_project_name(item: DragItem) -> str:
    return f"{item.id}.sb3" if item.init_project == PROJECT_FILE else item.init_project


# ---- import ----------------------------------------------------------------------------------
class _Projects:
    """The checkout's projects folder: each .sb3 read and checked once."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._seen: dict[str, bytes | ProjectFileError] = {}

    def get(self, name: str, who: str, record: Path) -> bytes:
        path = self.folder / name
        if name not in self._seen:
            data = _read_bytes(path, MAX_PROJECT_BYTES, who, "init_project", record)
            try:
                check_sb3(data, path)
                self._seen[name] = data
            except ProjectFileError as exc:
                self._seen[name] = exc
        found = self._seen[name]
        if isinstance(found, ProjectFileError):
            raise _Bad(found.path, f"{who}: {found.problem} (needed by {record.name})")
        return found


def drag_project_names(root: Path) -> set[str]:
    """The project names the drag records of a checkout use (unreadable records ignored)."""
    names: set[str] = set()
    for path in sorted((root / DRAG_TASKS).glob("*.json")):
        try:
            raw, _ = _read_record(path)
        except (_Bad, OSError):
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
    projects = _Projects(projects_dir or root / PROJECTS_DIR)
    seen: dict[str, Path] = {}
    for path in sorted(p for p in folder.glob("*.json") if p.is_file()):
        try:
            item, project, shot = _read_drag(path, projects, root / DRAG_SHOTS)
            if item.id in seen:
                msg = f"item {item.id}: the id is also the id of {seen[item.id].name}"
                raise _Bad(path, msg, "id")
            seen[item.id] = path
            _write_folder(dest / item.id, overwrite, path, item.id, item, project, shot)
        except _Bad as bad:
            report.skipped.append(bad.problem)
            continue
        report.drag_items.append(item.id)


def _read_drag(
    path: Path, projects: _Projects, shots: Path
) -> tuple[DragItem, bytes, bytes | None]:
    raw, text = _read_record(path)
    who = _who(raw, "id", path)
    _require(raw, DRAG_FIELDS, who, path)
    if not plain_name(raw["id"]):
        raise _Bad(path, f"{who}: the id {raw['id']!r} cannot name a folder", "id")
    name = raw["init_project"]
    if not plain_name(name) or name in (ITEM_FILE, PARTIAL_FILE):
        raise _Bad(path, f"{who}: {name!r} is not a plain file name", "init_project")
    try:
        item = drag_item_of(raw, path.name, text)
    except ValidationError as exc:
        raise _validation(exc, who, path) from None
    project = projects.get(name, who, path)
    shot = None
    if item.sw_source is None:  # made in the studio: its screenshot, when it has one
        shot_path = shots / f"{item.id}.png"
        if shot_path.is_file():
            shot = _read_png(shot_path, who, path)
    if not plain_name(item.init_project) or item.init_project in (ITEM_FILE, PARTIAL_FILE):
        raise _Bad(path, f"{who}: {item.init_project!r} is not a plain file name", STUDIO_KEY)
    if shot is not None and (not plain_name(item.screenshot) or item.screenshot == ITEM_FILE):
        raise _Bad(path, f"{who}: {item.screenshot!r} is not a plain file name", STUDIO_KEY)
    return item, project, shot


def _read_png(path: Path, who: str, record: Path) -> bytes:
    data = _read_bytes(path, MAX_SCREENSHOT_BYTES, who, "screenshot", record)
    try:
        png_size(data)
    except DragItemError:
        raise _Bad(path, f"{who}: not a PNG file") from None
    return data


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
        raise _Bad(record, f"item {item_id}: {final} already exists; not overwritten", "id")
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{item_id}.", suffix=".importing", dir=final.parent))
    try:
        write_item(tmp, item, project, shot)
        load_item(tmp)
        if final.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{item_id}.", suffix=".old", dir=final.parent))
            final.replace(old / item_id)
            tmp.replace(final)
            shutil.rmtree(old)
        else:
            tmp.replace(final)
    except TaskFileError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise _Bad(record, f"item {item_id}: {exc.problem}", exc.field) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def import_qa(root: Path, dest: Path, report: Report, *, overwrite: bool = False) -> None:
    """Each `visual_perception_benchmark/tasks/*.json` of `root` into the QA set `dest`."""
    folder, shots = root / QA_TASKS, root / QA_SHOTS
    qa = QaSet(dest)
    seen: dict[str, Path] = {}
    written: set[str] = set()
    used: set[str] = set()
    for path in sorted((p for p in folder.glob("*.json") if p.is_file()), key=_natural):
        try:
            raw, text = _read_record(path)
            who = _who(raw, "task_id", path)
            _require(raw, QA_FIELDS, who, path)
            try:
                item = qa_item_of(raw, path.name, text)
            except ValidationError as exc:
                raise _validation(exc, who, path) from None
            if not plain_name(item.task_id):
                raise _Bad(path, f"{who}: the task_id cannot name a file", "task_id")
            if not plain_name(item.screenshot):
                msg = f"{who}: {item.screenshot!r} is not a plain file name"
                raise _Bad(path, msg, "screenshot")
            if item.task_id in seen:
                msg = f"{who}: the task_id is also the task_id of {seen[item.task_id].name}"
                raise _Bad(path, msg, "task_id")
            used.add(item.screenshot)
            png = _read_png(shots / item.screenshot, who, path)
            if item.screenshot not in written:
                _check_screen(png, shots / item.screenshot, report)
            _save_qa(qa, item, png, written, overwrite, path)
            seen[item.task_id] = path
        except _Bad as bad:
            report.skipped.append(bad.problem)
            continue
        report.qa_items.append(item.task_id)
    for png_path in sorted(shots.glob("*.png")) if shots.is_dir() else []:
        if png_path.name not in used:
            report.warnings.append(f"{png_path}: used by no question; not imported")


def _natural(path: Path) -> tuple[int, int | str, str]:
    stem = path.stem
    return (0, int(stem), "") if stem.isdigit() else (1, stem, path.name)


def _check_screen(png: bytes, path: Path, report: Report) -> None:
    size = png_size(png)
    if size != SCREEN:
        report.warnings.append(f"{path}: {size[0]}x{size[1]}, not {SCREEN[0]}x{SCREEN[1]}")


def _save_qa(
    qa: QaSet, item: QaItem, png: bytes, written: set[str], overwrite: bool, record: Path
) -> None:
    who = f"item {item.task_id}"
    if qa.item_path(item.task_id).exists() and not overwrite:
        msg = f"{who}: {qa.item_path(item.task_id)} already exists; not overwritten"
        raise _Bad(record, msg, "task_id")
    shot = qa.screenshot_path(item.screenshot)
    if item.screenshot in written:  # shared with a question imported before
        qa.save(item)
        return
    if shot.is_file() and not overwrite and shot.read_bytes() != png:
        msg = f"{who}: {shot} already exists with other content; not overwritten"
        raise _Bad(record, msg, "screenshot")
    qa.save(item, png)
    written.add(item.screenshot)


def import_diagnostics(
    root: Path | str,
    dest: Path | str,
    report: Report | None = None,
    projects_dir: Path | str | None = None,
    *,
    overwrite: bool = False,
) -> ImportReport | ExportReport:
    """Drag and QA items of the checkout `root` into the library `dest` (`dest/diagnostics/`).

    Raises StudioError when the checkout holds neither."""
    root, dest = Path(root), Path(dest)
    if not has_diagnostics(root):
        raise StudioError(f"{root}: no {DRAG_TASKS}/ and no {QA_TASKS}/ in it")
    report = report if report is not None else ImportReport(root, dest)
    base = dest / DIAGNOSTICS_DIR
    projects = Path(projects_dir) if projects_dir else None
    if (root / DRAG_TASKS).is_dir():
        import_drag(root, base / DRAG_SUB, report, projects, overwrite=overwrite)
    if (root / QA_TASKS).is_dir():
        import_qa(root, base / QA_SUB, report, overwrite=overwrite)
    return report


# ---- export ----------------------------------------------------------------------------------
class Output:
    """The files of one export: a path holds one content (the same bytes may be put twice)."""

    def __init__(self, dest: Path, already: Iterable[str] = ()) -> None:
        self.dest = dest
        self.files: dict[str, bytes | None] = dict.fromkeys(already)  # None: on disk

    def fits(self, rel: str, data: bytes) -> bool:
        if rel not in self.files:
            return True
        known = self.files[rel]
        if known is None:
            known = self.files[rel] = (self.dest / rel).read_bytes()
        return known == data

    def put(self, files: dict[str, bytes]) -> None:
        for rel, data in files.items():
            if rel not in self.files:
                write_bytes(self.dest / rel, data)
                self.files[rel] = data

    def clash(self, files: dict[str, bytes]) -> str | None:
        return next((rel for rel, data in files.items() if not self.fits(rel, data)), None)


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
        except _Bad as bad:
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
        raise _Bad(file, f"item {item.id}: {project!r} is not a plain file name", "init_project")
    if not plain_name(item.id):
        raise _Bad(file, f"item {item.id}: the id cannot name a file", "id")
    data, notes = drag_record(item, project)
    report.warnings.extend(notes)
    files = {
        (DRAG_TASKS / drag_file_name(item)).as_posix(): data,
        (PROJECTS_DIR / project).as_posix(): entry.project_path.read_bytes(),
    }
    if item.sw_source is None and entry.screenshot_path.is_file():
        files[(DRAG_SHOTS / f"{item.id}.png").as_posix()] = entry.screenshot_path.read_bytes()
    return files


def export_qa(src: Path, out: Output, report: Report) -> None:
    """The QA set `src` to the published layout."""
    qa = QaSet(src)
    folder = src / ITEMS_DIR
    items: list[tuple[Path, QaItem]] = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            items.append((path, read_item(path)))
        except TaskFileError as exc:
            report.skipped.append(Problem(exc.path, exc.problem, exc.field))
    for path, item in items:
        who = f"item {item.task_id}"
        name, shot = qa_file_name(item), qa.screenshot_path(item.screenshot)
        if not plain_name(name) or not plain_name(item.screenshot):
            report.skipped.append(Problem(path, f"{who}: a file name is not plain", "screenshot"))
            continue
        if not shot.is_file():
            msg = f"{who}: the screenshot {item.screenshot} is missing"
            report.skipped.append(Problem(path, msg, "screenshot"))
            continue
        files = {
            (QA_TASKS / name).as_posix(): qa_record(item),
            (QA_SHOTS / item.screenshot).as_posix(): shot.read_bytes(),
        }
        clash = out.clash(files)
        if clash is not None:
            msg = f"{who}: {clash} is already written with other content"
            report.skipped.append(Problem(path, msg, None))
            continue
        out.put(files)
        report.qa_items.append(item.task_id)


def export_diagnostics(src: Path, out: Output, report: Report) -> None:
    """The diagnostics folder `src` (drag/, qa/) into the export `out`."""
    if (src / DRAG_SUB).is_dir():
        export_drag(src / DRAG_SUB, out, report)
    if (src / QA_SUB).is_dir():
        export_qa(src / QA_SUB, out, report)


def check_dest(dest: Path, overwrite: bool) -> None:
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())) and not overwrite:
        raise StudioError(f"{dest}: exists and is not an empty folder; not overwritten")


def export_diagnostics_only(
    src: Path | str, dest: Path | str, *, overwrite: bool = False
) -> ExportReport:
    """`studio diagnostics export`: the drag and QA items of `src` (a library or its
    diagnostics folder) to `dest` in the published layout."""
    src, dest = Path(src), Path(dest)
    folder = diagnostics_folder(src)
    if folder is None:
        raise StudioError(f"{src}: no {DIAGNOSTICS_DIR}/ (nor {DRAG_SUB}/ or {QA_SUB}/) in it")
    check_dest(dest, overwrite)
    report = ExportReport(src, dest)
    out = Output(dest)
    export_diagnostics(folder, out, report)
    report.files = sorted(out.files)
    return report

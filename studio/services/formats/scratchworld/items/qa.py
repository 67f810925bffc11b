"""Visual perception QA items in the published ScratchWorld layout, both ways.

```
visual_perception_benchmark/tasks/<n>.json    {task_id, instruction, screenshot, task_type, tag,
                                               ground_truth, focus_hint, prompt,
                                               response_content, full_response}
visual_perception_benchmark/screenshots_final/<screenshot>
```

In the studio the items are one QA set `qa/` (`items/<task_id>.json`, `screenshots/<name>`).

Mapping (`qa_item_of`). The published fields are the item's fields, numbers read as text;
unknown keys (prompt, model responses, ...) are kept as `sw_extra`. Export (`qa_record`) lays
the changed published fields over the original record; an item made in the studio is written
with a `"studio"` key holding the rest. The record keeps its file name (`qa_file_name`), else it
is `<task_id>.json`.

Import (`import_qa`). Records are read in natural order (`2.json` before `10.json`); task ids
and screenshot names must be plain names, task ids unique. A screenshot shared by several
questions is written once; one that is not 1280x720, or a screenshot no question uses, is a
warning. An existing item, or a screenshot with other content, is kept unless `overwrite`.

Export (`export_qa`). Each item of the QA set is written with its screenshot; an item whose
screenshot is missing, or whose files clash with files already written, is skipped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from studio.models.qa_item import QaItem
from studio.services.core.errors import TaskFileError
from studio.services.core.names import contained
from studio.services.diagnostics.drag.item import png_size
from studio.services.diagnostics.qa.item import ITEMS_DIR, QaSet, read_item
from studio.services.diagnostics.qa.screens import keep_project, project_path
from studio.services.formats.scratchworld.items.common import (
    SOURCE_FIELDS,
    STUDIO_KEY,
    BadRecord,
    Output,
    Overlay,
    Report,
    from_validation,
    in_checkout,
    plain_name,
    read_png,
    read_record,
    record_bytes,
    require,
    source_of,
    who_of,
)
from studio.services.formats.scratchworld.tasks.layout import JsonStyle
from studio.services.formats.scratchworld.tasks.reports import Problem

__all__ = [
    "QA_DIR", "QA_FIELDS", "QA_OPTIONAL", "QA_PROJECTS", "QA_SHOTS", "QA_TASKS", "SCREEN",
    "export_qa", "import_qa", "qa_file_name", "qa_item_of", "qa_record",
]  # fmt: skip

QA_DIR = Path("visual_perception_benchmark")
QA_TASKS = QA_DIR / "tasks"
QA_SHOTS = QA_DIR / "screenshots_final"
# Not in the published layout: the project each screen was taken of, when the studio keeps it
# (what `studio qa recapture` loads); exported and imported so a round trip keeps them.
QA_PROJECTS = QA_DIR / "projects"
SCREEN = (1280, 720)

QA_FIELDS = ("task_id", "instruction", "screenshot", "task_type", "tag", "ground_truth")
QA_OPTIONAL = ("focus_hint",)


# ---- mapping ---------------------------------------------------------------------------------
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
        data.update({k: v for k, v in studio.items() if k not in SOURCE_FIELDS})
    elif file is not None and text is not None:
        data["sw_source"] = source_of(raw, file, text)
    return QaItem.model_validate(data)


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
    over = Overlay(source.record)
    for key in QA_FIELDS + QA_OPTIONAL:
        over.put(over.out, key, cur[key], base[key])
    over.extra(item.sw_extra, base["sw_extra"])
    return record_bytes(source, over.out, over.changed)


def qa_file_name(item: QaItem) -> str:
    return item.sw_source.file if item.sw_source else f"{item.task_id}.json"


# ---- import ----------------------------------------------------------------------------------
def import_qa(root: Path, dest: Path, report: Report, *, overwrite: bool = False) -> None:
    """Each `visual_perception_benchmark/tasks/*.json` of `root` into the QA set `dest`."""
    folder, shots = root / QA_TASKS, root / QA_SHOTS
    qa = QaSet(dest)
    seen: dict[str, Path] = {}
    written: set[str] = set()
    used: set[str] = set()
    for path in sorted((p for p in folder.glob("*.json") if p.is_file()), key=_natural):
        try:
            in_checkout(path, [root], path, None)
            raw, text = read_record(path)
            who = who_of(raw, "task_id", path)
            require(raw, QA_FIELDS, who, path)
            try:
                item = qa_item_of(raw, path.name, text)
            except ValidationError as exc:
                raise from_validation(exc, who, path) from None
            if not plain_name(item.task_id):
                raise BadRecord(path, f"{who}: the task_id cannot name a file", "task_id")
            if not plain_name(item.screenshot):
                msg = f"{who}: {item.screenshot!r} is not a plain file name"
                raise BadRecord(path, msg, "screenshot")
            if item.task_id in seen:
                msg = f"{who}: the task_id is also the task_id of {seen[item.task_id].name}"
                raise BadRecord(path, msg, "task_id")
            used.add(item.screenshot)
            in_checkout(shots / item.screenshot, [root], path, "screenshot")
            png = read_png(shots / item.screenshot, who, path)
            if item.screenshot not in written:
                _check_screen(png, shots / item.screenshot, report)
            _save_qa(qa, item, png, written, overwrite, path)
            _import_project(root, qa, item.screenshot)
            seen[item.task_id] = path
        except BadRecord as bad:
            report.skipped.append(bad.problem)
            continue
        report.qa_items.append(item.task_id)
    for png_path in sorted(shots.glob("*.png")) if shots.is_dir() else []:
        if png_path.name not in used:
            report.warnings.append(f"{png_path}: used by no question; not imported")


def _import_project(root: Path, qa: QaSet, screenshot: str) -> None:
    """The project of the screen, when the checkout carries one (an export of the studio's)."""
    source = root / QA_PROJECTS / project_path(qa, screenshot).name
    if source.is_file() and contained(source, root):
        keep_project(qa, screenshot, source.read_bytes())


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
        raise BadRecord(record, msg, "task_id")
    shot = qa.screenshot_path(item.screenshot)
    if item.screenshot in written:  # shared with a question imported before
        qa.save(item)
        return
    if shot.is_file() and not overwrite and shot.read_bytes() != png:
        msg = f"{who}: {shot} already exists with other content; not overwritten"
        raise BadRecord(record, msg, "screenshot")
    qa.save(item, png)
    written.add(item.screenshot)


# ---- export ----------------------------------------------------------------------------------
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
        if shot.exists() and not contained(shot, src):
            msg = f"{who}: the screenshot {item.screenshot} is a symbolic link out of {src}"
            report.skipped.append(Problem(path, msg, "screenshot"))
            continue
        if not shot.is_file():
            msg = f"{who}: the screenshot {item.screenshot} is missing"
            report.skipped.append(Problem(path, msg, "screenshot"))
            continue
        files = {
            (QA_TASKS / name).as_posix(): qa_record(item),
            (QA_SHOTS / item.screenshot).as_posix(): shot.read_bytes(),
        }
        project = project_path(qa, item.screenshot)
        if project.is_file() and contained(project, src):  # what `qa recapture` loads
            files[(QA_PROJECTS / project.name).as_posix()] = project.read_bytes()
        clash = out.clash(files)
        if clash is not None:
            msg = f"{who}: {clash} is already written with other content"
            report.skipped.append(Problem(path, msg, None))
            continue
        out.put(files)
        report.qa_items.append(item.task_id)

"""Drag items and perception QA items in the ScratchWorld layout, both ways, without loss.

Layout of a diagnostics set (FORMATS.md sections 5 and 6):

```
single_step_drag/tasks/<id>.json       {id, category, instruction, init_project, evaluation_config}
single_step_drag/projects/<init_project>
single_step_drag/screenshots/<id>.png
perception/tasks.json                  [{task_id, instruction, screenshot, task_type, tag,
                                         ground_truth, focus_hint}, ...]
perception/screenshots/<screenshot>
```

What the studio keeps beyond those fields (review, labels, answers, subject, suggestion,
computation figures) goes under a `"studio"` key of each record; fields the studio does not
know are kept as they came. So studio -> ScratchWorld -> studio and ScratchWorld -> studio ->
ScratchWorld give the same items and the same bytes of projects and screenshots.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from studio.services.atomic import write_bytes, write_text
from studio.services.drag.item import (
    PROJECT_FILE,
    SCREENSHOT_FILE,
    DragItem,
    EvaluationConfig,
    ItemFolder,
    scan_items,
    write_item,
)
from studio.services.errors import TaskFileError
from studio.services.qa.item import QaItem, QaSet

DRAG_DIR = Path("single_step_drag")
QA_DIR = Path("perception")
STUDIO_KEY = "studio"
REQUIRED_CONFIG = (
    "target_block_opcode",
    "reference_block_id",
    "reference_block_opcode",
    "connection_type",
)
DRAG_FIELDS = ("id", "category", "instruction", "init_project", "evaluation_config")
QA_FIELDS = (
    "task_id",
    "instruction",
    "screenshot",
    "task_type",
    "tag",
    "ground_truth",
    "focus_hint",
)


@dataclass
class DiagnosticsReport:
    drag_items: list[str] = field(default_factory=list)
    qa_items: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "drag_items": len(self.drag_items),
            "qa_items": len(self.qa_items),
            "problems": self.problems,
        }


# ---- export ----------------------------------------------------------------------------------
def drag_record(entry: ItemFolder) -> tuple[dict[str, Any], str, str]:
    """The ScratchWorld record of an item, its project file name and screenshot name there."""
    item = entry.item
    data = item.model_dump(mode="json", exclude_none=True)
    project = item.init_project if item.init_project != PROJECT_FILE else f"{item.id}.sb3"
    shot = f"{item.id}.png"
    record = {k: data[k] for k in DRAG_FIELDS}
    record["init_project"] = project
    record["evaluation_config"] = _config_record(item)
    record.update(item.sw_extra)
    studio = {k: v for k, v in data.items() if k not in DRAG_FIELDS and k != "sw_extra"}
    studio["local_project"] = item.init_project
    studio["sw_config_keys"] = item.sw_config_keys  # None: made in the studio
    record[STUDIO_KEY] = studio
    return record, project, shot


def _config_record(item: DragItem) -> dict[str, Any]:
    """evaluation_config as written: an imported item keeps its own keys (plus what changed)."""
    full = item.evaluation_config.model_dump(mode="json", exclude_none=True)
    if item.sw_config_keys is None:
        return full
    defaults = EvaluationConfig.model_validate(
        {k: full[k] for k in REQUIRED_CONFIG if k in full}
    ).model_dump(mode="json", exclude_none=True)
    keys = set(item.sw_config_keys)
    return {k: v for k, v in full.items() if k in keys or defaults.get(k) != v}


def export_drag(items_root: Path, dest: Path, report: DiagnosticsReport) -> None:
    for entry in scan_items(items_root):
        record, project, shot = drag_record(entry)
        base = dest / DRAG_DIR
        write_text(base / "tasks" / f"{entry.item.id}.json", json.dumps(record, indent=2) + "\n")
        write_bytes(base / "projects" / project, entry.project_path.read_bytes())
        if entry.screenshot_path.is_file():
            write_bytes(base / "screenshots" / shot, entry.screenshot_path.read_bytes())
        report.drag_items.append(entry.item.id)


def export_qa(qa_root: Path, dest: Path, report: DiagnosticsReport) -> None:
    qa = QaSet(qa_root)
    records = []
    for item in qa.items():
        data = item.model_dump(mode="json", exclude_none=True)
        record = {k: data[k] for k in QA_FIELDS}
        record.update(item.sw_extra)
        record[STUDIO_KEY] = {
            k: v for k, v in data.items() if k not in QA_FIELDS and k != "sw_extra"
        }
        records.append(record)
        shot = qa.screenshot_path(item.screenshot)
        if shot.is_file():
            write_bytes(dest / QA_DIR / "screenshots" / item.screenshot, shot.read_bytes())
        report.qa_items.append(item.task_id)
    write_text(dest / QA_DIR / "tasks.json", json.dumps(records, indent=2) + "\n")


def export_diagnostics(src: Path, dest: Path) -> DiagnosticsReport:
    """Write `src/drag` and `src/qa` (a diagnostics folder) to `dest` in the ScratchWorld layout."""
    report = DiagnosticsReport()
    if (src / "drag").is_dir():
        export_drag(src / "drag", dest, report)
    if (src / "qa").is_dir():
        export_qa(src / "qa", dest, report)
    if not report.drag_items and not report.qa_items:
        raise TaskFileError(src, "no drag items (drag/) and no QA items (qa/) here")
    return report


# ---- import ----------------------------------------------------------------------------------
def _split(record: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    data = {k: record[k] for k in known if k in record}
    studio = record.get(STUDIO_KEY) or {}
    data.update(studio)
    data["sw_extra"] = {k: v for k, v in record.items() if k not in known and k != STUDIO_KEY}
    return data


def import_drag(root: Path, dest: Path, report: DiagnosticsReport) -> None:
    base = root / DRAG_DIR
    for path in sorted((base / "tasks").glob("*.json")):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            data = _split(record, DRAG_FIELDS)
            sw_project = record.get("init_project", "")
            local = data.pop("local_project", None)
            data["init_project"] = local or sw_project
            config = record.get("evaluation_config")
            if "sw_config_keys" not in data and isinstance(config, dict):
                data["sw_config_keys"] = list(config)
            if data.get("category") not in ("T1", "T2"):
                data.setdefault("category", "T1")
            item = DragItem.model_validate(data)
        except (OSError, json.JSONDecodeError, ValidationError) as exc:
            report.problems.append(f"{path}: {_first(exc)}")
            continue
        project = base / "projects" / sw_project
        if not project.is_file():
            report.problems.append(f"{path}: the project {sw_project} is missing")
            continue
        shot_path = base / "screenshots" / f"{item.id}.png"
        shot = shot_path.read_bytes() if shot_path.is_file() else None
        if shot is None:
            item.screenshot = item.screenshot or SCREENSHOT_FILE
        write_item(dest / "drag" / item.id, item, project.read_bytes(), shot)
        report.drag_items.append(item.id)


def import_qa(root: Path, dest: Path, report: DiagnosticsReport) -> None:
    path = root / QA_DIR / "tasks.json"
    if not path.is_file():
        return
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        report.problems.append(f"{path}: {_first(exc)}")
        return
    qa = QaSet(dest / "qa")
    for n, record in enumerate(records if isinstance(records, list) else []):
        try:
            item = QaItem.model_validate(_split(record, QA_FIELDS))
        except ValidationError as exc:
            report.problems.append(f"{path}: item {n}: {_first(exc)}")
            continue
        shot = root / QA_DIR / "screenshots" / item.screenshot
        qa.save(item, shot.read_bytes() if shot.is_file() else None)
        report.qa_items.append(item.task_id)


def import_diagnostics(root: Path, dest: Path) -> DiagnosticsReport:
    """Read a ScratchWorld diagnostics set into `dest/drag/<id>/` and `dest/qa/`."""
    report = DiagnosticsReport()
    import_drag(root, dest, report)
    import_qa(root, dest, report)
    if not report.drag_items and not report.qa_items and not report.problems:
        raise TaskFileError(root, f"no {DRAG_DIR}/tasks/*.json and no {QA_DIR}/tasks.json here")
    return report


def _first(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        return f"field {'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
    return str(exc).splitlines()[0]

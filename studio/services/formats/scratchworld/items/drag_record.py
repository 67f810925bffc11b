"""A single-step drag item's published record and the studio's DragItem, both ways.

The record (`single_step_drag_benchmark/tasks/<id>.json`) is `{id, category, instruction,
init_project, evaluation_config, sprite?}`.

Record to item (`drag_item_of`). The published fields are the item's fields; other top-level keys
are kept as `sw_extra`. The evaluation_config keeps every key (unknown ones as extras); `source`
is "flyout" when target_block_id is null, else "canvas"; points written as {x, y} are read as
[x, y]; a published null for a field the studio cannot leave null (`NOT_NULL`) keeps the
studio's default. Given the file as read, the record is kept in the item for export. A record
the studio wrote (one with a `"studio"` key) gives back the studio's own fields from that key.

Item to record (`drag_record`). Over the original record go the published fields the studio
changed, and only those; the studio's own evaluation_config and workspace_state fields
(`STUDIO_CONFIG`, `STUDIO_WORKSPACE`) are never written. Changed regions (`REGION_KEYS`:
feasible points, drag start, ...) are written once the item's review is approved; before that
the published values stay and a note says so. An item made in the studio has no record: it is
written with the published keys plus a `"studio"` key holding the rest, and its project's name
in the item folder under `"studio"."local_project"` when that differs from the published one.

Names. The record keeps its file name while the item keeps its id (`drag_file_name`), else it is
`<id>.json`; an item whose project is the folder's `project.sb3` publishes it as `<id>.sb3`
(`drag_project_name`).
"""

from __future__ import annotations

import copy
from typing import Any

from studio.models.drag_item import PROJECT_FILE, DragItem
from studio.models.items import ReviewState
from studio.services.formats.scratchworld.items.common import (
    SOURCE_FIELDS,
    STUDIO_KEY,
    Overlay,
    plain_name,
    record_bytes,
    source_of,
)
from studio.services.formats.scratchworld.tasks.layout import JsonStyle

__all__ = [
    "DRAG_FIELDS", "LOCAL_PROJECT", "NOT_NULL", "POINTS_KEYS", "POINT_KEYS", "REGION_KEYS",
    "STUDIO_CONFIG", "STUDIO_WORKSPACE", "drag_file_name", "drag_item_of", "drag_project_name",
    "drag_record",
]  # fmt: skip

LOCAL_PROJECT = "local_project"  # under "studio": the project's name in the item folder

DRAG_FIELDS = ("id", "category", "instruction", "init_project", "evaluation_config")
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
        data.update(
            {k: v for k, v in studio.items() if k != LOCAL_PROJECT and k not in SOURCE_FIELDS}
        )
        data["init_project"] = studio.get(LOCAL_PROJECT, raw.get("init_project"))
    else:
        data["evaluation_config"] = _studio_config(raw.get("evaluation_config"))
        if file is not None and text is not None:
            data["sw_source"] = source_of(raw, file, text)
    return DragItem.model_validate(data)


def drag_record(item: DragItem, project: str) -> tuple[bytes, list[str]]:
    """The file of an item in the published layout (and notes for the report); `project` is
    the name its project is written under in scratch-gui/static."""
    source = item.sw_source
    if source is None:
        return JsonStyle().dump(_new_drag_record(item, project)).encode("utf-8"), []
    base = drag_item_of(source.record)
    over = Overlay(source.record)
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
    return record_bytes(source, over.out, over.changed), notes


def _overlay_workspace(
    over: Overlay, cfg_out: dict[str, Any], cur: dict[str, Any], old: dict[str, Any]
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


def drag_file_name(item: DragItem) -> str:
    source = item.sw_source
    if source is not None and source.record.get("id") == item.id and plain_name(source.file):
        return source.file
    return f"{item.id}.json"


def drag_project_name(item: DragItem) -> str:
    return f"{item.id}.sb3" if item.init_project == PROJECT_FILE else item.init_project

"""Task list files (`tasks/all_tasks.json` and the like): reading them and writing them back.

A list file maps categories to task file names (or is a plain list of names). Import records in
each task which lists name it (key, entry text, position) and the shape of each list; export
rebuilds the lists from the tasks it writes, in the original order and spelling.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from studio.models.task import Category
from studio.services.core.untrusted_json import JsonInputError, loads
from studio.services.formats.scratchworld.tasks.layout import JsonStyle
from studio.services.formats.scratchworld.tasks.record import ListMembership, ListShape

__all__ = [
    "DEFAULT_LIST", "MAX_LIST_BYTES", "ListedTask", "ParsedList", "parse_task_list",
    "rebuild_task_lists", "resolve_entry", "restyle",
]  # fmt: skip

DEFAULT_LIST = "all_tasks.json"
MAX_LIST_BYTES = 16 * 1024 * 1024
_NEW = 10**9  # position of entries added at export, after every original entry


@dataclass
class ParsedList:
    """A task list file as read: its shape and its entries (key, entry text, position)."""

    name: str
    shape: ListShape
    entries: list[tuple[str | None, str, int]]


def _entries(value: Any) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(e, str) for e in value):
        return value
    return None


def parse_task_list(name: str, text: str) -> ParsedList:
    """Parse a list file's text; ValueError when it is neither a dict of lists nor a list."""
    try:
        value = loads(text, name, max_bytes=MAX_LIST_BYTES)
    except JsonInputError as exc:
        raise ValueError(exc.problem) from None
    style = JsonStyle.detect(text)
    plain = _entries(value)
    if plain is not None:
        entries: list[tuple[str | None, str, int]] = [(None, e, i) for i, e in enumerate(plain)]
        return ParsedList(name, ListShape(kind="list", style=style), entries)
    if not isinstance(value, dict):
        raise ValueError("must map categories to lists of task file names")
    shape = ListShape(kind="dict", keys=list(value), style=style)
    entries = []
    for key, item in value.items():
        names = _entries(item)
        if names is None:
            shape.extra[key] = item
        else:
            entries.extend((key, e, i) for i, e in enumerate(names))
    return ParsedList(name, shape, entries)


def resolve_entry(key: str | None, entry: str, files: set[str]) -> str | None:
    """The task file (relative to the tasks folder) that a list entry names, if any."""
    name = entry.removeprefix("./")
    name = name if name.endswith(".json") else f"{name}.json"
    if "/" in name and name in files:
        return name
    base = PurePosixPath(name).name
    if key is not None and f"{key}/{base}" in files:
        return f"{key}/{base}"
    found = [f for f in files if PurePosixPath(f).name == base]
    return found[0] if len(found) == 1 else None


def restyle(entry: str, new_file: str) -> str:
    """Spell `new_file` the way `entry` spells its file: with folder or not, with .json or not."""
    path = PurePosixPath(new_file)
    text = path.stem
    if "/" in entry:
        text = f"{path.parent}/{text}" if str(path.parent) != "." else text
    return f"{text}.json" if entry.endswith(".json") else text


@dataclass
class ListedTask:
    """A task as export writes it, with the list mentions its record carries."""

    task_id: str
    category: str
    file: str  # where export writes it, relative to the tasks folder
    original_file: str | None = None
    original_category: str | None = None
    memberships: list[ListMembership] = field(default_factory=list)


def rebuild_task_lists(tasks: list[ListedTask], shapes: dict[str, ListShape]) -> dict[str, str]:
    """Text of every task list file: original mentions first, tasks new to the set appended to
    the lists that hold every imported task (an all_tasks.json is made when there is none)."""
    if not shapes:
        shapes = {DEFAULT_LIST: ListShape(keys=[c.value for c in Category])}
    imported = {t.task_id for t in tasks if t.memberships}
    out = {}
    for name, shape in shapes.items():
        members = {t.task_id for t in tasks for m in t.memberships if m.file == name}
        complete = imported <= members
        buckets = _fill(name, shape, tasks, complete)
        out[name] = shape.style.dump(_assemble(shape, buckets))
    return out


def _fill(
    name: str, shape: ListShape, tasks: list[ListedTask], complete: bool
) -> dict[str | None, list[tuple[int, str]]]:
    buckets: dict[str | None, list[tuple[int, str]]] = {}
    template = None
    for task in tasks:
        for m in task.memberships:
            if m.file != name:
                continue
            template = template or m.entry
            key, index = m.key, m.index
            moved = task.category != task.original_category
            if shape.kind == "dict" and moved and key == task.original_category:
                key, index = task.category, _NEW + len(buckets.get(task.category, []))
            entry = m.entry if task.file == task.original_file else restyle(m.entry, task.file)
            buckets.setdefault(key, []).append((index, entry))
    for task in tasks:
        if not task.memberships and complete:
            key = task.category if shape.kind == "dict" else None
            entry = restyle(template or "x.json", task.file)
            buckets.setdefault(key, []).append((_NEW + len(buckets.get(key, [])), entry))
    return buckets


def _assemble(shape: ListShape, buckets: dict[str | None, list[tuple[int, str]]]) -> Any:
    def entries(key: str | None) -> list[str]:
        return [e for _, e in sorted(buckets.get(key, []), key=lambda p: p[0])]

    if shape.kind == "list":
        return entries(None)
    keys = list(shape.keys)
    keys += [c.value for c in Category if c.value in buckets and c.value not in keys]
    keys += sorted(k for k in buckets if k is not None and k not in keys)
    return {k: shape.extra[k] if k in shape.extra else entries(k) for k in keys}

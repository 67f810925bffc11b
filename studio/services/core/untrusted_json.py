"""JSON that comes from outside the studio, read with a size and a nesting limit.

Every JSON file or text a person, a checkout, an archive or another machine hands the studio
(task.json, project.json inside an .sb3, a trajectory's manifest and lines, drag and QA items,
imported records) is read through `loads` or `read_json`. What is not fit to use raises
`JsonInputError`, a StudioError that names the file (or member) and the problem:

- more than `max_bytes` (the caller's limit, `MAX_BYTES` by default): refused before parsing;
- not UTF-8, not JSON (with the line and column), or
- nested deeper than `max_depth` (`MAX_DEPTH`, 100 arrays or objects inside one another): a
  nesting Python's parser cannot even follow (it would end in a RecursionError) is named the
  same way, and so is one it can follow but that would make later code recurse too deep.

The studio's own files stay far below both limits (a Scratch project keeps its blocks flat, a few
levels deep). Values in messages are cut by `errors.cut`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from studio.models.errors import StudioError
from studio.services.core.errors import cut

__all__ = ["MAX_BYTES", "MAX_DEPTH", "JsonInputError", "depth_of", "loads", "read_json"]

MAX_DEPTH = 100
MAX_BYTES = 64 * 1024 * 1024


class JsonInputError(StudioError):
    """A JSON input that cannot be used: which file (or member), what is wrong."""

    def __init__(self, source: Path | str, problem: str) -> None:
        self.path = Path(source)
        self.problem = cut(problem)
        super().__init__(f"{source}: {self.problem}")


def depth_of(value: Any) -> int:
    """How many arrays and objects are nested in `value` (0 for a scalar); not recursive."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest


def loads(
    data: str | bytes,
    source: Path | str,
    *,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """Parse `data` read from `source`; JsonInputError names `source` when it is not fit."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise JsonInputError(source, f"{size} bytes, more than the {max_bytes} allowed")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonInputError(source, f"is not UTF-8 text ({exc.reason})") from None
    try:
        value = json.loads(data)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise JsonInputError(source, f"invalid JSON at {where}: {exc.msg}") from None
    except RecursionError:
        raise JsonInputError(source, _too_deep(max_depth)) from None
    if depth_of(value) > max_depth:
        raise JsonInputError(source, _too_deep(max_depth))
    return value


def read_json(path: Path, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Read and parse the JSON file `path` (see `loads`); an unreadable file is named too."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise JsonInputError(path, f"{size} bytes, more than the {max_bytes} allowed")
        data = path.read_bytes()
    except OSError as exc:
        raise JsonInputError(path, f"cannot be read ({exc.strerror or exc})") from None
    return loads(data, path, max_bytes=max_bytes, max_depth=max_depth)


def _too_deep(max_depth: int) -> str:
    return f"nested more than {max_depth} levels deep (arrays or objects inside one another)"

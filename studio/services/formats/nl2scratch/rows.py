"""NL2Scratch JSON-lines files read row by row: a bad row is named and the others go on.

`read_rows(path, required)` gives the rows that are JSON objects holding every `required`
field and a list of `RowProblem`s (line number and why) for the others: a line that is not
JSON, not an object, lacks a field, or is larger than `MAX_ROW` bytes. A program field may be
a list of lines or one text; `program_lines` gives the lines either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.services.core.errors import TaskFileError, cut
from studio.services.core.untrusted_json import JsonInputError, loads

__all__ = ["MAX_FILE", "MAX_ROW", "RowProblem", "program_lines", "read_rows"]

MAX_ROW = 1024 * 1024  # bytes of one line
MAX_FILE = 256 * 1024 * 1024


@dataclass(frozen=True)
class RowProblem:
    """A row that cannot be used: its line number in the file and why."""

    line: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}"


def read_rows(
    path: Path, required: tuple[str, ...]
) -> tuple[list[tuple[int, dict[str, Any]]], list[RowProblem]]:
    """(line number, row) for each usable row, and the problems of the others."""
    try:
        if path.stat().st_size > MAX_FILE:
            raise TaskFileError(path, f"is larger than {MAX_FILE // (1024 * 1024)} MB")
        raw = path.read_bytes()
    except OSError as exc:
        raise TaskFileError(path, f"cannot be read ({exc.strerror or exc})") from None
    rows: list[tuple[int, dict[str, Any]]] = []
    problems: list[RowProblem] = []
    for number, line in enumerate(raw.split(b"\n"), 1):
        if not line.strip():
            continue
        if len(line) > MAX_ROW:
            problems.append(
                RowProblem(number, f"the row has {len(line)} bytes, more than {MAX_ROW}")
            )
            continue
        try:
            value = loads(line.decode("utf-8"), f"{path}:{number}")
        except (JsonInputError, UnicodeDecodeError) as exc:
            problems.append(RowProblem(number, f"not JSON ({cut(str(exc), 200)})"))
            continue
        if not isinstance(value, dict):
            problems.append(RowProblem(number, f"not an object but {type(value).__name__}"))
            continue
        missing = [name for name in required if name not in value]
        if missing:
            problems.append(RowProblem(number, f"lacks {', '.join(missing)}"))
            continue
        rows.append((number, value))
    return rows, problems


def program_lines(value: Any) -> list[str]:
    """A program field's lines (a list of lines, or one text split at newlines)."""
    if isinstance(value, list):
        return [str(v) for v in value]
    if value is None:
        return []
    return str(value).split("\n")

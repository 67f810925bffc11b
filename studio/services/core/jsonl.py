"""JSON-lines files that people hand the studio: predictions, answers, scripted agents' lines.

`json_lines(path)` yields `(line number, value)` for every line that is not blank, numbered
from 1 as an editor numbers them. A file that cannot be read, is larger than `MAX_BYTES` or is
not UTF-8, and a line that is not JSON, raise `TaskFileError` naming the file (and the line);
what a line must hold is for the caller to check, naming the line the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from studio.services.core.errors import TaskFileError
from studio.services.core.untrusted_json import JsonInputError, loads

__all__ = ["MAX_BYTES", "json_lines"]

MAX_BYTES = 64 * 1024 * 1024


def json_lines(path: Path) -> Iterator[tuple[int, Any]]:
    try:
        if path.stat().st_size > MAX_BYTES:
            raise TaskFileError(path, f"is larger than {MAX_BYTES // (1024 * 1024)} MB")
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise TaskFileError(path, f"cannot be read ({exc})") from None
    for n, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            yield n, loads(text, path)
        except JsonInputError as exc:
            raise TaskFileError(path, f"line {n}: not JSON ({exc.problem})") from None

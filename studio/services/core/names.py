"""File names read from files: plain names resolved inside their own folder, or refused.

A task file, a drag or QA record, a task list or an item file names other files (projects,
scripts, screenshots, its own published file). Such a name is used only when it is *plain*
(`name_problem` says why not): a non-empty string of at most 255 characters with no path
separator (`/`, `\\`), no drive (`C:`), no NUL or other control character, no leading or
trailing space, and neither `.` nor `..`; so `folder / name` stays in `folder`, whatever the
file says. A name that is not plain is refused with a problem that names the file and field.

Names that become folders of a library (task ids, item ids) must also not be hidden (start with
`.`: the library's `.trash/` and folders being written) nor reserved (`RESERVED`: the
library's `diagnostics/` folder of drag and QA items): `library_name_problem`.

`contained(path, root)` tells whether a path, symbolic links followed, stays inside `root`:
files read from a checkout are read only when it does (a link pointing elsewhere is refused).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

__all__ = ["MAX_NAME", "RESERVED", "contained", "library_name_problem", "name_problem"]

MAX_NAME = 255
RESERVED = frozenset({".trash", "diagnostics"})


def name_problem(value: Any) -> str | None:
    """Why `value` is not a plain file name, or None when it is one."""
    if not isinstance(value, str):
        return f"is not a file name (a {type(value).__name__})"
    if not value or len(value) > MAX_NAME:
        return f"is not a file name (empty or longer than {MAX_NAME} characters)"
    if value in (".", ".."):
        return "is not a file name (it names a folder: . or ..)"
    if "/" in value or "\\" in value:
        return "is a path, not a plain file name (it holds a path separator)"
    if len(value) > 1 and value[1] == ":":
        return "is a path, not a plain file name (it starts with a drive)"
    if any(ord(c) < 32 or c == "\x7f" for c in value):
        return "is not a plain file name (it holds a control character)"
    if value != value.strip():
        return "is not a plain file name (it starts or ends with a space)"
    return None


def library_name_problem(value: Any) -> str | None:
    """Why `value` cannot name a folder of a library (a task or an item), or None."""
    problem = name_problem(value)
    if problem is not None:
        return problem
    if value in RESERVED:
        return f"is reserved by the library (its {value}/ folder)"
    if value.startswith("."):
        return "is hidden (starts with '.'), as the library's own folders are"
    return None


def contained(path: Path, root: Path) -> bool:
    """Whether `path`, symbolic links followed, is inside `root` (or is `root`)."""
    try:
        real, base = os.path.realpath(path), os.path.realpath(root)
    except (OSError, ValueError):
        return False
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)

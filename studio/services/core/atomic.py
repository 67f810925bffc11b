"""Atomic file writes: a reader sees the old file or the new one, never half of one.

Writing `<name>` creates a temporary file `.<name>.<tag>-<random>.tmp` beside it (`<tag>`: the
writer's process id and host, see leftovers.py), writes and fsyncs the data, then renames it
over `<name>`; a failed write removes its temporary. The saved file
keeps the permission bits `<name>` had; a new file gets those of a plain `open()` (0o666 less
the umask, or what a default ACL of the folder gives).

A process killed mid-save leaves its temporary behind. Each write of `<name>` therefore first
removes the temporaries of `<name>` left by processes that are gone: at once when the tag names
a dead process of this host, else (names of another host, or without a tag as the former
`mkstemp` gave) once older than `STALE_AGE` seconds; a live writer's temporary is left alone.
`clean_folder(folder)` does the same for every temporary in a folder; the library scan calls it
on each task folder, so leftovers go at the next start, not only at the next save of that file.
Clean-up is best effort: it never makes a save fail.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studio.services.core.leftovers import STALE_AGE, is_leftover, owner_tag

__all__ = ["STALE_AGE", "clean_folder", "clean_stale", "write_bytes", "write_json", "write_text"]
_TMP_SUFFIX = ".tmp"
# `<tag>-<token_hex(8)>` now, mkstemp's 8 characters or a bare token_hex(8) before
_RANDOM = re.compile(r"[A-Za-z0-9_-]{8,64}")
_ANY_TEMP = re.compile(r"\..+\.[A-Za-z0-9_-]{8,64}\.tmp")
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def write_bytes(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, flush it to disk, then rename over `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(path)
    mode = _existing_mode(path)
    fd, tmp = _create_temp(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            if mode is not None:
                os.fchmod(fh.fileno(), mode)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def write_json(path: Path, value: Any) -> None:
    write_text(path, json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def _is_temp_of(path: Path, candidate: str) -> bool:
    """True when `candidate` (a file name in `path`'s folder) names a temporary of `path`."""
    prefix = f".{path.name}."
    if not (candidate.startswith(prefix) and candidate.endswith(_TMP_SUFFIX)):
        return False
    return bool(_RANDOM.fullmatch(candidate[len(prefix) : -len(_TMP_SUFFIX)]))


def clean_stale(path: Path, max_age: float = STALE_AGE) -> None:
    """Remove the temporaries of `path` that killed saves left (see the module doc)."""
    _clean(path.parent, lambda name: _is_temp_of(path, name), max_age)


def clean_folder(folder: Path, max_age: float = STALE_AGE) -> None:
    """Remove every temporary in `folder` that a killed save left (see the module doc)."""
    _clean(folder, lambda name: _ANY_TEMP.fullmatch(name) is not None, max_age)


def _clean(folder: Path, is_temp: Callable[[str], bool], max_age: float) -> None:
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if not is_temp(entry.name):
                continue
            with contextlib.suppress(OSError):
                info = entry.stat(follow_symlinks=False)
                if stat.S_ISREG(info.st_mode) and is_leftover(entry.name, info.st_mtime, max_age):
                    os.unlink(entry.path)


def _existing_mode(path: Path) -> int | None:
    """The permission bits of the file at `path`, or None when there is none."""
    try:
        info = path.stat()
    except OSError:
        return None
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None


def _create_temp(path: Path) -> tuple[int, str]:
    """Create `.<name>.<random>.tmp` beside `path` with the mode a plain open() would give."""
    for _ in range(100):
        tmp = f".{path.name}.{owner_tag()}-{secrets.token_hex(8)}{_TMP_SUFFIX}"
        tmp = str(path.parent / tmp)
        try:
            return os.open(tmp, _FLAGS, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")

"""What a killed process leaves behind, and how the next one knows it may remove it.

A save, an import or a server makes temporaries (files and folders) that a kill -9 leaves
behind. Each such name carries its maker's *owner tag* (`owner_tag`: the process id and a short
hash of the host name), so a later process tells a leftover of a dead process (removed at once)
from the temporary of a live one (left alone). A name without a tag (made by an older version),
or with the tag of another host (a library on a shared drive), is removed only once it is older
than `STALE_AGE` seconds. Clean-up is best effort: it never makes the work that runs it fail.

- `temp_dir(parent, stem, suffix)`: a new hidden folder `.<stem>.<tag>.<random><suffix>`;
- `clean_leftovers(folder)`: removes leftovers of imports (`.…importing`, `.…old` folders);
- `clean_temp_dirs(prefix)`: removes the system temporary folders `<prefix><tag>.…` of dead
  processes (a killed `studio serve --scratchworld`'s imported tasks);
- `is_leftover(name, mtime)`: the rule above, for any name that holds a tag.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import socket
import tempfile
import time
from pathlib import Path

__all__ = [
    "HOST", "STALE_AGE", "clean_leftovers", "clean_temp_dirs", "is_leftover", "owner_tag",
    "temp_dir",
]  # fmt: skip

STALE_AGE = 600.0  # seconds after which an untagged temporary is taken as left over
HOST = hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]
_TAG = re.compile(r"(?<![0-9])(\d+)-([0-9a-f]{8})(?![0-9a-f])")
_IMPORT_SUFFIXES = (".importing", ".old")


def owner_tag() -> str:
    """`<pid>-<host hash>` of this process, put in the names of its temporaries."""
    return f"{os.getpid()}-{HOST}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # another user's process (or a number that is no pid): not ours to judge
    return True


def is_leftover(name: str, mtime: float, max_age: float = STALE_AGE) -> bool:
    """Whether the temporary `name` (last changed at `mtime`) is left over by a dead process."""
    found = _TAG.findall(name)
    mine = [int(pid) for pid, host in found if host == HOST]
    if mine:
        return not _alive(mine[-1])
    return mtime < time.time() - max_age


def temp_dir(parent: Path, stem: str, suffix: str) -> Path:
    """A new hidden folder in `parent` whose name carries this process's tag."""
    return Path(tempfile.mkdtemp(prefix=f".{stem}.{owner_tag()}.", suffix=suffix, dir=parent))


def _remove_if_left(entry: os.DirEntry[str], max_age: float) -> None:
    with contextlib.suppress(OSError):
        info = entry.stat(follow_symlinks=False)
        if is_leftover(entry.name, info.st_mtime, max_age):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)


def clean_leftovers(folder: Path, max_age: float = STALE_AGE) -> None:
    """Remove the `.…importing` / `.…old` folders that killed imports left in `folder`."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.startswith(".") and entry.name.endswith(_IMPORT_SUFFIXES):
                _remove_if_left(entry, max_age)


def clean_temp_dirs(prefix: str, max_age: float = STALE_AGE) -> None:
    """Remove folders `<prefix>…` of dead processes from the system temporary folder."""
    with contextlib.suppress(OSError), os.scandir(tempfile.gettempdir()) as entries:
        for entry in entries:
            if entry.name.startswith(prefix) and entry.is_dir(follow_symlinks=False):
                _remove_if_left(entry, max_age)

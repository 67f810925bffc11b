"""Staging folders of a library: where the window's forged tasks wait for the author, and who
owns them.

A staging folder is a hidden folder of the library (`.review-forge-<random>`; the library's
scan skips hidden folders). `claim(folder)` writes its owner into it (`.owner.json`: this
process's id, the host name and, where /proc tells it, the process's start time, so a
recycled process id is not taken for the owner). A forge or a window killed while its staging
folder was open leaves the folder behind; `clean_stale(library)` removes every staging folder
whose owner is gone:

- the owner was a process of this host that no longer runs (or a process with its id that
  started at another time runs now);
- or the folder has no readable owner file and has not changed for `UNOWNED_GRACE_S` (a
  folder being opened has its owner file a moment later; older studios wrote none).

Folders owned by a live process (another window forging into the same library) or by another
host are left alone. The tasks in a stale folder were never kept by the author: what was kept
is already in the library, so a new forge does not make it again.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import time
from pathlib import Path

from studio.services.core import atomic

__all__ = ["OWNER_FILE", "PREFIX", "UNOWNED_GRACE_S", "claim", "clean_stale", "is_stale"]

PREFIX = ".review-forge-"
OWNER_FILE = ".owner.json"
UNOWNED_GRACE_S = 600.0


def _started(pid: int) -> str | None:
    """The start time of process `pid` in clock ticks after boot (Linux), or None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it runs, as another user
    return True


def claim(folder: Path) -> None:
    """Write this process as the owner of the staging folder `folder`."""
    owner = {"pid": os.getpid(), "host": socket.gethostname(), "started": _started(os.getpid())}
    atomic.write_text(folder / OWNER_FILE, json.dumps(owner) + "\n")


def is_stale(folder: Path, now: float | None = None) -> bool:
    """Whether the staging folder `folder` was left by a forge that is gone (module doc)."""
    try:
        owner = json.loads((folder / OWNER_FILE).read_text(encoding="utf-8"))
        pid, host, started = int(owner["pid"]), str(owner["host"]), owner.get("started")
    except (OSError, ValueError, TypeError, KeyError):
        try:
            age = (now if now is not None else time.time()) - folder.stat().st_mtime
        except OSError:
            return False  # gone already
        return age >= UNOWNED_GRACE_S
    if host != socket.gethostname():
        return False
    if not _alive(pid):
        return True
    return started is not None and _started(pid) not in (None, started)


def clean_stale(library: Path) -> list[Path]:
    """Remove the stale staging folders of `library`; the folders removed."""
    removed: list[Path] = []
    if not library.is_dir():
        return removed
    for child in sorted(library.iterdir()):
        if child.name.startswith(PREFIX) and child.is_dir() and is_stale(child):
            shutil.rmtree(child, ignore_errors=True)
            removed.append(child)
    return removed

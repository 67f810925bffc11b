"""The browser profile a pool runs on: one of a few cached in the user's cache, kept warm.

`claim()` takes the first of `PROFILES` cached profiles (`browser-profile`, `browser-profile-2`,
...) that no other studio process holds (an exclusive, non-blocking `flock` on its `.lock`
file, held until `release`), so a window and a command line each find a warm one (V8's code
cache makes page start fast after the first runs); when all are held, a throwaway profile in
the temp folder, removed on `release`.
"""

from __future__ import annotations

import fcntl
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from studio.services.core import paths

__all__ = ["PROFILES", "ClaimedProfile", "claim"]

PROFILES = 3  # cached browser profiles, one per studio process running at once


@dataclass
class ClaimedProfile:
    """A profile folder held by this process until `release`."""

    path: Path
    lock: IO[str] | None = None  # the held lock of a cached profile
    temporary: bool = False  # a throwaway profile, removed on release

    def release(self) -> None:
        if self.lock is not None:
            self.lock.close()
            self.lock = None
        if self.temporary:
            shutil.rmtree(self.path, ignore_errors=True)
            self.temporary = False


def claim() -> ClaimedProfile:
    """The first cached profile no other studio process holds, else a throwaway one."""
    cache = paths.cache_dir()
    for i in range(PROFILES):
        name = "browser-profile" + (f"-{i + 1}" if i else "")
        shared = cache / name
        shared.mkdir(parents=True, exist_ok=True)
        lock = open(cache / f"{name}.lock", "w")  # noqa: SIM115
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            continue
        return ClaimedProfile(shared, lock)
    return ClaimedProfile(Path(tempfile.mkdtemp(prefix="studio-browser-")), temporary=True)

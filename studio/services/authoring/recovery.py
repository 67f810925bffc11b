"""Autosave of unsaved work, so a crash loses at most a few seconds of editing.

A `RecoveryStore` keeps drafts in `<folder>/drafts/<task id>/<kind>`, where kind is the file
the draft stands for ("initial.sb3", "golden.sb3", "evaluate.js", "task.json"). While the app
runs, `<folder>/session.lock` holds its pid: `mark_running` at start, `mark_clean_exit` at a
normal exit. At the next start `crashed_session()` is true when the lock is still there, its
process is gone and drafts exist: the app should offer to restore them, then discard them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from studio.services.authoring.errors import RecoveryError
from studio.services.core import atomic

__all__ = ["DRAFTS_DIR", "KINDS", "LOCK_FILE", "Draft", "RecoveryStore"]

DRAFTS_DIR = "drafts"
LOCK_FILE = "session.lock"
KINDS = ("task.json", "initial.sb3", "golden.sb3", "evaluate.js")
_PLAIN = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class Draft:
    """One autosaved file: the task, the file it stands for, where it is and when (UTC)."""

    task_id: str
    kind: str
    path: Path
    saved_at: datetime

    def read(self) -> bytes:
        return self.path.read_bytes()


def _plain(value: str, what: str) -> str:
    if not _PLAIN.fullmatch(value):
        raise RecoveryError(f"'{value}' is not a valid {what} for an autosave draft")
    return value


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    except OSError:
        return False
    return True


class RecoveryStore:
    """Autosave drafts and the running-session lock in one folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.drafts_dir = self.folder / DRAFTS_DIR
        self.lock_path = self.folder / LOCK_FILE

    def path(self, task_id: str, kind: str) -> Path:
        return self.drafts_dir / _plain(task_id, "task id") / _plain(kind, "file kind")

    def save(self, task_id: str, kind: str, data: bytes) -> Draft:
        """Write (atomically) the draft of one file of a task, replacing the previous one."""
        path = self.path(task_id, kind)
        atomic.write_bytes(path, data)
        return self._draft(path)

    def read(self, task_id: str, kind: str) -> bytes | None:
        path = self.path(task_id, kind)
        return path.read_bytes() if path.is_file() else None

    def drafts(self) -> list[Draft]:
        """Every draft, most recently saved first."""
        if not self.drafts_dir.is_dir():
            return []
        found = [
            self._draft(path)
            for task_dir in self.drafts_dir.iterdir()
            if task_dir.is_dir() and _PLAIN.fullmatch(task_dir.name)
            for path in task_dir.iterdir()
            if path.is_file() and _PLAIN.fullmatch(path.name)  # skips half-written temp files
        ]
        return sorted(found, key=lambda d: (d.saved_at, d.task_id, d.kind), reverse=True)

    def discard(self, task_id: str, kind: str | None = None) -> None:
        """Drop one draft of a task, or all of them when `kind` is None."""
        if kind is not None:
            self.path(task_id, kind).unlink(missing_ok=True)
        task_dir = self.drafts_dir / _plain(task_id, "task id")
        if task_dir.is_dir() and (kind is None or not any(task_dir.iterdir())):
            shutil.rmtree(task_dir)

    def discard_all(self) -> None:
        shutil.rmtree(self.drafts_dir, ignore_errors=True)

    def mark_running(self) -> None:
        """Record that this process is running (call at start, after `crashed_session`)."""
        started = datetime.now(UTC).isoformat()
        atomic.write_json(self.lock_path, {"pid": os.getpid(), "started": started})

    def mark_clean_exit(self) -> None:
        self.lock_path.unlink(missing_ok=True)

    def lock_pid(self) -> int | None:
        """The pid in the session lock; None without a lock, 0 for an unreadable one."""
        try:
            raw = json.loads(self.lock_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            return 0
        pid = raw.get("pid") if isinstance(raw, dict) else None
        return pid if isinstance(pid, int) and not isinstance(pid, bool) else 0

    def crashed_session(self) -> bool:
        """True when a previous session ended without `mark_clean_exit` and left drafts."""
        pid = self.lock_pid()
        if pid is None or (pid == os.getpid() or _pid_alive(pid)):
            return False
        return bool(self.drafts())

    def _draft(self, path: Path) -> Draft:
        saved = datetime.fromtimestamp(path.stat().st_mtime, UTC)
        return Draft(path.parent.name, path.name, path, saved)

"""The last adversarial check of a task, kept beside it as `last_check.json`.

The record carries a fingerprint of what the check judged: task.json without its `review` and
`metadata` fields (reviewing or re-deriving metadata does not change what is checked), the
initial, golden and negative projects, the evaluation script and a task-local helper library.
`is_fresh` compares it with the files as they are now, so the studio can say "files changed
since the last check". A missing or unreadable record reads as None, never as an error.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from studio.models.check import TaskCheck, Verdict
from studio.models.task import TASK_FILE
from studio.services.core import atomic
from studio.services.core.store import TaskFolder

__all__ = [
    "RECORD_FILE", "CheckRecord", "discard_check", "fingerprint", "is_fresh", "last_checks",
    "load_check", "save_check",
]  # fmt: skip

log = logging.getLogger("studio.authoring")

RECORD_FILE = "last_check.json"
_UNCHECKED_FIELDS = ("review", "metadata")


class CheckRecord(BaseModel):
    """A summary of one adversarial check and the fingerprint of the files it judged."""

    model_config = ConfigDict(extra="ignore")

    task_id: str
    verdict: Verdict
    ok: bool
    when: datetime
    seconds: float = 0.0
    golden_passed: bool | None = None
    initial_failed: bool | None = None
    mutants_total: int = 0
    mutants_killed: int = 0
    mutants_equivalent: int = 0
    survivors: list[str] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)
    fingerprint: str

    @classmethod
    def from_check(cls, check: TaskCheck, fingerprint: str, when: datetime) -> CheckRecord:
        return cls(
            task_id=check.id,
            verdict=check.verdict,
            ok=check.ok,
            when=when,
            seconds=check.seconds,
            golden_passed=check.golden_passed,
            initial_failed=check.initial_failed,
            mutants_total=check.mutants_total,
            mutants_killed=check.mutants_killed,
            mutants_equivalent=check.mutants_equivalent,
            survivors=[s.id for s in check.survivors],
            errors=list(check.errors),
            fingerprint=fingerprint,
        )


def _checked_files(raw: dict[str, Any]) -> list[str]:
    found = raw.get("evaluation")
    evaluation: dict[str, Any] = found if isinstance(found, dict) else {}
    names = [
        raw.get("initial_project", "initial.sb3"),
        raw.get("golden_project", "golden.sb3"),
        evaluation.get("script", "evaluate.js"),
        evaluation.get("helper_library"),
        *(raw.get("negative_projects") or []),
    ]
    return [n for n in names if isinstance(n, str) and n and "/" not in n and "\\" not in n]


def fingerprint(folder: Path) -> str:
    """sha256 over task.json (minus review and metadata) and the files the check uses."""
    folder = Path(folder)
    digest = hashlib.sha256()

    def part(label: str, data: bytes | None) -> None:
        size = b"missing" if data is None else str(len(data)).encode()
        digest.update(label.encode() + b"\0" + size + b"\0" + (data or b""))

    try:
        raw_bytes: bytes | None = (folder / TASK_FILE).read_bytes()
    except OSError:
        raw_bytes = None
    try:
        raw = json.loads(raw_bytes or b"")
    except (ValueError, RecursionError):  # load_task names the problem; here it only differs
        raw = None
    if isinstance(raw, dict):
        content = {k: v for k, v in raw.items() if k not in _UNCHECKED_FIELDS}
        part(TASK_FILE, json.dumps(content, sort_keys=True, separators=(",", ":")).encode())
        names = _checked_files(raw)
    else:
        part(TASK_FILE, raw_bytes)
        names = []
    for name in names:
        path = folder / name
        part(name, path.read_bytes() if path.is_file() else None)
    return digest.hexdigest()


def save_check(
    entry: TaskFolder,
    check: TaskCheck,
    now: datetime | None = None,
    started_fingerprint: str | None = None,
) -> CheckRecord:
    """Write the record of `check` beside the task (atomically) and return it.

    Pass `started_fingerprint` (`fingerprint(folder)` taken when the check started) so that
    files edited while the check ran leave the record stale; by default it is taken now.
    """
    when = (now or datetime.now(UTC)).astimezone(UTC)
    judged = started_fingerprint or fingerprint(entry.folder)
    record = CheckRecord.from_check(check, judged, when)
    atomic.write_json(entry.folder / RECORD_FILE, record.model_dump(mode="json"))
    return record


def load_check(entry: TaskFolder) -> CheckRecord | None:
    """The task's last check record; None when there is none or it cannot be read."""
    path = entry.folder / RECORD_FILE
    if not path.is_file():
        return None
    try:
        return CheckRecord.model_validate_json(path.read_bytes())
    except (OSError, ValidationError) as exc:
        log.warning("%s: ignoring an unreadable check record (%s)", path, exc)
        return None


def last_checks(entries: Iterable[TaskFolder]) -> dict[str, CheckRecord]:
    """The last check record of each task that has a readable one, by task id."""
    return {entry.task.id: record for entry in entries if (record := load_check(entry)) is not None}


def is_fresh(entry: TaskFolder, record: CheckRecord | None) -> bool:
    """True when `record` judged exactly the task's current files."""
    return record is not None and record.fingerprint == fingerprint(entry.folder)


def discard_check(entry: TaskFolder) -> None:
    """Remove the task's check record, if any."""
    (entry.folder / RECORD_FILE).unlink(missing_ok=True)

"""The recorded runs under a folder, one row each, for picking a run to open or compare.

A run is a folder holding a run header (`run.json`, see FORMATS.md). `list_runs(root)` looks
at `root`'s folders and their folders (a human session keeps one run per task inside its own
folder) and reads each header it finds; a header that cannot be read still gives a row, with
the problem in `problem` and what is unknown left empty, so a broken run is listed, not lost.
Rows come newest first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pydantic import ValidationError

from studio.models.trajectory import RUN_FILE, RunInfo

__all__ = ["SCAN_DEPTH", "RunRow", "list_runs"]

SCAN_DEPTH = 2  # root/run, root/session/run


@dataclass(frozen=True)
class RunRow:
    folder: Path
    agent: str = ""
    task: str = ""
    mode: str = ""
    verdict: str = ""  # PASS, FAIL, ERROR, or the episode's status when not evaluated
    steps: int = 0
    started: datetime | None = None
    problem: str = ""


def list_runs(root: Path) -> list[RunRow]:
    """Every run under `root` (up to two folders deep), newest first; [] if `root` is gone."""
    rows = [_row(header.parent) for header in _headers(Path(root), SCAN_DEPTH)]
    return sorted(rows, key=lambda r: r.started.timestamp() if r.started else 0.0, reverse=True)


def _headers(folder: Path, depth: int) -> list[Path]:
    found: list[Path] = []
    try:
        children = sorted(p for p in folder.iterdir() if p.is_dir())
    except OSError:
        return found
    for child in children:
        if (child / RUN_FILE).is_file():
            found.append(child / RUN_FILE)
        elif depth > 1:
            found += _headers(child, depth - 1)
    return found


def _row(folder: Path) -> RunRow:
    path = folder / RUN_FILE
    try:
        info = RunInfo.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        return RunRow(folder, problem=f"{path}: cannot be read ({exc})")
    except ValidationError as exc:
        first = exc.errors()[0] if exc.errors() else {"msg": str(exc), "loc": ()}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return RunRow(folder, problem=f"{path}: not a valid run header ({where}: {first['msg']})")
    return RunRow(
        folder=folder,
        agent=info.agent,
        task=info.task_id,
        mode=info.mode.value,
        verdict=_verdict(info),
        steps=info.steps,
        started=info.started_at,
    )


def _verdict(info: RunInfo) -> str:
    result = info.eval
    if result is None:
        return info.status.value
    if result.error is not None:
        return "ERROR"
    return f"{'PASS' if result.success else 'FAIL'} {result.passed_tests}/{result.total_tests}"

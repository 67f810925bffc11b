"""Writes trajectories to disk as an episode runs, so that a crash loses at most one step.

`steps.jsonl` is append-only: each step is one JSON line, flushed and fsynced before the step
returns. `run.json` is rewritten atomically whenever the header changes (status, end, verdict).
Screenshots and the final project are plain files beside them. The layout is described in
`studio.models.trajectory`; `read_trajectory` reads one back.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from studio.models.agent import Observation, ProgramChange, StepRecord
from studio.models.diff import ChangeKind, EditKind
from studio.models.errors import StudioError
from studio.models.trajectory import (
    FINAL_PROJECT,
    FINAL_SCREENSHOT,
    RUN_FILE,
    STEPS_FILE,
    RunInfo,
    observation_name,
    screenshot_name,
)
from studio.services.core import atomic
from studio.services.core.blocks import Project
from studio.services.core.diff import diff_projects

__all__ = ["Trajectory", "TrajectoryRecorder", "program_change", "read_trajectory"]


class TrajectoryRecorder:
    """Appends the steps of one episode to a trajectory folder."""

    def __init__(self, folder: Path, run: RunInfo) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.run = run
        self._end_torn_line()
        self.write_run()

    def _end_torn_line(self) -> None:
        """If a previous writer died mid-line, end that line so new steps start clean."""
        path = self.folder / STEPS_FILE
        if not path.is_file() or path.stat().st_size == 0:
            return
        with open(path, "rb+") as fh:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                fh.write(b"\n")

    def write_run(self) -> None:
        atomic.write_text(self.folder / RUN_FILE, self.run.model_dump_json(indent=2) + "\n")

    def screenshot_path(self, index: int) -> Path:
        return self.folder / screenshot_name(index)

    def write_screenshot(self, index: int, png: bytes) -> str:
        """Store the screenshot taken before step `index`; return its file name."""
        path = self.screenshot_path(index)
        path.write_bytes(png)
        return path.name

    def write_observation(self, index: int, observation: Observation) -> str:
        """Store the observation seen before step `index` (minus its screenshot)."""
        path = self.folder / observation_name(index)
        path.write_text(
            observation.model_dump_json(exclude={"screenshot_png_b64"}), encoding="utf-8"
        )
        return path.name

    def append(self, record: StepRecord) -> None:
        """Append one step line and make sure it is on disk before returning."""
        line = record.model_dump_json() + "\n"
        with open(self.folder / STEPS_FILE, "a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())

    def write_final(self, sb3: bytes | None = None, png: bytes | None = None) -> None:
        if sb3 is not None:
            atomic.write_bytes(self.folder / FINAL_PROJECT, sb3)
        if png is not None:
            atomic.write_bytes(self.folder / FINAL_SCREENSHOT, png)


@dataclass
class Trajectory:
    """A trajectory read back from disk."""

    folder: Path
    run: RunInfo
    steps: list[StepRecord]


def read_trajectory(folder: Path) -> Trajectory:
    """Read run.json and steps.jsonl; a torn last line (a crash mid-write) is ignored."""
    folder = Path(folder)
    try:
        run = RunInfo.model_validate_json((folder / RUN_FILE).read_text(encoding="utf-8"))
    except OSError as exc:
        raise StudioError(f"{folder / RUN_FILE}: cannot be read ({exc})") from None
    except ValueError as exc:
        raise StudioError(f"{folder / RUN_FILE}: not a valid run header ({exc})") from None
    steps: list[StepRecord] = []
    path = folder / STEPS_FILE
    lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            steps.append(StepRecord.model_validate_json(line))
        except ValueError as exc:
            if number == len(lines):
                break  # the step in flight when the writer died
            raise StudioError(f"{path}: line {number} is not a step ({exc})") from None
    return Trajectory(folder, run, steps)


def program_change(before: Project | None, after: Project | None) -> ProgramChange:
    """What changed in the program between two project.json states (VM level)."""
    if before is None or after is None:
        return ProgramChange()
    change = ProgramChange()
    for edit in diff_projects(before, after).edits:
        label = f"{edit.sprite}: {edit.text or edit.opcode}"
        if edit.kind is EditKind.ADD:
            change.added.append(label)
        elif edit.kind is EditKind.REMOVE:
            change.removed.append(label)
        else:
            kinds = {c.kind for c in edit.changes}
            if ChangeKind.MOVED in kinds:
                change.moved.append(label)
            details = [str(c) for c in edit.changes if c.kind is not ChangeKind.MOVED]
            if details:
                change.fields_changed.append(f"{label} ({'; '.join(details)})")
    return change

"""What the viewer shows of one step, from a live episode or from a trajectory on disk.

`ViewerStep` is the same for both: the step record, where its screenshot is (bytes in memory
for a live step, a file for a recorded one), a loader for the observation the actor had, the
flags (failed, no_op, repeated) and what is missing on disk.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from studio.models.agent import Element, Observation, StepRecord

FLAG_FAILED = "failed"
FLAG_NO_OP = "no_op"
FLAG_REPEATED = "repeated"
ENDING_APIS = {"done", "failed"}


@dataclass
class ViewerStep:
    record: StepRecord
    screenshot_path: Path | None = None
    png: bytes | None = None
    load_observation: Callable[[], Observation | None] | None = None
    flags: set[str] = field(default_factory=set)
    missing: list[str] = field(default_factory=list)
    _observation: Observation | None = None
    _loaded: bool = False

    @property
    def index(self) -> int:
        return self.record.index

    @property
    def api(self) -> str:
        return str(self.record.action.get("api", "?"))

    def observation(self) -> Observation | None:
        if not self._loaded:
            self._loaded = True
            if self.load_observation is not None:
                self._observation = self.load_observation()
        return self._observation

    def screenshot_bytes(self) -> bytes | None:
        if self.png is not None:
            return self.png
        if self.screenshot_path is not None:
            try:
                return self.screenshot_path.read_bytes()
            except OSError:
                return None
        return None

    def digest(self) -> str | None:
        data = self.screenshot_bytes()
        return hashlib.sha1(data).hexdigest() if data is not None else None


def same_action(a: StepRecord, b: StepRecord) -> bool:
    return a.action == b.action


def flag_live(steps: list[ViewerStep], new: ViewerStep) -> None:
    """Flags of a step that just arrived (and the no-op flag of the one before it)."""
    if not new.record.ok:
        new.flags.add(FLAG_FAILED)
    if steps and same_action(steps[-1].record, new.record) and new.api not in ENDING_APIS:
        new.flags.add(FLAG_REPEATED)
    if steps:
        previous = steps[-1]
        after = new.digest()
        if _unchanged(previous) and after is not None and previous.digest() == after:
            previous.flags.add(FLAG_NO_OP)


def _unchanged(step: ViewerStep) -> bool:
    return step.record.ok and step.api not in ENDING_APIS and step.record.change.empty


def hit_element(elements: list[Element], x: float, y: float) -> Element | None:
    """The smallest element whose box holds the point (what a press there would hit)."""
    inside = [e for e in elements if e.x <= x <= e.x + e.w and e.y <= y <= e.y + e.h]
    return min(inside, key=lambda e: e.w * e.h) if inside else None

"""A trajectory folder read for viewing: whatever is there, and marks for whatever is not.

Unlike `studio.services.episodes.recorder.read_trajectory` (which refuses a broken trajectory),
`load_view` never fails on the content of a folder: an unreadable `run.json`, a torn or invalid
line of `steps.jsonl`, a missing screenshot or an invalid `obs_NNNN.json` each become a line in
`TrajectoryView.problems` (naming the file, and the line number for steps) or an entry in a
step's `missing` list, and everything else still loads. Each step also gets flags that help a
reader skim a long run: "failed", "repeated" and "no_op". A folder that is a benchmark runner's
own (a ScratchWorld task or drag run) is read by that format's reader (`runs.result_readers`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from studio.models.agent import Mode, Observation, StepRecord
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
from studio.services.core.untrusted_json import JsonInputError, read_json
from studio.services.runs.result_readers import folder_readers
from studio.services.runs.trajectories.geometry import ActionGeometry, action_point

__all__ = [
    "ARCHIVE_INFO", "TERMINAL_APIS", "ActionGeometry", "StepView", "TrajectoryView", "action_point",
    "load_view", "same_action", "set_flags",
]  # fmt: skip

ARCHIVE_INFO = "archive.json"  # written by `archive.open_archive` beside an extracted run
TERMINAL_APIS = ("done", "failed")
_VIEW_STATE_APIS = ("select_sprite", "select_stage")  # change the view, not the program


@dataclass
class StepView:
    """One recorded step with its files resolved and its flags computed."""

    record: StepRecord
    screenshot: Path | None
    observation_path: Path | None
    missing: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    line: int = 0  # line number in steps.jsonl
    _problems: list[str] = field(default_factory=list, repr=False)
    _observation: Observation | None = field(default=None, repr=False)
    _observation_read: bool = field(default=False, repr=False)

    @property
    def index(self) -> int:
        return self.record.index

    def observation(self) -> Observation | None:
        """The observation seen before this step (read on first use); None if absent or bad."""
        if self._observation_read:
            return self._observation
        self._observation_read = True
        if self.observation_path is None:
            return None
        try:
            text = self.observation_path.read_text(encoding="utf-8")
            self._observation = Observation.model_validate_json(text)
        except (OSError, UnicodeDecodeError) as exc:
            self._problems.append(f"{self.observation_path}: cannot be read ({exc})")
        except ValidationError as exc:
            self._problems.append(f"{self.observation_path}: {_first_error(exc)}")
        return self._observation

    def geometry(self) -> ActionGeometry:
        """Where this step's action acted, resolved against its observation."""
        return action_point(self.record, self.observation())


@dataclass
class TrajectoryView:
    """A trajectory as far as it could be read; `problems` lists what could not."""

    folder: Path
    run: RunInfo | None
    steps: list[StepView]
    final_png: Path | None
    final_sb3: Path | None
    missing: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def mode(self) -> Mode | None:
        return self.run.mode if self.run else None

    def step(self, index: int) -> StepView | None:
        """The step with record index `index`, if it was read."""
        for step in self.steps:
            if step.index == index:
                return step
        return None


def load_view(folder: Path) -> TrajectoryView:
    """Read a trajectory folder for viewing; StudioError only if it is not one at all."""
    folder = Path(folder)
    if not folder.is_dir():
        raise StudioError(f"{folder}: is not a folder")
    if not (folder / RUN_FILE).exists() and not (folder / STEPS_FILE).exists():
        for reader in folder_readers():  # a runner's folder (ScratchWorld's task or drag runner)
            found = reader.view(folder)
            if isinstance(found, TrajectoryView):
                return found
        epochs = sorted(p.name for p in folder.glob("epoch-*") if (p / RUN_FILE).is_file())
        if epochs:  # a task of a campaign with epochs: one trajectory per epoch
            shown = ", ".join(epochs[:4]) + (" ..." if len(epochs) > 4 else "")
            raise StudioError(
                f"{folder}: holds one trajectory per epoch ({shown}); show one of them, e.g. "
                f"{folder / epochs[0]}"
            )
        raise StudioError(f"{folder}: is not a trajectory folder (no {RUN_FILE}, no {STEPS_FILE})")
    problems: list[str] = []
    run = _read_run(folder, problems)
    records = _read_steps(folder, problems)
    steps = [_step_view(folder, record, line, problems) for line, record in records]
    final_png = _existing(folder / FINAL_SCREENSHOT)
    final_sb3 = _existing(folder / FINAL_PROJECT)
    missing = [f"{what} {name}" for what, name, path in _finals(final_png, final_sb3) if not path]
    view = TrajectoryView(folder, run, steps, final_png, final_sb3, missing, problems)
    _archive_problems(folder, problems)
    set_flags(view)
    return view


def _finals(png: Path | None, sb3: Path | None) -> list[tuple[str, str, Path | None]]:
    return [("final screenshot", FINAL_SCREENSHOT, png), ("final project", FINAL_PROJECT, sb3)]


def _read_run(folder: Path, problems: list[str]) -> RunInfo | None:
    path = folder / RUN_FILE
    try:
        return RunInfo.model_validate_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        problems.append(f"{path}: missing (no run header: task, agent and verdict unknown)")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(f"{path}: cannot be read ({exc})")
    except ValidationError as exc:
        problems.append(f"{path}: not a valid run header: {_first_error(exc)}")
    return None


def _read_steps(folder: Path, problems: list[str]) -> list[tuple[int, StepRecord]]:
    path = folder / STEPS_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        problems.append(f"{path}: missing (no steps recorded)")
        return []
    except OSError as exc:
        problems.append(f"{path}: cannot be read ({exc})")
        return []
    lines = data.decode("utf-8", errors="replace").split("\n")
    records: list[tuple[int, StepRecord]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append((number, StepRecord.model_validate_json(line)))
        except ValidationError as exc:
            torn = number == len(lines) and not data.endswith(b"\n")
            kind = "truncated (the writer stopped mid-line)" if torn else "not a step"
            problems.append(f"{path}: line {number} {kind}; skipped ({_first_error(exc)})")
    return records


def _step_view(folder: Path, record: StepRecord, line: int, problems: list[str]) -> StepView:
    missing: list[str] = []
    name = Path(record.screenshot).name if record.screenshot else screenshot_name(record.index)
    shot = _existing(folder / name)
    if shot is None:
        missing.append(f"screenshot {name}")
    obs = _existing(folder / observation_name(record.index))
    return StepView(record, shot, obs, missing, line=line, _problems=problems)


def _archive_problems(folder: Path, problems: list[str]) -> None:
    """Problems found when this folder was extracted from an archive (hash mismatches...)."""
    path = folder / ARCHIVE_INFO
    if not path.is_file():
        return
    try:
        info: Any = read_json(path)
    except JsonInputError as exc:
        problems.append(f"{path}: cannot be read ({exc.problem})")
        return
    found = info.get("problems") if isinstance(info, dict) else None
    if isinstance(found, list):
        problems.extend(str(p) for p in found)


# ---- flags ---------------------------------------------------------------------------------
def same_action(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """True when two actions have the same api and the same arguments."""
    return bool(a.get("api") == b.get("api") and (a.get("args") or {}) == (b.get("args") or {}))


def set_flags(view: TrajectoryView) -> None:
    """Mark each step "failed" (not ok), "repeated" (the previous step's action again) and
    "no_op" (`_is_no_op`)."""
    steps = view.steps
    for i, step in enumerate(steps):
        if not step.record.ok:
            step.flags.add("failed")
        if i > 0 and same_action(steps[i - 1].record.action, step.record.action):
            step.flags.add("repeated")
        following = steps[i + 1] if i + 1 < len(steps) else None
        if _is_no_op(view, step, following):
            step.flags.add("no_op")


def _is_no_op(view: TrajectoryView, step: StepView, following: StepView | None) -> bool:
    """Ok, not terminal, no program change, and nothing looked different afterwards.

    The evidence: the next screenshot (or final.png) byte-identical to this step's; in
    composite mode also the next observation equal to this one. Composite steps without any
    evidence count as no-ops when they changed no program and did not select a target.
    """
    record = step.record
    api = record.action.get("api")
    if not record.ok or api in TERMINAL_APIS or not record.change.empty:
        return False
    after = following.screenshot if following is not None else view.final_png
    shots_same = _same_bytes(step.screenshot, after) if step.screenshot and after else None
    if view.mode is not Mode.COMPOSITE:
        return shots_same is True
    if following is not None and step.observation_path and following.observation_path:
        return _same_observation(step, following) or shots_same is True
    if shots_same is not None:
        return shots_same
    return api not in _VIEW_STATE_APIS


def _same_observation(a: StepView, b: StepView) -> bool:
    first, second = a.observation(), b.observation()
    if first is None or second is None:
        return False
    ignore = {"step", "screenshot_png_b64"}
    return first.model_dump(exclude=ignore) == second.model_dump(exclude=ignore)


def _same_bytes(a: Path, b: Path) -> bool:
    try:
        return a.stat().st_size == b.stat().st_size and a.read_bytes() == b.read_bytes()
    except OSError:
        return False


def _existing(path: Path) -> Path | None:
    return path if path.is_file() else None


def _first_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return f"field '{where}': {first['msg']}" if where else str(first["msg"])

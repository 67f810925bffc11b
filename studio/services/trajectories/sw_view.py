"""A task folder of ScratchWorld's published task runner, read as a trajectory for viewing.

`result_<model>_<mode>_<agent>/<category>/<task>/` holds `result.json` (the verdict),
`interaction_log_<session>.json` (per turn: the action, the result envelope, the screenshot
path, the observation without image data, the model's reply) and `screenshots/`. Each turn
becomes a step: the action executed (else the one requested), `ok` and `error` from the
envelope, the reasoning from the model's reply, the screenshot found by its path (the runner
wrote absolute paths of its own machine: the last parts are looked up in the task folder).
A missing screenshot is a step's `missing` entry; a torn result.json or log, a missing
recording, each a problem line naming the file; the rest still loads.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.agent import StepRecord
from studio.models.trajectory import RUN_FILE, STEPS_FILE
from studio.services.scratchworld.results import (
    LOG_PREFIX,
    RESULT_FILE,
    ResultFolder,
    classify,
    read_log,
    read_task,
    resolve,
    turn_screenshot,
)
from studio.services.trajectories.view import StepView, TrajectoryView

_REPLY_KEYS = ("model_response", "reasoning", "thought", "response", "model_output")


def is_sw_task_folder(folder: Path) -> bool:
    """A task runner's task folder (and not a studio trajectory)."""
    if (folder / RUN_FILE).exists() or (folder / STEPS_FILE).exists():
        return False
    return (folder / RESULT_FILE).is_file() or any(folder.glob(f"{LOG_PREFIX}*.json"))


def _result_folder(task: Path) -> ResultFolder:
    found = classify(task.parent.parent)
    if found is not None and found.kind == "task":
        return found
    return ResultFolder(task.parent.parent, "task", "unknown", "primitive", "scratchworld")


def load_sw_view(folder: Path) -> TrajectoryView:
    """The task folder as a TrajectoryView (flags are set by the caller, `load_view`)."""
    folder = Path(folder)
    result = read_task(folder, _result_folder(folder))
    problems = list(result.problems)
    turns = read_log(result.log, []) if result.log is not None else []
    if result.log is None:
        problems.append(f"{folder}: no {LOG_PREFIX}<session>.json (no steps recorded)")
    steps = [_step(folder, n, turn, problems) for n, turn in enumerate(turns, 1)]
    final_sb3 = None
    if result.run is not None and result.run.eval is not None and result.run.eval.project:
        candidate = folder / Path(result.run.eval.project).name
        final_sb3 = candidate if candidate.is_file() else None
    return TrajectoryView(folder, result.run, steps, None, final_sb3, [], problems)


def _step(folder: Path, n: int, turn: dict[str, Any], problems: list[str]) -> StepView:
    envelope = turn.get("result") if isinstance(turn.get("result"), dict) else {}
    assert isinstance(envelope, dict)
    action = _action(turn, envelope)
    error = envelope.get("error")
    message = error.get("message") if isinstance(error, dict) else error
    ok = envelope.get("success")
    shot = turn_screenshot(turn)
    path = resolve(folder, shot) if shot else None
    record = StepRecord(
        index=int(turn["turn"]) if isinstance(turn.get("turn"), int) else n,
        at=_at(turn.get("timestamp")),
        action=action,
        reasoning=next((str(turn[k]) for k in _REPLY_KEYS if isinstance(turn.get(k), str)), ""),
        ok=ok is not False,
        error=str(message) if message else None,
        screenshot=path.name if path is not None else None,
    )
    present = path if path is not None and path.is_file() else None
    missing = [] if present else [f"screenshot {Path(shot).name if shot else '(none named)'}"]
    return StepView(record, present, None, missing, line=n, _problems=problems)


def _action(turn: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    for candidate in (
        envelope.get("executed_action"),
        turn.get("executed_action"),
        turn.get("action"),
        turn.get("requested_action"),
        envelope.get("requested_action"),
    ):
        if isinstance(candidate, dict) and "api" in candidate:
            return {"api": candidate["api"], "args": candidate.get("args") or {}}
    return {"api": "unknown", "args": {}}


def _at(value: Any) -> datetime:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(float(value), UTC)
    if isinstance(value, str):
        try:
            when = datetime.fromisoformat(value.replace("Z", "+00:00"))
            return when if when.tzinfo else when.replace(tzinfo=UTC)
        except ValueError:
            pass
    return datetime.fromtimestamp(0, UTC)

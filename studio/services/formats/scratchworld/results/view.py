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

from studio.models.agent import EpisodeStatus, Mode, StepRecord
from studio.models.evaluation import EvalResult, TestDetail
from studio.models.trajectory import RUN_FILE, STEPS_FILE, RunInfo
from studio.services.formats.scratchworld.results.folders import (
    LOG_PREFIX,
    RESULT_FILE,
    ResultFolder,
    classify,
    read_json,
    read_log,
    read_task,
    resolve,
    turn_screenshot,
)
from studio.services.runs.trajectories.view import StepView, TrajectoryView

__all__ = [
    "DRAG_AFTER", "DRAG_BEFORE", "is_sw_drag_run", "is_sw_task_folder", "load_sw_drag_view",
    "load_sw_view",
]  # fmt: skip

DRAG_BEFORE, DRAG_AFTER = "1.png", "2.png"
_REPLY_KEYS = ("model_response", "reasoning", "thought", "response", "model_output")


def is_sw_task_folder(folder: Path) -> bool:
    """A task runner's task folder (and not a studio trajectory, nor a drag run)."""
    if (folder / RUN_FILE).exists() or (folder / STEPS_FILE).exists() or is_sw_drag_run(folder):
        return False
    return (folder / RESULT_FILE).is_file() or any(folder.glob(f"{LOG_PREFIX}*.json"))


def is_sw_drag_run(folder: Path) -> bool:
    """A drag runner's `<id>/<run>/` folder (inside `result_single_step_drag_benchmark_*`)."""
    outer = classify(folder.parent.parent)
    return outer is not None and outer.kind == "drag" and (folder / RESULT_FILE).is_file()


def load_sw_drag_view(folder: Path) -> TrajectoryView:
    """A drag run as a one-step trajectory: the drag drawn on `1.png` (before), `2.png` (after)
    as the final screen, the VM check as its one test."""
    folder = Path(folder)
    problems: list[str] = []
    data = read_json(folder / RESULT_FILE, problems)
    if not isinstance(data, dict):
        return TrajectoryView(folder, None, [], None, None, [], problems)
    outer = classify(folder.parent.parent)
    item = str(data.get("task_id") or folder.parent.name)
    when = _at(data.get("timestamp"))
    check = data.get("evaluation_result") if isinstance(data.get("evaluation_result"), dict) else {}
    assert isinstance(check, dict)
    success = data.get("success") is True
    reason = str(check.get("reason") or check.get("message") or "the intended connection exists")
    run = RunInfo(
        episode_id=f"{item}/{folder.name}",
        task_id=item,
        mode=Mode.PRIMITIVE,
        agent=outer.model if outer is not None else "unknown",
        started_at=when,
        ended_at=when,
        status=EpisodeStatus.DONE,
        steps=1,
        eval=EvalResult(
            task_id=item, project=str(data.get("exported_file") or ""), success=success,
            passed_tests=int(success), total_tests=1, partial_success_rate=float(success),
            details=[TestDetail(name=reason, passed=success)],
        ),
        meta={"category": item.split("_", 1)[0], "source": "scratchworld drag runner"},
    )  # fmt: skip
    executed = data.get("execution_result")
    ok = not (isinstance(executed, dict) and executed.get("success") is False)
    raw = data.get("action")
    action = {"api": raw.get("api"), "args": raw.get("args") or {}} if isinstance(raw, dict) else {}
    record = StepRecord(
        index=1, at=when, action=action or {"api": "unknown", "args": {}},
        reasoning=str(data.get("instruction") or ""), ok=ok, screenshot=DRAG_BEFORE,
    )  # fmt: skip
    before = folder / DRAG_BEFORE
    shot = before if before.is_file() else None
    missing = [] if shot else [f"screenshot {DRAG_BEFORE}"]
    step = StepView(record, shot, None, missing, line=1, _problems=problems)
    after = folder / DRAG_AFTER
    lost = [] if after.is_file() else [f"final screenshot {DRAG_AFTER}"]
    return TrajectoryView(
        folder, run, [step], after if after.is_file() else None, None, lost, problems
    )


def _result_folder(task: Path) -> ResultFolder:
    found = classify(task.parent.parent)
    if found is not None and found.kind == "task":
        return found
    return ResultFolder(task.parent.parent, "task", "unknown", "primitive", "scratchworld")


def load_sw_view(folder: Path) -> TrajectoryView:
    """The task folder as a TrajectoryView (flags are set by the caller, `reader`)."""
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

"""A campaign as a ScratchWorld leaderboard submission: one JSONL row per episode.

The published format (../shared/SCRATCHWORLD_API.md section 13), row for row:

    {"take": <task name>, "type": <category>, "mode": "primitive" | "composite",
     "interactions": [{"turn": N, "action": {"api": ..., "args": {...}}}, ...],
     "source_interaction_log": <path>, "source_task_dir": <path>}

From a studio run: `take` is the task id, `type` its category (as `studio report` finds it),
`mode` the run's, `source_interaction_log` the episode's steps.jsonl and `source_task_dir` the
episode's folder. The interactions are the steps that acted on the editor, by turn (the step
index), each as executed, in the published server's terms:
- primitive actions given by element `index` (click, double_click, scroll; a drag's
  `start_index`/`end_index`) are grounded to the pixel the studio acted at (the element's
  centre in the observation the actor saw, `trajectories.geometry.action_point`), as the
  published converter grounds them; coordinates are whole pixels (the published server
  refuses fractions); a scroll's `amount` is in wheel pixels (the studio counts notches of
  `WHEEL_PX`); a click's button defaults to "left";
- composite actions keep their api and args (the studio takes the published schema);
- `done` and `failed` end an episode and act on nothing: they are not interactions, and an
  action the studio could not even read (no api) is left out, as the published converter
  leaves out a turn without an action.
A row whose episode has no interaction is still written (an agent that did nothing).

One file is one model in one mode: runs of several agents or modes below RUNS are refused by
name, and so are several episodes of one task (epochs) unless `epoch` picks one.
`read_submission` reads a file back, checking every row against the format.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from studio.models.agent import COMPOSITE_APIS, PRIMITIVE_APIS, Observation
from studio.models.errors import StudioError
from studio.models.trajectory import STEPS_FILE, observation_name
from studio.services.core import atomic
from studio.services.episodes.recorder import read_trajectory
from studio.services.runs.reports import load_runs
from studio.services.runs.trajectories.geometry import action_point

__all__ = [
    "ROW_KEYS", "WHEEL_PX", "SubmissionError", "episode_row", "read_submission",
    "submission_rows", "write_submission",
]  # fmt: skip

ROW_KEYS = ("take", "type", "mode", "interactions", "source_interaction_log", "source_task_dir")
WHEEL_PX = 100  # one studio scroll unit is one wheel notch of 100 px
TERMINAL = ("done", "failed")
_COORDINATES = ("x", "y", "start_x", "start_y", "end_x", "end_y")
_PUBLISHED_PRIMITIVE = (
    "click", "double_click", "move_to", "drag_and_drop", "scroll", "type", "key", "hold_key",
    "release_key", "hotkey",
)  # fmt: skip


class SubmissionError(StudioError):
    """RUNS cannot be one submission, or a submission file breaks the format (named)."""


def _px(value: Any) -> int:
    return round(float(value))


def _observation(folder: Path, index: int) -> Observation | None:
    try:
        text = (folder / observation_name(index)).read_text(encoding="utf-8")
        return Observation.model_validate_json(text)
    except (OSError, ValueError):
        return None


def _primitive(action: dict[str, Any], folder: Path, index: int) -> dict[str, Any] | None:
    api = action.get("api")
    args = action.get("args") or {}
    if api not in PRIMITIVE_APIS or api in TERMINAL or not isinstance(args, dict):
        return None
    if api == "stroke":
        raise SubmissionError(
            f"{folder / STEPS_FILE}: step {index} is a stroke, which the published action "
            "schema has no counterpart for: a run with strokes cannot be a submission"
        )
    geo = action_point(action, _observation(folder, index))
    out: dict[str, Any] = {}
    if api in ("click", "double_click"):
        if not geo.points:
            return {"api": api, "args": dict(args)}  # ungroundable: as requested
        out = {"x": _px(geo.points[0][0]), "y": _px(geo.points[0][1])}
        out["button"] = args.get("button") or "left"
    elif api == "drag_and_drop":
        if len(geo.points) < 2:
            return {"api": api, "args": dict(args)}
        (sx, sy), (ex, ey) = geo.points[0], geo.points[1]
        out = {"start_x": _px(sx), "start_y": _px(sy), "end_x": _px(ex), "end_y": _px(ey)}
        if args.get("duration") is not None:
            out["duration"] = args["duration"]
    elif api == "scroll":
        out = {"direction": args.get("direction")}
        out["amount"] = _px(float(args.get("amount", 3)) * WHEEL_PX)
        if geo.points:
            out["x"], out["y"] = _px(geo.points[0][0]), _px(geo.points[0][1])
    else:  # type, key, hotkey: as given
        out = dict(args)
    return {"api": api, "args": out}


def _composite(action: dict[str, Any]) -> dict[str, Any] | None:
    api = action.get("api")
    args = action.get("args")
    if api not in COMPOSITE_APIS or api in TERMINAL:
        return None
    return {"api": api, "args": dict(args) if isinstance(args, dict) else {}}


def episode_row(folder: Path, category: str) -> dict[str, Any]:
    """The submission row of the episode recorded in `folder`."""
    trajectory = read_trajectory(folder)
    run = trajectory.run
    interactions = []
    for step in sorted(trajectory.steps, key=lambda s: s.index):
        if run.mode.value == "primitive":
            action = _primitive(step.action, folder, step.index)
        else:
            action = _composite(step.action)
        if action is not None:
            interactions.append({"turn": step.index, "action": action})
    return {
        "take": run.task_id,
        "type": category,
        "mode": run.mode.value,
        "interactions": interactions,
        "source_interaction_log": str(folder / STEPS_FILE),
        "source_task_dir": str(folder),
    }


def submission_rows(runs: Path, epoch: int | None = None) -> list[dict[str, Any]]:
    """The rows of every episode below `runs` (one agent, one mode; see the module doc)."""
    entries, problems = load_runs(runs)
    if not entries:
        detail = f": {problems[0]}" if problems else ""
        raise SubmissionError(f"{runs}: no finished runs (run.json files) below it{detail}")
    kinds = sorted({(e.agent, e.mode) for e in entries})
    if len(kinds) > 1:
        named = "; ".join(f"{agent} {mode}" for agent, mode in kinds)
        raise SubmissionError(
            f"{runs}: holds runs of {len(kinds)} agents or modes ({named}); a submission is one "
            "model in one mode: give one campaign's folder"
        )
    by_task: dict[str, list[Any]] = defaultdict(list)
    for entry in entries:
        if epoch is None or (entry.epoch or 1) == epoch:
            by_task[entry.task_id].append(entry)
    if not by_task:
        raise SubmissionError(f"{runs}: no episode of epoch {epoch}")
    rows = []
    for task_id, group in sorted(by_task.items()):
        if len(group) > 1:
            raise SubmissionError(
                f"{runs}: task '{task_id}' has {len(group)} episodes (epochs or repeated "
                "runs); a submission has one per task: pick one with --epoch N"
            )
        rows.append(episode_row(Path(group[0].folder), group[0].category))
    return rows


def write_submission(runs: Path, out: Path, epoch: int | None = None) -> list[dict[str, Any]]:
    """Write the rows of `runs` to `out` as JSON lines (atomically); the rows."""
    rows = submission_rows(runs, epoch)
    atomic.write_text(out, "".join(json.dumps(row) + "\n" for row in rows))
    return rows


def read_submission(path: Path) -> list[dict[str, Any]]:
    """The rows of a submission file; SubmissionError naming the line and the problem."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SubmissionError(f"{path}: cannot be read ({exc})") from None
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise SubmissionError(f"{path}: line {number}: not JSON ({exc})") from None
        problem = _row_problem(row)
        if problem:
            raise SubmissionError(f"{path}: line {number}: {problem}")
        rows.append(row)
    return rows


def _row_problem(row: Any) -> str:
    if not isinstance(row, dict) or tuple(row) != ROW_KEYS:
        keys = list(row) if isinstance(row, dict) else type(row).__name__
        return f"the row's keys are {keys}, the format's {list(ROW_KEYS)}"
    for key in ("take", "type", "source_interaction_log", "source_task_dir"):
        if not isinstance(row[key], str):
            return f"'{key}' is not a string"
    if row["mode"] not in ("primitive", "composite"):
        return f"mode '{row['mode']}' is neither primitive nor composite"
    if not isinstance(row["interactions"], list):
        return "'interactions' is not a list"
    allowed = _PUBLISHED_PRIMITIVE if row["mode"] == "primitive" else COMPOSITE_APIS
    turns = []
    for n, item in enumerate(row["interactions"], 1):
        if not isinstance(item, dict) or set(item) != {"turn", "action"}:
            return f"interaction {n} is not {{turn, action}}"
        action = item["action"]
        if not isinstance(item["turn"], int) or not isinstance(action, dict):
            return f"interaction {n}: turn is not a number or action not an object"
        if set(action) != {"api", "args"} or not isinstance(action["args"], dict):
            return f"interaction {n}: the action is not {{api, args}}"
        if action["api"] not in allowed or action["api"] in TERMINAL:
            return f"interaction {n}: '{action['api']}' is not a {row['mode']} action"
        for key in _COORDINATES:
            value = action["args"].get(key)
            if value is not None and not isinstance(value, int):
                return f"interaction {n}: {key} {value!r} is not a whole pixel"
        turns.append(item["turn"])
    if turns != sorted(turns):
        return "interactions are not sorted by turn"
    return ""

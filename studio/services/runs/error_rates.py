"""Action error rates in `studio report`, as MageBench reads failures: per agent and mode, the
share of steps whose action was invalid and the share that repeated the step before.

From each episode's steps.jsonl (runs without one, such as the published runners' folders,
add nothing):
- an *invalid* action is a step the environment refused (`ok` false: an action that could not
  be read, or could not be done in the editor's state: an index that does not exist, a point
  off the screen, a stale composite block number, no element list);
- a *repeated* action is a step whose action (api and args) equals the one of the step just
  before it in the same episode.
Both are counted over all steps of a row's episodes (`done` and `failed` included), and shown
with their counts: `invalid 12.50% (3/24 steps)`.

Every evaluation of an episode is recorded in its run.json (`meta.evaluations`: when, after
which step, tests passed); an episode evaluated more than once got feedback it may have used
(a client of the ScratchWorld-compatible routes calling evaluate mid-episode): the row counts
such episodes (`evaluated_more_than_once`) and the text flags them.

Where the report holds the oracle's runs in the same mode (and under the same protocol label),
each other row also gets `steps_vs_oracle`: the mean over the tasks both played of the row's
mean steps per episode divided by the oracle's (run.json `steps`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from studio.models.report import RunEntry, RunReport
from studio.models.trajectory import RUN_FILE, STEPS_FILE

__all__ = ["attach_error_rates", "episode_counts", "error_rate_lines", "evaluation_count"]


def _run(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((Path(folder) / RUN_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def evaluation_count(folder: Path) -> int:
    """How many times the episode in `folder` was evaluated (run.json `meta.evaluations`)."""
    meta = _run(folder).get("meta")
    found = meta.get("evaluations") if isinstance(meta, dict) else None
    return len(found) if isinstance(found, list) else 0


def _task_steps(entries: list[RunEntry]) -> dict[str, float]:
    """Mean steps per episode of each task (episodes whose run.json gives them)."""
    by_task: dict[str, list[int]] = {}
    for entry in entries:
        steps = _run(Path(entry.folder)).get("steps") if entry.folder else None
        if isinstance(steps, int) and not isinstance(steps, bool):
            by_task.setdefault(entry.task_id, []).append(steps)
    return {task: sum(v) / len(v) for task, v in by_task.items()}


def episode_counts(folder: Path) -> tuple[int, int, int]:
    """(steps, invalid, repeated) of the episode recorded in `folder`; (0, 0, 0) without
    steps. A line that is not a step (a torn last line) is passed over."""
    try:
        lines = (Path(folder) / STEPS_FILE).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return 0, 0, 0
    steps = invalid = repeated = 0
    previous: Any = None
    for line in lines:
        try:
            step = json.loads(line)
        except ValueError:
            continue
        if not isinstance(step, dict):
            continue
        action = step.get("action")
        steps += 1
        invalid += step.get("ok") is False
        repeated += previous is not None and action == previous
        previous = action
    return steps, invalid, repeated


def attach_error_rates(report: RunReport, entries: list[RunEntry]) -> None:
    """Set each row's `error_rates` ({steps, invalid, repeated, invalid_rate, repeated_rate})
    from its episodes' steps; rows whose episodes have no steps get none."""
    mean_steps = {
        (row.agent, row.mode): _task_steps(
            [e for e in entries if (e.agent, e.mode) == (row.agent, row.mode)]
        )
        for row in report.rows
    }
    for row in report.rows:
        steps = invalid = repeated = again = 0
        for entry in entries:
            if (entry.agent, entry.mode) == (row.agent, row.mode) and entry.folder:
                s, i, r = episode_counts(Path(entry.folder))
                steps, invalid, repeated = steps + s, invalid + i, repeated + r
                again += evaluation_count(Path(entry.folder)) > 1
        if steps or again:
            row.error_rates = {
                "steps": steps,
                "invalid": invalid,
                "repeated": repeated,
                "invalid_rate": invalid / steps if steps else 0.0,
                "repeated_rate": repeated / steps if steps else 0.0,
                "evaluated_more_than_once": again,
            }
        ratio = _vs_oracle(row.agent, row.mode, mean_steps)
        if ratio is not None and row.error_rates:
            row.error_rates["steps_vs_oracle"], row.error_rates["oracle_tasks"] = ratio


def _vs_oracle(
    agent: str, mode: str, mean_steps: dict[tuple[str, str], dict[str, float]]
) -> tuple[float, int] | None:
    """(mean of the row's steps / the oracle's over shared tasks, how many tasks)."""
    name, _, label = agent.partition(" [")
    if name == "oracle":
        return None
    oracle = mean_steps.get(("oracle" + (" [" + label if label else ""), mode))
    mine = mean_steps.get((agent, mode), {})
    if not oracle:
        return None
    ratios = [mine[t] / oracle[t] for t in mine if oracle.get(t)]
    return (sum(ratios) / len(ratios), len(ratios)) if ratios else None


def error_rate_lines(report: RunReport) -> list[str]:
    """'Action error rates' lines, one per row that has them."""
    rows = [r for r in report.rows if r.error_rates]
    if not rows:
        return []
    lines = ["Action error rates (over steps):"]
    for r in rows:
        e = r.error_rates
        line = (
            f"  {r.agent} ({r.mode}): invalid {100 * e['invalid_rate']:.2f}% "
            f"({e['invalid']}/{e['steps']} steps), repeated {100 * e['repeated_rate']:.2f}% "
            f"({e['repeated']}/{e['steps']})"
        )
        if e.get("steps_vs_oracle") is not None:
            line += f"; steps x{e['steps_vs_oracle']:.2f} the oracle's ({e['oracle_tasks']} tasks)"
        if e.get("evaluated_more_than_once"):
            line += (
                f"; FLAG: {e['evaluated_more_than_once']} episode(s) evaluated more than once "
                "(mid-episode feedback)"
            )
        lines.append(line)
    return [*lines, ""]

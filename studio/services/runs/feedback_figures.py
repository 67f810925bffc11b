"""Feedback turns and best-so-far PSR in `studio report`, from the evaluations each episode
recorded.

An episode records its feedback turns in run.json `meta.feedback` (studio.services.episodes.
feedback: each with its PSR), every evaluation of the program as its result in
`meta.evaluations` (tests passed of total; more than one on the ScratchWorld-compatible routes
when a client evaluated mid-episode), and its result in `eval`. Per episode:
- *final* is its result (the report's SR and PSR);
- *turn 1* is the first evaluation it got: its first feedback turn, else its first recorded
  evaluation, else its result (DrawingBench's first turn; an episode that asked for no
  feedback has turn 1 = final);
- *best so far* is the highest PSR among all its evaluations (turns, evaluations, result).

Per agent and mode (`ReportRow.feedback`), over the episodes counted in SR, each figure is
averaged as the report averages PSR: the mean over tasks of each task's mean over episodes.
`best_psr` stands beside `final_psr`; rows whose episodes took feedback turns (or were
evaluated more than once) also get `turn1_psr`, `turn1_sr`, `final_sr` and the improvements
from turn 1 to final (`improvement_psr`, `improvement_sr`), with the turns used and the budget.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any, NamedTuple

from studio.models.report import RunEntry, RunReport
from studio.models.trajectory import RUN_FILE

__all__ = ["EpisodeTurns", "attach_feedback", "episode_turns", "feedback_lines"]


class EpisodeTurns(NamedTuple):
    """One episode's figures: turn 1 (PSR, success), best PSR so far, turns used, budget,
    evaluations before the result."""

    turn1_psr: float
    turn1_success: bool
    best_psr: float
    turns: int
    budget: int
    earlier: int


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _scores(raw: Any, key: str = "psr") -> list[tuple[float, bool]]:
    """(PSR, success) of each well-formed record in a list of feedback turns or evaluations."""
    found: list[tuple[float, bool]] = []
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, dict):
            continue
        passed, total = _number(item.get("passed")), _number(item.get("total"))
        psr = _number(item.get(key))
        if psr is None and passed is not None and total:
            psr = passed / total
        if psr is None:
            continue
        success = item.get("success")
        ok = success if isinstance(success, bool) else bool(total) and passed == total
        found.append((psr, ok))
    return found


def episode_turns(folder: Path, final_psr: float, final_success: bool) -> EpisodeTurns:
    """The figures of the episode recorded in `folder` whose result is (`final_psr`,
    `final_success`); an episode with no run.json or nothing recorded: all of them final."""
    try:
        run = json.loads((Path(folder) / RUN_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        run = {}
    meta = run.get("meta") if isinstance(run, dict) else None
    meta = meta if isinstance(meta, dict) else {}
    turns = _scores(meta.get("feedback"))
    evaluations = _scores(meta.get("evaluations"))
    first = turns[0] if turns else evaluations[0] if evaluations else (final_psr, final_success)
    best = max([final_psr, *(p for p, _ in turns), *(p for p, _ in evaluations)])
    budget = _number(meta.get("feedback_turns"))
    return EpisodeTurns(
        first[0], first[1], best, len(turns), int(budget or 0), max(0, len(evaluations) - 1)
    )


def _task_mean(values: dict[str, list[float]]) -> float:
    means = [sum(v) / len(v) for v in values.values() if v]
    return sum(means) / len(means) if means else 0.0


def attach_feedback(report: RunReport, entries: list[RunEntry]) -> None:
    """Set each row's `feedback` figures (see the module docstring) from its counted
    episodes; rows without any get none."""
    for row in report.rows:
        figures: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        turns = budget = with_turns = episodes = earlier = 0
        for entry in entries:
            if (entry.agent, entry.mode) != (row.agent, row.mode) or entry.outcome != "finished":
                continue
            one = episode_turns(Path(entry.folder), entry.psr, entry.success)
            episodes += 1
            turns, with_turns = turns + one.turns, with_turns + (one.turns > 0)
            budget, earlier = max(budget, one.budget), earlier + (one.earlier > 0)
            for name, value in (
                ("final_psr", entry.psr),
                ("best_psr", one.best_psr),
                ("turn1_psr", one.turn1_psr),
                ("final_sr", float(entry.success)),
                ("turn1_sr", float(one.turn1_success)),
            ):
                figures[name][entry.task_id].append(value)
        if not episodes:
            continue
        means = {name: _task_mean(by_task) for name, by_task in figures.items()}
        feedback: dict[str, Any] = {
            "episodes": episodes,
            "best_psr": means["best_psr"],
            "final_psr": means["final_psr"],
        }
        if with_turns or earlier or budget:
            feedback.update(
                turns_used=turns,
                episodes_with_turns=with_turns,
                budget=budget,
                turn1_psr=means["turn1_psr"],
                turn1_sr=means["turn1_sr"],
                final_sr=means["final_sr"],
                improvement_psr=means["final_psr"] - means["turn1_psr"],
                improvement_sr=means["final_sr"] - means["turn1_sr"],
            )
        row.feedback = feedback


def feedback_lines(report: RunReport) -> list[str]:
    """'Best-so-far PSR and feedback turns' lines, one per row that has figures."""
    rows = [r for r in report.rows if r.feedback]
    if not rows:
        return []
    lines = ["Best-so-far PSR (over every evaluation recorded) beside final PSR:"]
    for r in rows:
        f = r.feedback
        line = (
            f"  {r.agent} ({r.mode}): best so far {f['best_psr']:.2f}, final {f['final_psr']:.2f}"
            f" ({f['episodes']} episodes)"
        )
        if "turn1_psr" in f:
            line += (
                f"; turn 1 PSR {f['turn1_psr']:.2f} SR {f['turn1_sr']:.2f} -> final PSR "
                f"{f['final_psr']:.2f} SR {f['final_sr']:.2f} (improvement "
                f"{f['improvement_psr']:+.2f} PSR, {f['improvement_sr']:+.2f} SR; "
                f"{f['turns_used']} feedback turns in {f['episodes_with_turns']} episodes, "
                f"budget {f['budget']})"
            )
        lines.append(line)
    return [*lines, ""]

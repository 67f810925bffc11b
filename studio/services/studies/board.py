"""Who has done what: each participant's queue read back from the runs in the study folder.

A task of a participant's queue is recorded in `runs/CODE/NN-TASK/` (NN its position from 01),
a later attempt (after the server was killed mid-task) in `runs/CODE/NN-TASK-aM/`. The state
of a cell comes from its latest attempt's run.json:

- `waiting`: no attempt yet;
- `in progress`: the run has not ended (elapsed time counts every attempt);
- `finished`: the participant pressed Finish; the verdict is the evaluation's (`passed` /
  `failed`, `evaluating` while it is computed);
- `gave up`: Give up, or the time limit (`meta.stopped` says which);
- `interrupted`: the server stopped mid-task and the participant has not resumed it.

Times and action counts add up every attempt of a cell; `actions` counts the recorded input
actions (not the closing done / failed step).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from studio.models.agent import EpisodeStatus
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.studies.plan import StudyPlan

__all__ = [
    "STATES", "Board", "Cell", "attempt_folder", "attempts", "cell_state", "format_board",
    "read_board", "run_actions", "run_seconds",
]  # fmt: skip

STATES = ("waiting", "in progress", "finished", "gave up", "interrupted")
_ATTEMPT = re.compile(r"-a(\d+)$")


def attempt_folder(
    study: Path, code: str, index: int, task_id: str, attempt: int, part: str = "runs"
) -> Path:
    """The run folder of attempt `attempt` (1, 2, ...) of queue position `index` (0-based)."""
    suffix = "" if attempt == 1 else f"-a{attempt}"
    return Path(study) / part / code / f"{index + 1:02d}-{task_id}{suffix}"


def attempts(
    study: Path, code: str, index: int, task_id: str, part: str = "runs"
) -> list[tuple[Path, RunInfo]]:
    """The recorded attempts of one cell, oldest first (unreadable headers left out)."""
    found = []
    n = 1
    while (folder := attempt_folder(study, code, index, task_id, n, part)).is_dir():
        try:
            run = RunInfo.model_validate_json((folder / RUN_FILE).read_text(encoding="utf-8"))
            found.append((folder, run))
        except (OSError, ValueError):
            pass
        n += 1
    return found


def run_seconds(run: RunInfo, now: datetime | None = None) -> float:
    end = run.ended_at or now or datetime.now(UTC)
    return max(0.0, (end - run.started_at).total_seconds())


def run_actions(run: RunInfo) -> int:
    closing = run.status in (EpisodeStatus.DONE, EpisodeStatus.FAILED)
    return max(0, run.steps - (1 if closing else 0))


def cell_state(run: RunInfo | None) -> str:
    if run is None:
        return "waiting"
    if run.ended_at is None:
        return "in progress"
    if run.status is EpisodeStatus.DONE:
        return "finished"
    if run.status is EpisodeStatus.FAILED:
        return "gave up"
    return "interrupted"


@dataclass
class Cell:
    """One task of one participant's queue."""

    task_id: str
    state: str = "waiting"
    verdict: str | None = None  # passed / failed (finished cells)
    seconds: float = 0.0
    actions: int = 0
    attempts: int = 0
    folder: str | None = None  # the latest attempt's run folder
    stopped: str | None = None  # "give up" | "time limit" (gave up cells)


@dataclass
class Board:
    """Participants x their queues, with totals per state."""

    study: str
    rows: dict[str, list[Cell]] = field(default_factory=dict)

    def totals(self) -> dict[str, int]:
        counts = dict.fromkeys(STATES, 0)
        for cells in self.rows.values():
            for cell in cells:
                counts[cell.state] += 1
        return counts


def read_board(folder: Path, plan: StudyPlan, now: datetime | None = None) -> Board:
    """The board of the study in `folder` as its runs say now."""
    board = Board(plan.name)
    for p in plan.participants:
        cells = []
        for index, task_id in enumerate(p.queue):
            cell = Cell(task_id)
            found = attempts(folder, p.code, index, task_id)
            if found:
                last_folder, last = found[-1]
                cell.state = cell_state(last)
                cell.attempts = len(found)
                cell.folder = str(last_folder)
                cell.seconds = sum(run_seconds(r, now) for _, r in found)
                cell.actions = sum(run_actions(r) for _, r in found)
                if cell.state == "finished":
                    cell.verdict = "passed" if last.eval is not None and last.eval.ok else "failed"
                    if last.eval is None and last.meta.get("evaluation") == "pending":
                        cell.verdict = "evaluating"
                stopped = last.meta.get("stopped")
                cell.stopped = stopped if isinstance(stopped, str) else None
            cells.append(cell)
        board.rows[p.code] = cells
    return board


def _cell_text(cell: Cell) -> str:
    if cell.state == "finished":
        text = f"{cell.verdict} {cell.seconds:.0f}s"
    elif cell.state == "in progress":
        text = f"… {cell.seconds:.0f}s"
    elif cell.state == "gave up":
        text = "time limit" if cell.stopped == "time limit" else "gave up"
    else:
        text = cell.state
    return f"{cell.task_id}: {text}"


def format_board(board: Board) -> str:
    """The board as text: one line per participant, then the totals."""
    lines = [f"study {board.study}"]
    for code, cells in board.rows.items():
        lines.append(f"  {code}  " + " | ".join(_cell_text(c) for c in cells))
    totals = board.totals()
    lines.append("  totals: " + ", ".join(f"{n} {state}" for state, n in totals.items()))
    return "\n".join(lines) + "\n"

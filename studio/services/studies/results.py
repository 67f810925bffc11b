"""A study's human figures: per participant, per task and per category, from the board.

Per participant: tasks ended (finished or gave up), SR (share solved: finished and every
test passed; giving up, the time limit and an interrupted task count as not solved) with its
Wilson interval, mean PSR of the final programs, mean time and actions per task. Per task:
how many participants ended it, the share who solved it (its difficulty for people), mean time
and actions. Per category: SR with its Wilson interval over episodes and PSR with a Student t
interval over the tasks' mean PSR, as `studio report` computes them for agents. Only ended
cells count (waiting, in-progress and still-evaluating ones are left out).
"""

from __future__ import annotations

import html
from dataclasses import asdict, dataclass, field
from pathlib import Path
from statistics import mean

from studio.models.study_report import StudyTables
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.core import stats
from studio.services.studies.board import Board, Cell
from studio.services.studies.plan import STUDY_FILE, StudyPlan

__all__ = [
    "Figures", "StudyResults", "find_studies", "format_results", "results_html", "study_results",
    "study_tables",
]  # fmt: skip


@dataclass
class Figures:
    """One line of a table."""

    name: str
    ended: int = 0
    solved: int = 0
    sr: float | None = None
    sr_ci95: tuple[float, float] | None = None
    psr: float | None = None
    psr_ci95: tuple[float, float] | None = None
    mean_seconds: float | None = None
    mean_actions: float | None = None


@dataclass
class StudyResults:
    study: str
    participants: list[Figures] = field(default_factory=list)
    tasks: list[Figures] = field(default_factory=list)
    categories: list[Figures] = field(default_factory=list)


def _psr(cell: Cell) -> float:
    if cell.folder is None:
        return 0.0
    try:
        run = RunInfo.model_validate_json((Path(cell.folder) / RUN_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return 0.0
    result = run.eval
    return result.partial_success_rate if result and result.error is None else 0.0


def _figures(name: str, cells: list[Cell], psr_clusters: list[float] | None = None) -> Figures:
    ended = [c for c in cells if c.state in ("finished", "gave up", "interrupted")]
    ended = [c for c in ended if c.verdict != "evaluating"]
    f = Figures(name, ended=len(ended))
    if not ended:
        return f
    f.solved = sum(c.state == "finished" and c.verdict == "passed" for c in ended)
    f.sr = f.solved / len(ended)
    f.sr_ci95 = stats.wilson(f.solved, len(ended))
    psrs = [_psr(c) for c in ended]
    f.psr = mean(psrs)
    f.psr_ci95 = stats.cluster_t_interval(psr_clusters) if psr_clusters else None
    f.mean_seconds = mean(c.seconds for c in ended)
    f.mean_actions = mean(c.actions for c in ended)
    return f


def study_results(plan: StudyPlan, board: Board) -> StudyResults:
    results = StudyResults(plan.name)
    by_task: dict[str, list[Cell]] = {t.id: [] for t in plan.tasks}
    for code, cells in board.rows.items():
        results.participants.append(_figures(code, cells))
        for cell in cells:
            by_task.setdefault(cell.task_id, []).append(cell)
    for task_id, cells in by_task.items():
        results.tasks.append(_figures(task_id, cells))
    categories = sorted({t.category for t in plan.tasks})
    for category in categories:
        ids = [t.id for t in plan.tasks if t.category == category]
        cells = [c for t in ids for c in by_task[t]]
        clusters = [f.psr for f in results.tasks if f.name in ids and f.psr is not None]
        results.categories.append(_figures(category, cells, clusters))
    return results


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _ci(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f"[{100 * ci[0]:.0f}-{100 * ci[1]:.0f}]"


def _table(title: str, rows: list[Figures]) -> list[str]:
    lines = [title, f"  {'':<26}{'ended':>6}{'SR %':>7} {'95% CI':<10}{'PSR %':>7} "
             f"{'95% CI':<10}{'time s':>8}{'actions':>9}"]  # fmt: skip
    for f in rows:
        secs = "-" if f.mean_seconds is None else f"{f.mean_seconds:.0f}"
        acts = "-" if f.mean_actions is None else f"{f.mean_actions:.1f}"
        lines.append(
            f"  {f.name[:26]:<26}{f.ended:>6}{_pct(f.sr):>7} {_ci(f.sr_ci95):<10}"
            f"{_pct(f.psr):>7} {_ci(f.psr_ci95):<10}{secs:>8}{acts:>9}"
        )
    return lines


def format_results(results: StudyResults) -> str:
    """The three tables as text (what `studio report` prints under the agents' grid)."""
    lines = [f"Human baseline study {results.study}"]
    lines += _table("per category (human)", results.categories)
    lines += _table("per participant", results.participants)
    lines += _table("per task (SR = share of participants who solved it)", results.tasks)
    return "\n".join(lines) + "\n"


def results_html(results: StudyResults) -> str:
    """The three tables as an HTML section (what `studio report --html` adds)."""

    def table(title: str, rows: list[Figures]) -> str:
        head = "".join(
            f"<th>{h}</th>"
            for h in ("", "ended", "SR %", "95% CI", "PSR %", "95% CI", "time s", "actions")
        )
        body = ""
        for f in rows:
            secs = "-" if f.mean_seconds is None else f"{f.mean_seconds:.0f}"
            acts = "-" if f.mean_actions is None else f"{f.mean_actions:.1f}"
            cells = (html.escape(f.name), f.ended, _pct(f.sr), _ci(f.sr_ci95), _pct(f.psr),
                     _ci(f.psr_ci95), secs, acts)  # fmt: skip
            body += "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"
        return f"<h3>{html.escape(title)}</h3><table><thead><tr>{head}</tr></thead>" + (
            f"<tbody>{body}</tbody></table>"
        )

    return (
        f"<h2>Human baseline study {html.escape(results.study)}</h2>"
        + table("Per category (human)", results.categories)
        + table("Per participant", results.participants)
        + table("Per task (SR = share of participants who solved it)", results.tasks)
    )


def find_studies(root: Path) -> list[Path]:
    """Study folders at `root`: the root itself, its parent (root is STUDY/runs), or below it."""
    root = Path(root)
    if root.is_file():
        return []
    for candidate in (root, root.parent):
        if (candidate / STUDY_FILE).is_file():
            return [candidate]
    return sorted(p.parent for p in root.rglob(STUDY_FILE))


def study_tables(results: StudyResults, folder: Path | str = "") -> StudyTables:
    """The three tables as data: what `studio report --json` and the bundle carry."""
    return StudyTables.model_validate({**asdict(results), "folder": str(folder)})

"""Reports over recorded runs: read every run.json below a folder, build the SR/PSR grid.

The grid has one row per agent and mode and one column per task category plus SR and PSR
overall, like the published ScratchWorld tables, and the mean time per task. `format_table`
renders it as text; `studio.services.runs.report_html.render_html` as a self-contained HTML page.
Runs of the diagnostics (drag, QA) follow as tables of their own (`diagnostic_report`).

A run whose record is marked `unsealed` (a ScratchWorld session on a server that allowed
custom_js, so agent JavaScript could change the program outside the editor) counts under its
agent's name with `UNSEALED_SUFFIX`: a row of its own, never mixed with sealed runs, and a
note under the table says what the mark means.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from statistics import mean
from typing import Any

from pydantic import ValidationError

from studio.models.agent import EpisodeStatus
from studio.models.errors import StudioError
from studio.models.protocols import label_suffix, protocol_of
from studio.models.report import CATEGORIES, CellStats, ReportRow, RunEntry, RunReport, TaskStats
from studio.models.task import TASK_FILE
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.core import stats
from studio.services.core.untrusted_json import JsonInputError, read_json
from studio.services.diagnostics.report import format_diagnostics, load_diagnostics
from studio.services.episodes.human.session import HUMAN_AGENT
from studio.services.runs.epochs import episode_figures, epoch_figures
from studio.services.runs.failures import outcome_of
from studio.services.runs.protocol_report import (
    attach_field_figures,
    diagnostic_notes,
    protocol_lines,
)
from studio.services.runs.repair_measures import repair_cell, repair_of, understanding_of
from studio.services.runs.report_metrics import METRICS

__all__ = [
    "UNSEALED_NOTE", "UNSEALED_SUFFIX", "build_report", "ci_text", "duration", "entry_from_run",
    "format_table", "gave_up", "header_counts", "interval_line", "load_runs", "pct", "report_for",
    "task_category",
]  # fmt: skip

UNSEALED_SUFFIX = " [unsealed]"
UNSEALED_NOTE = (
    "[unsealed]: runs on a server started with --allow-custom-js (agent JavaScript could "
    "change the program outside the editor)"
)


def load_runs(root: Path) -> tuple[list[RunEntry], list[str]]:
    """Every run.json below `root` as a RunEntry; unreadable files become problem lines."""
    root = Path(root)
    if not root.exists():
        raise StudioError(f"{root}: does not exist")
    files = [root] if root.is_file() else sorted(root.rglob(RUN_FILE))
    entries, problems = [], []
    categories: dict[str, str] = {}
    for path in files:
        try:
            run = RunInfo.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(f"{path}: cannot be read ({exc})")
            continue
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "file"
            problems.append(f"{path}: field '{where}': {first['msg']}")
            continue
        if run.ended_at is None and run.eval is None:
            problems.append(f"{path}: run still in progress (no end, no verdict); left out")
            continue
        entries.append(entry_from_run(run, path.parent, categories))
    return entries, problems


def gave_up(run: RunInfo) -> bool:
    """A human participant gave up (or ran out of time): a failure whatever the program does."""
    return run.agent == HUMAN_AGENT and run.status is EpisodeStatus.FAILED


def entry_from_run(run: RunInfo, folder: Path, cache: dict[str, str] | None = None) -> RunEntry:
    """What the report needs of one run and whether SR counts it (`outcome`, studio.services.
    runs.failures): a verdict, the agent's own crash and a human session given up count (a
    given-up session as failed; its PSR still says how far the program got); the task's and
    the environment's failures and episodes that never finished are counted apart."""
    result = run.eval
    failed = gave_up(run)
    seconds = None
    if run.ended_at is not None:
        seconds = max(0.0, (run.ended_at - run.started_at).total_seconds())
    error = None
    if result is None:  # what went wrong, when the run says
        error = _text(run.meta.get("error")) or f"not evaluated (status {run.status.value})"
    elif result.error is not None:
        error = f"{result.error.kind.value}: {result.error.message}"
    unsealed = bool(run.meta.get("unsealed"))
    given = run.meta.get("usage")
    usage: dict[str, Any] = given if isinstance(given, dict) else {}
    cost = usage.get("cost")
    category = task_category(run, cache if cache is not None else {})
    protocol = protocol_of(run.meta.get("protocol"))
    d_edit, drift = repair_of(run, folder, category)
    trigger_f1, mechanism_correct = understanding_of(run)
    return RunEntry(
        agent=run.agent + label_suffix(protocol) + (UNSEALED_SUFFIX if unsealed else ""),
        mode=run.mode.value,
        task_id=run.task_id,
        category=category,
        success=bool(result and result.ok) and not failed,
        passed_tests=result.passed_tests if result else 0,
        total_tests=result.total_tests if result else 0,
        psr=result.partial_success_rate if result and result.error is None else 0.0,
        seconds=seconds,
        status=run.status.value,
        folder=str(folder),
        error=error,
        failure=_text(run.meta.get("failure")),
        outcome=outcome_of(result, _text(run.meta.get("failure")), failed),
        epoch=_int(run.meta.get("epoch")),
        prompt_tokens=_int(usage.get("prompt_tokens")) or 0,
        completion_tokens=_int(usage.get("completion_tokens")) or 0,
        cost=float(cost) if isinstance(cost, int | float) and not isinstance(cost, bool) else None,
        d_edit=d_edit,
        drift=drift,
        trigger_f1=trigger_f1,
        mechanism_correct=mechanism_correct,
        protocol=protocol.name if protocol else None,
        protocol_settings=protocol.settings if protocol else {},
    )


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def task_category(run: RunInfo, cache: dict[str, str]) -> str:
    """The run's category: run.json meta, else the task folder's task.json, else the id prefix."""
    given = run.meta.get("category")
    if isinstance(given, str) and given:
        return given.lower()
    if run.task_folder:
        if run.task_folder not in cache:
            cache[run.task_folder] = _category_from_folder(Path(run.task_folder))
        if cache[run.task_folder]:
            return cache[run.task_folder]
    prefix = run.task_id.lower().split("_", 1)[0].split("-", 1)[0]
    return prefix if prefix in CATEGORIES else "other"


def _category_from_folder(folder: Path) -> str:
    try:
        data: Any = read_json(folder / TASK_FILE)
    except JsonInputError:
        return ""
    category = data.get("category") if isinstance(data, dict) else None
    return category.lower() if isinstance(category, str) else ""


def build_report(
    entries: list[RunEntry], root: Path | str = "", problems: list[str] | None = None
) -> RunReport:
    """Group runs by agent and mode, average repeated tasks, compute SR and PSR per category."""
    grouped: dict[tuple[str, str], list[RunEntry]] = defaultdict(list)
    for entry in entries:
        grouped[(entry.agent, entry.mode)].append(entry)
    extra = sorted({e.category for e in entries} - set(CATEGORIES))
    categories = list(CATEGORIES) + extra
    rows = [_row(agent, mode, runs, categories) for (agent, mode), runs in grouped.items()]
    rows.sort(key=lambda r: (r.mode != "composite", r.mode, r.agent.lower()))
    return RunReport(root=str(root), categories=categories, rows=rows, problems=problems or [])


def _row(agent: str, mode: str, runs: list[RunEntry], categories: list[str]) -> ReportRow:
    by_task: dict[str, list[RunEntry]] = defaultdict(list)
    for run in runs:
        if run.outcome == "finished":
            by_task[run.task_id].append(run)
    tasks = [_task_stats(task_id, group) for task_id, group in sorted(by_task.items())]
    for stats_ in tasks:
        stats_.env_failures = sum(
            r.task_id == stats_.task_id and r.outcome == "environment" for r in runs
        )
    cells = {
        c: _cell([t for t in tasks if t.category == c], [r for r in runs if r.category == c])
        for c in categories
    }
    times = [t.mean_seconds for t in tasks if t.mean_seconds is not None]
    return ReportRow(
        agent=agent,
        mode=mode,
        categories=cells,
        overall=_cell(tasks, runs),
        mean_seconds=mean(times) if times else None,
        tasks=tasks,
        not_counted=[_apart_line(r) for r in runs if r.outcome != "finished"],
        epochs=epoch_figures(tasks),
    )


def _apart_line(run: RunEntry) -> str:
    """'create_a (epoch 2): environment: the editor page crashed'."""
    epoch = f" (epoch {run.epoch})" if run.epoch is not None and run.epoch > 1 else ""
    why = {"unfinished": "unfinished", "environment": "environment failure"}.get(
        run.outcome, "the task's failure"
    )
    detail = f": {run.error}" if run.error else ""
    return f"{run.task_id}{epoch}: {why}{detail}"


def _task_stats(task_id: str, runs: list[RunEntry]) -> TaskStats:
    times = [r.seconds for r in runs if r.seconds is not None]
    wins = [1.0 if r.success else 0.0 for r in runs]
    return TaskStats(
        task_id=task_id,
        category=runs[-1].category,
        runs=len(runs),
        sr=mean(wins),
        psr=mean(r.psr for r in runs),
        mean_seconds=mean(times) if times else None,
        successes=int(sum(wins)),
        sr_var=stats.sample_variance(wins),
        psr_var=stats.sample_variance([r.psr for r in runs]),
        episodes=episode_figures(runs),
    )


def _cell(tasks: list[TaskStats], runs: list[RunEntry]) -> CellStats:
    """A cell over `tasks` (and the episodes `runs` of those tasks, for tokens and cost, and
    those left out of SR, counted apart)."""
    apart = {
        "env_failures": sum(r.outcome == "environment" for r in runs),
        "task_failures": sum(r.outcome == "task" for r in runs),
        "unfinished": sum(r.outcome == "unfinished" for r in runs),
    }
    if not tasks:
        return CellStats(**apart)
    episodes = sum(t.runs for t in tasks)
    successes = sum(t.successes for t in tasks)
    counts = [(t.runs, t.successes) for t in tasks]
    costs = [r.cost for r in runs if r.cost is not None]
    return CellStats(
        tasks=len(tasks),
        runs=episodes,
        sr=mean(t.sr for t in tasks),
        psr=mean(t.psr for t in tasks),
        episodes=episodes,
        successes=successes,
        sr_ci95=stats.wilson(successes, episodes),
        psr_ci95=stats.cluster_t_interval([t.psr for t in tasks]),
        pass_at_k=stats.mean_over_tasks(counts),
        pass_hat_k=stats.mean_over_tasks(counts, hat=True),
        **apart,
        prompt_tokens=sum(r.prompt_tokens for r in runs),
        completion_tokens=sum(r.completion_tokens for r in runs),
        cost=sum(costs) if costs else None,
        **repair_cell(runs),
    )


def report_for(root: Path) -> RunReport:
    """Read the runs below `root` (tasks, and diagnostics runs, and the result folders of
    every format in `result_readers.RESULT_READERS`: the published ScratchWorld runners') and
    build their report; StudioError when there are none."""
    entries, problems = load_runs(root)
    diagnostics, broken = load_diagnostics(root)
    field = _field_results(root)  # other formats' result folders (ScratchWorld's), as they are
    entries += field.entries
    diagnostics += field.diagnostics
    broken += field.problems
    if not entries and not diagnostics:
        detail = f" ({len(problems) + len(broken)} unreadable)" if problems or broken else ""
        raise StudioError(f"{root}: no finished runs (run.json files) below it{detail}")
    report = build_report(entries, root, problems + broken)
    attach_field_figures(report, entries)
    report.diagnostics = diagnostics
    report.protocol_notes += diagnostic_notes(diagnostics)
    return report


def _field_results(root: Path) -> Any:
    from studio.services.runs.result_readers import read_all

    return read_all(root)


# ---- text --------------------------------------------------------------------------------
def pct(value: float | None) -> str:
    """A fraction as a percentage with two decimals, as in the published tables; '-' if None."""
    return "-" if value is None else f"{100 * value:.2f}"


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 120:
        return f"{seconds:.1f} s"
    return f"{seconds / 60:.1f} min"


def header_counts(report: RunReport, mode: str) -> dict[str, int]:
    """Task count per column of one mode's table (the most any agent ran)."""
    rows = report.rows_for(mode)
    counts = {c: max((r.categories[c].tasks for r in rows), default=0) for c in report.categories}
    counts["overall"] = max((r.overall.tasks for r in rows), default=0)
    return counts


def format_table(report: RunReport) -> str:
    """The grid as aligned text, one block per mode; a cell over fewer tasks shows its count."""
    lines: list[str] = []
    for mode in report.modes():
        counts = header_counts(report, mode)
        cols = [c for c in report.categories if counts[c] or c in CATEGORIES]
        heads = [f"{c.capitalize()} ({counts[c]})" for c in cols]
        heads += [f"SR ({counts['overall']})", f"PSR ({counts['overall']})", "Time/task"]
        table = [["Agent", *heads]]
        for row in report.rows_for(mode):
            cells = [_cell_text(row.categories[c], counts[c], "sr") for c in cols]
            cells.append(_cell_text(row.overall, counts["overall"], "sr"))
            cells.append(_cell_text(row.overall, counts["overall"], "psr"))
            table.append([row.agent, *cells, duration(row.mean_seconds)])
        widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
        lines.append(f"{mode.capitalize()} mode (success rate %)")
        for r in table:
            first = r[0].ljust(widths[0])
            rest = [cell.rjust(w) for cell, w in zip(r[1:], widths[1:], strict=True)]
            lines.append("  ".join([first, *rest]).rstrip())
        for name in METRICS:  # the lines under the table (report_metrics)
            lines.extend(METRICS.get(name)(report, mode))
        lines.append("")
    if any(r.agent.endswith(UNSEALED_SUFFIX) for r in report.rows):
        lines.extend([UNSEALED_NOTE, ""])
    lines.extend(protocol_lines(report))
    lines.extend(format_diagnostics(report.diagnostics))
    for problem in report.problems:
        lines.append(f"skipped: {problem}")
    return "\n".join(lines).rstrip() + "\n"


def ci_text(ci: tuple[float, float] | None) -> str:
    """An interval in percent, '[40.00, 90.00]'; '-' when there is none."""
    return "-" if ci is None else f"[{100 * ci[0]:.2f}, {100 * ci[1]:.2f}]"


def interval_line(cell: CellStats) -> str:
    """What repeated episodes add to a row: intervals, pass@k, pass^k, failures, cost."""
    parts = [
        f"{cell.episodes} episodes",
        f"SR 95% CI {ci_text(cell.sr_ci95)} (Wilson)",
        f"PSR 95% CI {ci_text(cell.psr_ci95)} (t over tasks)",
    ]
    if len(cell.pass_at_k) > 1:
        parts.append(" ".join(f"pass@{k} {pct(v)}" for k, v in cell.pass_at_k.items()))
        parts.append(" ".join(f"pass^{k} {pct(v)}" for k, v in cell.pass_hat_k.items()))
    apart = [
        (cell.env_failures, "environment failures"),
        (cell.task_failures, "task failures"),
        (cell.unfinished, "unfinished"),
    ]
    if any(n for n, _ in apart):
        counted = ", ".join(f"{n} {what}" for n, what in apart if n)
        parts.append(f"not counted in SR: {counted}")
    if cell.prompt_tokens or cell.completion_tokens:
        parts.append(f"tokens {cell.prompt_tokens} in / {cell.completion_tokens} out")
    if cell.cost is not None:
        parts.append(f"cost {cell.cost:.4f}")
    return "; ".join(parts)


def _cell_text(cell: CellStats, expected: int, which: str) -> str:
    text = pct(cell.sr if which == "sr" else cell.psr)
    if cell.tasks and cell.tasks != expected:
        text += f" ({cell.tasks})"
    return text

"""`studio report --compare A B`: paired task outcomes of two rows of a report, McNemar-tested.

A side is named `AGENT` or `AGENT/MODE` (when the agent ran in several modes, the mode is
needed), or is a run folder (a campaign's, relative to the report's folder or as given): two
campaigns of the same agent, each with its epochs, then compare task by task as they do in the
bundle. A task counts as solved by a side when at least half of its episodes succeeded. Per
category and overall, over the tasks both sides ran, the discordant counts and the exact
two-sided McNemar p-value (`core.mcnemar`); tasks only one side ran are listed apart.
"""

from __future__ import annotations

from pathlib import Path

from studio.models.compare import Comparison, PairedCell
from studio.models.errors import StudioError
from studio.models.report import ReportRow, RunReport
from studio.services.core.mcnemar import mcnemar_exact

__all__ = ["compare_rows", "find_row", "format_paired"]


def find_row(report: RunReport, name: str) -> ReportRow:
    """The row `AGENT` or `AGENT/MODE`, or the one row of a run folder's own report;
    StudioError naming what there is otherwise."""
    folder = _run_folder(report, name)
    if folder is not None:
        return _folder_row(folder, name)
    agent, _, mode = name.partition("/")
    rows = [r for r in report.rows if r.agent == agent and (not mode or r.mode == mode)]
    if len(rows) == 1:
        return rows[0]
    there = ", ".join(f"{r.agent}/{r.mode}" for r in report.rows) or "none"
    if not rows:
        raise StudioError(
            f"--compare: no runs of {name!r} in this report (there are: {there}); "
            "a side may also be a run folder"
        )
    raise StudioError(f"--compare: {name!r} ran in several modes; name one as AGENT/MODE")


def _run_folder(report: RunReport, name: str) -> Path | None:
    """`name` as a run folder (below the report's root, else as given) when no agent of the
    report has that name; None when it is not a folder."""
    if any(r.agent == name.partition("/")[0] for r in report.rows):
        return None
    candidates = [Path(report.root) / name] if report.root else []
    return next((c for c in [*candidates, Path(name)] if c.is_dir()), None)


def _folder_row(folder: Path, name: str) -> ReportRow:
    from studio.services.runs.reports import report_for

    rows = report_for(folder).rows
    if len(rows) == 1:
        return rows[0]
    there = ", ".join(f"{r.agent}/{r.mode}" for r in rows) or "none"
    raise StudioError(
        f"--compare: the run folder {name!r} holds several agents or modes ({there}); "
        "name a folder of one run (a campaign's)"
    )


def compare_rows(report: RunReport, a_name: str, b_name: str) -> Comparison:
    a, b = find_row(report, a_name), find_row(report, b_name)
    solved_a = {t.task_id: (t.category, t.successes * 2 >= t.runs) for t in a.tasks}
    solved_b = {t.task_id: (t.category, t.successes * 2 >= t.runs) for t in b.tasks}
    paired = sorted(set(solved_a) & set(solved_b))
    out = Comparison(a=a_name, b=b_name, unpaired=sorted(set(solved_a) ^ set(solved_b)))
    categories = sorted({solved_a[t][0] for t in paired})
    for category in [*categories, "overall"]:
        cell = PairedCell(category=category)
        for task in paired:
            if category != "overall" and solved_a[task][0] != category:
                continue
            x, y = solved_a[task][1], solved_b[task][1]
            cell.tasks += 1
            cell.both += x and y
            cell.neither += not x and not y
            cell.a_only += x and not y
            cell.b_only += y and not x
        cell.p_value = mcnemar_exact(cell.a_only, cell.b_only)
        out.cells.append(cell)
    return out


def format_paired(c: Comparison) -> str:
    lines = [
        f"{c.a} vs {c.b}: exact McNemar test on paired tasks ({c.rule})",
        f"{'category':<12} {'tasks':>5} {'both':>5} {'neither':>7} {'A only':>6} {'B only':>6}"
        f" {'p':>8}",
    ]
    for cell in c.cells:
        lines.append(
            f"{cell.category:<12} {cell.tasks:>5} {cell.both:>5} {cell.neither:>7} "
            f"{cell.a_only:>6} {cell.b_only:>6} {cell.p_value:>8.4g}"
        )
    if c.unpaired:
        lines.append(f"tasks only one side ran (left out): {', '.join(c.unpaired)}")
    return "\n".join(lines) + "\n"

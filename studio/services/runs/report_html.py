"""A report as one self-contained HTML page: the SR/PSR tables and inline SVG bar charts.

No script, no web font, no external file: the template and style sheet in resources/report/
are inlined, and the charts are SVG drawn here, so the page opens offline and can be mailed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from html import escape
from typing import Any

from studio.models.report import ReportRow, RunReport
from studio.services.core import paths
from studio.services.diagnostics.report import diagnostics_html
from studio.services.runs.epochs import epoch_line, epochs_cell
from studio.services.runs.protocol_report import protocols_html
from studio.services.runs.repair_html import repair_html
from studio.services.runs.reports import ci_text, duration, header_counts, interval_line, pct
from studio.services.runs.task_set_html import task_set_html

__all__ = [
    "CHART_H", "CHART_W", "MARGIN_B", "MARGIN_L", "MARGIN_T", "PALETTE", "TEMPLATE_DIR",
    "render_html",
]  # fmt: skip

TEMPLATE_DIR = paths.RESOURCES / "report"
PALETTE = ("#2f6fb3", "#e07b39", "#3f9b5a", "#b8434a", "#7b5ea7", "#8c6d3f", "#d15fa6", "#6b7280")
CHART_W, CHART_H, MARGIN_L, MARGIN_B, MARGIN_T = 900, 280, 44, 40, 16


def render_html(
    report: RunReport,
    title: str = "Scratch benchmark report",
    task_set: dict[str, Any] | None = None,
) -> str:
    """The whole page as a string; `task_set` (`bundle.set_figures.bundle_stats` of the runs)
    adds the "Task set" section (runs.task_set_html)."""
    template = (TEMPLATE_DIR / "report.html").read_text(encoding="utf-8")
    style = (TEMPLATE_DIR / "report.css").read_text(encoding="utf-8")
    runs = sum(r.overall.runs for r in report.rows)
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    meta = f"{runs} runs below {report.root}; generated {stamp}"
    body = "\n".join(_mode_section(report, mode) for mode in report.modes())
    body += "\n" + diagnostics_html(report.diagnostics)
    body += protocols_html(report)
    body += task_set_html(task_set)
    apart = [(r, line) for r in report.rows for line in r.not_counted]
    if apart:  # the task's and environment's failures and unfinished episodes, named
        items = "".join(
            f"<li>{escape(r.agent)} ({r.mode}): {escape(line)}</li>" for r, line in apart
        )
        body += f'\n<h2>Not counted in SR</h2>\n<ul class="problems">{items}</ul>'
    if report.problems:
        items = "".join(f"<li>{escape(p)}</li>" for p in report.problems)
        body += f'\n<h2>Skipped files</h2>\n<ul class="problems">{items}</ul>'
    return (
        template.replace("{{style}}", style)
        .replace("{{title}}", escape(title))
        .replace("{{meta}}", escape(meta))
        .replace("{{body}}", body)
    )


def _columns(report: RunReport, mode: str) -> list[str]:
    counts = header_counts(report, mode)
    return [
        c for c in report.categories if counts[c] or c in {"create", "debug", "extend", "compute"}
    ]


def _mode_section(report: RunReport, mode: str) -> str:
    rows = report.rows_for(mode)
    parts = [f"<h2>{escape(mode.capitalize())} mode</h2>", _table(report, mode, rows)]
    parts.append(_chart(report, mode, rows))
    parts.append(repair_html(rows))
    parts.append(_task_details(rows))
    return "\n".join(parts)


def _table(report: RunReport, mode: str, rows: list[ReportRow]) -> str:
    counts = header_counts(report, mode)
    cols = _columns(report, mode)
    heads = "".join(f"<th>{escape(c.capitalize())} ({counts[c]})</th>" for c in cols)
    n = counts["overall"]
    head = (
        f'<thead><tr class="group"><th></th><th colspan="{len(cols)}">Success rate (%)</th>'
        f'<th colspan="2">Overall</th><th></th></tr>'
        f"<tr><th>Agent</th>{heads}<th>SR ({n})</th><th>PSR ({n})</th><th>Time/task</th></tr>"
        "</thead>"
    )
    best = _best(rows, cols)
    lines = []
    for row in rows:
        cells = [
            _td(row.categories[c].sr, row.categories[c].tasks, counts[c], best[c]) for c in cols
        ]
        cells.append(_td(row.overall.sr, row.overall.tasks, n, best["sr"], row.overall.sr_ci95))
        cells.append(_td(row.overall.psr, row.overall.tasks, n, best["psr"], row.overall.psr_ci95))
        cells.append(f"<td>{escape(duration(row.mean_seconds))}</td>")
        lines.append(f"<tr><td>{escape(row.agent)}</td>{''.join(cells)}</tr>")
    return f"<table>{head}<tbody>{''.join(lines)}</tbody></table>"


def _best(rows: list[ReportRow], cols: list[str]) -> dict[str, float | None]:
    def top(values: list[float | None]) -> float | None:
        present = [v for v in values if v is not None]
        return max(present) if len(rows) > 1 and present else None

    best = {c: top([r.categories[c].sr for r in rows]) for c in cols}
    best["sr"] = top([r.overall.sr for r in rows])
    best["psr"] = top([r.overall.psr for r in rows])
    return best


def _td(
    value: float | None,
    tasks: int,
    expected: int,
    best: float | None,
    ci: tuple[float, float] | None = None,
) -> str:
    cls = ' class="best"' if value is not None and best is not None and value == best else ""
    count = f' <span class="n">({tasks})</span>' if tasks and tasks != expected else ""
    interval = f'<br><span class="ci">{ci_text(ci)}</span>' if ci is not None else ""
    return f"<td{cls}>{pct(value)}{count}{interval}</td>"


def _chart(report: RunReport, mode: str, rows: list[ReportRow]) -> str:
    """Grouped bars: one group per category plus SR and PSR, one bar per agent, 0-100 %."""
    groups = [(c.capitalize(), [r.categories[c] for r in rows]) for c in _columns(report, mode)]
    groups.append(("SR", [r.overall for r in rows]))
    groups.append(("PSR", [r.overall for r in rows]))
    plot_w, plot_h = CHART_W - MARGIN_L - 8, CHART_H - MARGIN_B - MARGIN_T
    legend_h = 18 * ((len(rows) + 3) // 4)
    out = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="{CHART_W}" '
        f'height="{CHART_H + legend_h}" viewBox="0 0 {CHART_W} {CHART_H + legend_h}" role="img" '
        f'aria-label="{escape(mode)} mode success rates by category">'
    ]
    for tick in range(0, 101, 20):
        y = MARGIN_T + plot_h * (1 - tick / 100)
        out.append(
            f'<line class="grid" x1="{MARGIN_L}" x2="{MARGIN_L + plot_w}" y1="{y:.1f}" '
            f'y2="{y:.1f}"/><text x="{MARGIN_L - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{tick}</text>"
        )
    group_w = plot_w / len(groups)
    bar_w = min(28.0, group_w * 0.8 / max(1, len(rows)))
    for g, (label, values) in enumerate(groups):
        x0 = MARGIN_L + g * group_w + (group_w - bar_w * len(rows)) / 2
        for i, cell in enumerate(values):
            value, ci = (cell.psr, cell.psr_ci95) if label == "PSR" else (cell.sr, cell.sr_ci95)
            out.append(_bar(x0 + i * bar_w, bar_w, value, plot_h, i, rows[i].agent, label))
            out.append(_error_bar(x0 + i * bar_w + max(bar_w - 2, 1) / 2, ci, plot_h))
        cx = MARGIN_L + (g + 0.5) * group_w
        out.append(
            f'<text x="{cx:.1f}" y="{MARGIN_T + plot_h + 18}" text-anchor="middle">'
            f"{escape(label)}</text>"
        )
    base = MARGIN_T + plot_h
    out.append(
        f'<line class="axis" x1="{MARGIN_L}" x2="{MARGIN_L + plot_w}" y1="{base}" y2="{base}"/>'
    )
    out.extend(_legend(rows))
    out.append("</svg>")
    return "\n".join(out)


def _bar(
    x: float, w: float, value: float | None, plot_h: float, i: int, agent: str, label: str
) -> str:
    if value is None:
        return ""
    h = plot_h * value
    y = MARGIN_T + plot_h - h
    color = PALETTE[i % len(PALETTE)]
    tip = escape(f"{agent}: {label} {pct(value)} %")
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(w - 2, 1):.1f}" height="{max(h, 0.5):.1f}" '
        f'fill="{color}"><title>{tip}</title></rect>'
    )


def _error_bar(cx: float, ci: tuple[float, float] | None, plot_h: float) -> str:
    """The 95 % interval as a vertical line with caps (none without an interval)."""
    if ci is None:
        return ""
    y_lo, y_hi = (MARGIN_T + plot_h * (1 - v) for v in ci)
    caps = "".join(
        f'<line class="ci" x1="{cx - 4:.1f}" x2="{cx + 4:.1f}" y1="{y:.1f}" y2="{y:.1f}"/>'
        for y in (y_lo, y_hi)
    )
    return (
        f'<line class="ci" x1="{cx:.1f}" x2="{cx:.1f}" y1="{y_lo:.1f}" y2="{y_hi:.1f}">'
        f"<title>95% CI {ci_text(ci)}</title></line>{caps}"
    )


def _legend(rows: list[ReportRow]) -> list[str]:
    out = []
    for i, row in enumerate(rows):
        x = MARGIN_L + (i % 4) * 210
        y = CHART_H + 18 * (i // 4) - 6
        color = PALETTE[i % len(PALETTE)]
        out.append(
            f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{color}"/>'
            f'<text x="{x + 18}" y="{y}">{escape(row.agent[:32])}</text>'
        )
    return out


def _task_details(rows: list[ReportRow]) -> str:
    parts = []
    for row in rows:
        lines = "".join(
            f"<tr><td>{escape(t.task_id)}</td><td>{escape(t.category)}</td><td>{t.runs}</td>"
            f"<td>{pct(t.sr)}</td><td>{_var(t.sr_var)}</td><td>{pct(t.psr)}</td>"
            f"<td>{_var(t.psr_var)}</td><td>{escape(duration(t.mean_seconds))}</td>"
            f"<td>{escape(epochs_cell(t))}</td></tr>"
            for t in row.tasks
        )
        by_epoch = epoch_line(row)
        epochs = f'<p class="epochs">{escape(by_epoch)}</p>' if by_epoch else ""
        parts.append(
            f"<details><summary>{escape(row.agent)}: {len(row.tasks)} tasks; "
            f"{escape(interval_line(row.overall))}</summary><table>"
            "<thead><tr><th>Task</th><th>Category</th><th>Runs</th><th>SR</th><th>SR var</th>"
            "<th>PSR</th><th>PSR var</th>"
            f"<th>Time</th><th>Epochs</th></tr></thead><tbody>{lines}</tbody></table>"
            f"{epochs}</details>"
        )
    return "\n".join(parts)


def _var(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"

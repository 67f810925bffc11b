"""A set's statistics (`set_stats.set_stats`) as the tables and bar charts that the window's
*Set statistics…* dialog and the report bundle show, built once here so both show the same.

- `stats_table(stats)`: `{"head": [...], "rows": [[...], ...]}`, one row per category and a last
  row "all", every cell a string (the figures of `studio stats`: tasks, modified and added
  blocks (mean, max), block types, palette categories, instruction words, tests per task and
  kill rate with the number of tasks that have them in brackets);
- `stats_charts(stats)`: the bar charts, each `{"id", "title", "unit", "bars": [{"label",
  "value", "note"}]}`: tasks per category (`tasks`), tasks per difficulty (`difficulty`),
  modified blocks per category, mean with the max as its note (`modified`), the golden
  projects' block types per palette category (`block_categories`) and review states
  (`review`); a chart with no bars is left out;
- `chart_svg(chart)`: one chart as a self-contained SVG string (horizontal bars scaled to the
  largest value, each labelled with its value; text escaped; no fonts or images fetched).
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

__all__ = ["chart_svg", "stats_charts", "stats_table"]

HEAD = ["Category", "Tasks", "Modified mean", "Modified max", "Added mean", "Added max",
        "Block types", "Block cats", "Instr. words", "Tests/task", "Kill rate"]  # fmt: skip


def _num(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _row(name: str, g: dict[str, Any]) -> list[str]:
    kill, tests = g["kill_rate"], g["tests_per_task"]
    return [
        name, str(g["tasks"]),
        _num(g["modified_blocks"]["mean"]), _num(g["modified_blocks"]["max"]),
        _num(g["added_blocks"]["mean"]), _num(g["added_blocks"]["max"]),
        str(g["block_types"]), str(len(g["block_categories"])),
        _num(g["instruction_words"]["mean"]),
        f"{_num(tests['mean'])} ({tests['known']})",
        f"{_pct(kill['mean'])} ({kill['known']})",
    ]  # fmt: skip


def stats_table(stats: dict[str, Any]) -> dict[str, list[Any]]:
    """The per-category table (see the module doc)."""
    rows = [_row(name, g) for name, g in stats["categories"].items()]
    rows.append(_row("all", stats["overall"]))
    return {"head": list(HEAD), "rows": rows}


def _bars(counts: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"label": str(k), "value": v, "note": ""} for k, v in counts.items()]


def stats_charts(stats: dict[str, Any]) -> list[dict[str, Any]]:
    """The bar charts of a set's figures (see the module doc)."""
    overall, cats = stats["overall"], stats["categories"]
    modified = [
        {
            "label": c,
            "value": g["modified_blocks"]["mean"],
            "note": f"max {g['modified_blocks']['max']}",
        }
        for c, g in cats.items()
        if g["modified_blocks"]["mean"] is not None
    ]
    charts = [
        ("tasks", "Tasks per category", "tasks", _bars({c: g["tasks"] for c, g in cats.items()})),
        ("difficulty", "Tasks per difficulty", "tasks", _bars(overall["difficulty"])),
        ("modified", "Modified blocks per category (mean)", "blocks", modified),
        (
            "block_categories",
            f"Block types per palette category ({overall['block_types']} types)",
            "block types",
            _bars(overall["block_categories"]),
        ),
        ("review", "Review states", "tasks", _bars(overall["review_states"])),
    ]
    return [
        {"id": cid, "title": title, "unit": unit, "bars": bars}
        for cid, title, unit, bars in charts
        if bars
    ]


LABEL_W, BAR_W, VALUE_W, ROW_H, TOP = 150, 260, 110, 22, 28


def chart_svg(chart: dict[str, Any]) -> str:
    """One chart as an SVG document string (see the module doc)."""
    bars = chart["bars"]
    top = max((float(b["value"]) for b in bars), default=0.0) or 1.0
    width, height = LABEL_W + BAR_W + VALUE_W, TOP + ROW_H * len(bars) + 6
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(chart["title"])}" '
        'font-family="sans-serif" font-size="12">',
        f'<text x="0" y="16" font-weight="bold" fill="#222">{escape(chart["title"])}</text>',
    ]
    for i, bar in enumerate(bars):
        y = TOP + i * ROW_H
        length = round(BAR_W * float(bar["value"]) / top, 1)
        value = _num(bar["value"]) + (f" ({bar['note']})" if bar["note"] else "")
        parts.append(
            f'<g class="bar"><text x="{LABEL_W - 6}" y="{y + 14}" text-anchor="end" '
            f'fill="#333">{escape(bar["label"])}</text>'
            f'<rect x="{LABEL_W}" y="{y + 3}" width="{length}" height="{ROW_H - 6}" '
            f'fill="#4c97ff"/>'
            f'<text x="{LABEL_W + length + 4}" y="{y + 14}" fill="#333">{escape(value)}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)

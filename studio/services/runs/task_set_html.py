"""The HTML report's "Task set" section: the statistics of the tasks the report's runs played.

The figures are the bundle's (`bundle.set_figures.bundle_stats`: `studio stats` over the task
folders the episodes recorded, its table and its bar charts drawn as SVG by
`authoring.set_charts`), shown the way the bundle shows them: a heading with the number of
tasks, the per-category table, each chart as an `<img>` of its SVG (a data URI, so the page stays
one self-contained file with no script), and the tasks whose folder could not be read named.
"""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

__all__ = ["task_set_html"]


def task_set_html(task_set: dict[str, Any] | None) -> str:
    """The section for `task_set` (a `bundle_stats` result); "" for None (no task found)."""
    if not task_set:
        return ""
    table = task_set["table"]
    head = "".join(f"<th>{escape(str(h))}</th>" for h in table["head"])
    rows = "".join(
        "<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>"
        for row in table["rows"]
    )
    charts = "".join(
        f'<img class="set-chart" data-chart="{escape(c["id"])}" alt="{escape(c["title"])}" '
        f'src="data:image/svg+xml;charset=utf-8,{quote(c["svg"], safe="")}">'
        for c in task_set["charts"]
    )
    parts = [
        f'\n<section id="task-set"><h2>Task set: {int(task_set["tasks"])} task(s) the runs '
        "played</h2>",
        f'<table class="task-set"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>',
        f'<div class="set-charts">{charts}</div>',
    ]
    if task_set.get("missing"):
        names = ", ".join(escape(str(t)) for t in task_set["missing"])
        parts.append(
            f'<p class="meta">Not in these figures (no readable task folder recorded): {names}</p>'
        )
    parts.append("</section>")
    return "".join(parts)

"""The HTML report's repair measures of a mode: per agent with debug episodes measured, the mean
d_edit and semantic drift with their intervals (`repair_measures.repair_line`), as a list."""

from __future__ import annotations

from html import escape

from studio.models.report import ReportRow
from studio.services.runs.repair_measures import repair_line

__all__ = ["repair_html"]


def repair_html(rows: list[ReportRow]) -> str:
    """A "Repair measures" list for `rows` ("" when no row has debug episodes measured)."""
    items = [
        f"<li><b>{escape(row.agent)}</b>: {escape(line)}</li>"
        for row in rows
        if (line := repair_line(row.overall))
    ]
    if not items:
        return ""
    return '<h3>Repair measures (debug tasks)</h3><ul class="repair">' + "".join(items) + "</ul>"

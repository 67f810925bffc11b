"""The studio's own report metrics (registered by name in `report_metrics.METRICS`): each a
function (report, mode) -> the lines it adds under that mode's table in `studio report`."""

from __future__ import annotations

from studio.models.report import RunReport
from studio.services.runs.epochs import epoch_line
from studio.services.runs.repair_measures import repair_line
from studio.services.runs.reports import interval_line

__all__ = ["d_edit_lines", "interval_lines"]


def interval_lines(report: RunReport, mode: str) -> list[str]:
    """Per row of `mode`: its interval line, its per-epoch line, the episodes not counted."""
    lines = []
    for row in report.rows_for(mode):
        lines.append(f"  {row.agent}: {interval_line(row.overall)}")
        if by_epoch := epoch_line(row):
            lines.append(f"  {by_epoch}")
        lines.extend(f"    not counted: {line}" for line in row.not_counted)
    return lines


def d_edit_lines(report: RunReport, mode: str) -> list[str]:
    """Per row of `mode` with debug episodes measured: the mean d_edit and semantic drift,
    over how many, with their intervals (`repair_measures.repair_line`)."""
    lines = [(row.agent, repair_line(row.overall)) for row in report.rows_for(mode)]
    return [f"  {agent}: {line}" for agent, line in lines if line]

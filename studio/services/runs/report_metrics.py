"""The report's metrics by name: the lines under each mode's table of `studio report`.

`METRICS` names, in the order the report prints them, a function (report, mode) -> the text
lines it adds under that mode's SR/PSR table (none when it has nothing to say). The grid
itself (SR, PSR per category, time per task) is the table; what a metric adds is read from
the report's rows (`studio.models.report`). `reports.format_table` prints every registered
metric; `studio report --help` lists them. The studio's own are in `metric_lines` (imported
on the first report). A new metric is a function and one `add` line here (or
`@METRICS.register(NAME, help)` on the function).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from studio.services.core.registry import Registry

if TYPE_CHECKING:
    from studio.models.report import RunReport

__all__ = ["METRICS", "MetricLines"]

MetricLines = Callable[["RunReport", str], list[str]]

METRICS: Registry[MetricLines] = Registry("report metric")
METRICS.add(
    "intervals",
    "studio.services.runs.metric_lines:interval_lines",
    "per agent: episodes, 95% intervals of SR (Wilson) and PSR (t over tasks), pass@k and "
    "pass^k, episodes not counted, tokens and cost, SR per epoch",
)
METRICS.add(
    "d_edit",
    "studio.services.runs.metric_lines:d_edit_lines",
    "per agent with debug episodes: the mean edit distance to the minimal fix",
)

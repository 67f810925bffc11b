"""Runs and what is made of them: reports (text, JSON, HTML), static bundles, re-scoring,
and recorded trajectories (view, compare, archive). Campaigns are studio.app.campaigns.

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.runs.bundle import write_bundle
    from studio.services.runs.report_html import render_html
    from studio.services.runs.reports import format_table, report_for
    from studio.services.runs.rescore import RESCORE_FILE, rescore
    from studio.services.runs.trajectories.archive import (
        open_archive,
        read_manifest,
        recorded_task_folder,
    )
    from studio.services.runs.trajectories.catalog import RunRow, list_runs
    from studio.services.runs.trajectories.compare import Comparison, compare
    from studio.services.runs.trajectories.export import export_archive
    from studio.services.runs.trajectories.geometry import action_point
    from studio.services.runs.trajectories.text import (
        format_comparison,
        format_timeline,
        timeline_json,
    )
    from studio.services.runs.trajectories.view import TERMINAL_APIS, TrajectoryView, load_view

__getattr__ = lazy.exports(
    __name__,
    {
        "Comparison": ("studio.services.runs.trajectories.compare", "Comparison"),
        "RESCORE_FILE": ("studio.services.runs.rescore", "RESCORE_FILE"),
        "RunRow": ("studio.services.runs.trajectories.catalog", "RunRow"),
        "TERMINAL_APIS": ("studio.services.runs.trajectories.view", "TERMINAL_APIS"),
        "TrajectoryView": ("studio.services.runs.trajectories.view", "TrajectoryView"),
        "action_point": ("studio.services.runs.trajectories.geometry", "action_point"),
        "compare": ("studio.services.runs.trajectories.compare", "compare"),
        "export_archive": ("studio.services.runs.trajectories.export", "export_archive"),
        "format_comparison": ("studio.services.runs.trajectories.text", "format_comparison"),
        "format_table": ("studio.services.runs.reports", "format_table"),
        "format_timeline": ("studio.services.runs.trajectories.text", "format_timeline"),
        "list_runs": ("studio.services.runs.trajectories.catalog", "list_runs"),
        "load_view": ("studio.services.runs.trajectories.view", "load_view"),
        "open_archive": ("studio.services.runs.trajectories.archive", "open_archive"),
        "read_manifest": ("studio.services.runs.trajectories.archive", "read_manifest"),
        "recorded_task_folder": (
            "studio.services.runs.trajectories.archive",
            "recorded_task_folder",
        ),
        "render_html": ("studio.services.runs.report_html", "render_html"),
        "report_for": ("studio.services.runs.reports", "report_for"),
        "rescore": ("studio.services.runs.rescore", "rescore"),
        "timeline_json": ("studio.services.runs.trajectories.text", "timeline_json"),
        "write_bundle": ("studio.services.runs.bundle", "write_bundle"),
    },
)

__all__ = [
    "RESCORE_FILE",
    "TERMINAL_APIS",
    "Comparison",
    "RunRow",
    "TrajectoryView",
    "action_point",
    "compare",
    "export_archive",
    "format_comparison",
    "format_table",
    "format_timeline",
    "list_runs",
    "load_view",
    "open_archive",
    "read_manifest",
    "recorded_task_folder",
    "render_html",
    "report_for",
    "rescore",
    "timeline_json",
    "write_bundle",
]
# --- end of re-exports ---

"""Runs and what is made of them: batches and campaigns, reports (text, JSON, HTML),
static bundles, re-scoring, and recorded trajectories (view, compare, archive).

What the window and the command line use of the services, in one place.
"""

from __future__ import annotations

# --- re-exported services (generated from what the front ends import) ---
from studio.services.runs import campaign
from studio.services.runs.batch import run_batch, run_dir_name
from studio.services.runs.bundle import write_bundle
from studio.services.runs.campaign import Ledger, Manifest, plan_jobs
from studio.services.runs.report_html import render_html
from studio.services.runs.reports import format_table, report_for
from studio.services.runs.rescore import RESCORE_FILE, rescore
from studio.services.runs.trajectories.archive import (
    export_archive,
    open_archive,
    read_manifest,
    recorded_task_folder,
)
from studio.services.runs.trajectories.catalog import RunRow, list_runs
from studio.services.runs.trajectories.compare import Comparison, compare
from studio.services.runs.trajectories.geometry import action_point
from studio.services.runs.trajectories.text import format_comparison, format_timeline, timeline_json
from studio.services.runs.trajectories.view import TERMINAL_APIS, TrajectoryView, load_view

__all__ = [
    "RESCORE_FILE",
    "TERMINAL_APIS",
    "Comparison",
    "Ledger",
    "Manifest",
    "RunRow",
    "TrajectoryView",
    "action_point",
    "campaign",
    "compare",
    "export_archive",
    "format_comparison",
    "format_table",
    "format_timeline",
    "list_runs",
    "load_view",
    "open_archive",
    "plan_jobs",
    "read_manifest",
    "recorded_task_folder",
    "render_html",
    "report_for",
    "rescore",
    "run_batch",
    "run_dir_name",
    "timeline_json",
    "write_bundle",
]
# --- end of re-exports ---

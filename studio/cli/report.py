"""`studio report RUNS_DIR`: SR and PSR per category, agent and mode over recorded runs, with
their intervals, pass@k and pass^k, environment failures, tokens and cost; drag and QA scores.

Prints the tables (or --json the report); --html FILE also writes a self-contained page,
--bundle DIR a static site of the runs. Exit codes: 0 done; 2 no runs to report on (or a
file that cannot be read; the message names it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.app.extensions import METRICS
from studio.cli.common import EXIT_OK

if TYPE_CHECKING:
    from studio.models.study_report import StudyTables


def register(subparsers: Any) -> None:
    """Add `report` to the studio's sub-commands."""
    rp = subparsers.add_parser(
        "report",
        help="SR and PSR per category, agent and mode over recorded runs",
        description="Read every run.json below RUNS_DIR and show the SR/PSR grid. SR and PSR "
        "are means over tasks (a task's episodes averaged first). Below each table: the 95% "
        "interval of SR (Wilson score interval over episodes) and of PSR (Student t interval "
        "over the tasks' mean PSR: a task's epochs form one cluster), pass@k (the unbiased "
        "estimator of Chen et al. 2021, 1 - C(n-c,k)/C(n,k), averaged over tasks) and pass^k "
        "(C(c,k)/C(n,k)) for k up to the fewest episodes of a task, environment failures, and "
        "tokens and cost. Drag and QA scores get Wilson intervals over their items.",
        epilog="Lines under each table (report metrics): " + METRICS.describe(),
    )
    rp.add_argument("runs_dir", type=Path, metavar="RUNS_DIR")
    rp.add_argument("--html", type=Path, metavar="FILE", help="also write a self-contained page")
    rp.add_argument("--json", action="store_true", help="print the report as JSON")
    rp.add_argument(
        "--bundle",
        type=Path,
        metavar="DIR",
        help="also write a static site into DIR (open DIR/index.html from disk, no server): "
        "the tables, every episode's steps with the action drawn, filters, two runs compared",
    )
    rp.add_argument(
        "--compare",
        nargs=2,
        metavar=("A", "B"),
        help="compare two agents (AGENT or AGENT/MODE) or two run folders (a campaign's, with "
        "its epochs) task by task: per category and overall, "
        "the discordant counts and the exact McNemar p-value",
    )
    rp.set_defaults(handler=show_report)


def show_report(args: argparse.Namespace) -> int:
    """`studio report`: print (and write) the report; the exit code (see the module doc)."""
    from studio.services.runs.report_html import render_html
    from studio.services.runs.reports import format_table, report_for

    report = report_for(args.runs_dir)
    if getattr(args, "compare", None):
        from studio.services.runs.compare import compare_rows, format_paired

        paired = compare_rows(report, *args.compare)
        if args.json:
            print(paired.model_dump_json(indent=2))
        else:
            sys.stdout.write(format_paired(paired))
        return EXIT_OK
    studies = _study_tables(args.runs_dir)
    report.studies = [tables for _, _, tables in studies]  # in --json and the bundle's data
    if args.html:
        from studio.services.core import atomic

        page = render_html(report, task_set=_task_set(args.runs_dir))
        page = _with_task_cards(page, args.runs_dir)
        if studies:
            extra = "".join(html for _, html, _ in studies)
            page = (
                page.replace("</body>", extra + "</body>", 1) if "</body>" in page else page + extra
            )
        atomic.write_text(args.html, page)
    bundle = None
    if getattr(args, "bundle", None):
        from studio.services.runs.bundle import write_bundle

        bundle = write_bundle(args.runs_dir, args.bundle, report)
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        sys.stdout.write(format_table(report))
        for text, _, _ in studies:
            sys.stdout.write("\n" + text)
        if args.html:
            print(f"HTML report written to {args.html}")
        if bundle is not None:
            print(
                f"bundle written to {bundle.index} ({bundle.episodes} episodes, "
                f"{bundle.images} screenshots, {bundle.seconds:.1f} s)"
            )
    return EXIT_OK


def _with_task_cards(page: str, runs_dir: Path) -> str:
    """The page with the cards of the tasks its runs played (services.runs.task_cards)."""
    from studio.services.runs.task_cards import task_cards_html

    cards = task_cards_html(runs_dir)
    return page.replace("</body>", cards + "</body>", 1) if "</body>" in page else page + cards


def _study_tables(runs_dir: Path) -> list[tuple[str, str, StudyTables]]:
    """(text, HTML, data) of each human baseline study found at or below RUNS_DIR (studio
    study); the data is the study's StudyTables."""
    from studio.services.studies.board import read_board
    from studio.services.studies.plan import load_study
    from studio.services.studies.results import (
        find_studies,
        format_results,
        results_html,
        study_results,
        study_tables,
    )

    tables = []
    for folder in find_studies(runs_dir):
        plan = load_study(folder)
        results = study_results(plan, read_board(folder, plan))
        tables.append(
            (format_results(results), results_html(results), study_tables(results, folder))
        )
    return tables


def _task_set(root: Path) -> dict[str, Any] | None:
    """The statistics of the tasks the runs below `root` played, as the bundle shows them."""
    from studio.services.runs.bundle.set_figures import bundle_stats
    from studio.services.runs.bundle.writer import collect_entries

    return bundle_stats(collect_entries(root))

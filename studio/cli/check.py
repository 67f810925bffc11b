"""`studio check` (the adversarial check of task folders and libraries) and `studio equivalent`
(mark a surviving mutant as equivalent to the golden, with a reason, or undo the mark).

`check`: golden passes, initial fails, mutants fail, reruns agree; prints a line per task and a
summary (or --json: the tasks and the summary, with --with-results their golden and initial
results too; --profile: the time of each phase). Each task's last check is kept beside it
(`last_check.json`, as the window keeps it, so the window's library shows the verdict; a line
after the text report counts them; --no-record keeps none). Evaluations run in this machine's
browser or with --ray on a cluster's workers. Exit codes: 0 every task valid; 1 some task is not; 2
unusable input (no task folder, an edition that is not installed); 130 cancelled (the
evaluations in flight, here or on a cluster, ended). `equivalent`: 0 marked; 2 a task that
cannot be read.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.cli.common import EXIT_FAILED, EXIT_OK, ProgressBar, interrupted
from studio.cli.ranges import integer
from studio.services.core.store import load_task
from studio.services.runtime import editions
from studio.services.runtime.pool_size import default_workers

if TYPE_CHECKING:  # the checker (mutation engine and its models) loads for `check` only
    from studio.app.task_checks import CheckedTasks
    from studio.models.check import CheckReport, TaskCheck


def register(sub: Any) -> None:
    """Add `check` and `equivalent` to the studio's sub-commands."""
    ck = sub.add_parser(
        "check", help="adversarial check: golden passes, initial and mutants fail, reruns agree"
    )
    ck.add_argument("paths", type=Path, nargs="+", help="task folders or libraries")
    ck.add_argument(
        "--mutants", type=integer(0), default=10, help="mutants per task, 0 or more (0: none)"
    )
    ck.add_argument(
        "--reruns",
        type=integer(1),
        default=3,
        help="runs per project (1 or more), each with a seed",
    )
    ck.add_argument(
        "--workers",
        type=integer(1),
        default=None,
        help="evaluations in parallel, 1 or more (default: the cores, or STUDIO_CORES, plus one)",
    )
    ck.add_argument("--seed", type=int, default=0, help="base seed (rerun i uses seed + i)")
    ck.add_argument("--realtime", action="store_true", help="force the real clock")
    ck.add_argument(
        "--compare-clocks",
        action="store_true",
        help="also run golden and initial in real time once and compare the verdicts "
        "(cached per task content; a task whose clocks disagree is then checked in real time)",
    )
    ck.add_argument("--json", action="store_true", help="print the report as JSON")
    ck.add_argument(
        "--profile",
        action="store_true",
        help="print each task's mean seconds per evaluation by phase (page ready, page wait, "
        "project load, script); with --json they are in each task's `phases`",
    )
    editions.add_argument(ck)
    ck.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="evaluate on a Ray cluster: `local` starts one here, else HOST:PORT of a running "
        "cluster (--workers is then per node)",
    )
    ck.add_argument(
        "--with-results",
        action="store_true",
        help="with --json: also each task's golden and initial results (tests, timings)",
    )
    ck.add_argument(
        "--no-record",
        action="store_true",
        help="keep no last_check.json beside the tasks (by default each task's last check is "
        "kept there, and the window's library shows its verdict)",
    )
    ck.set_defaults(handler=check)

    eq = sub.add_parser("equivalent", help="mark a surviving mutant as equivalent, with a reason")
    eq.add_argument("task_dir", type=Path)
    eq.add_argument("mutant_id", help="the id `studio check` printed for the survivor")
    eq.add_argument("--reason", required=True, help="why the mutant behaves like the golden")
    eq.add_argument("--by", default="", help="who decided")
    eq.add_argument("--undo", action="store_true", help="remove the mark instead")
    eq.add_argument(
        "--mutants",
        type=int,
        default=10,
        help="the --mutants of the check that listed the survivor (default 10, as `check`)",
    )
    eq.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the --seed of the check that listed the survivor (default 0, as `check`)",
    )
    eq.set_defaults(handler=equivalent)


def check(args: argparse.Namespace) -> int:
    """`studio check`: the exit code (see the module doc)."""
    try:
        return asyncio.run(_check(args))
    except KeyboardInterrupt:  # the evaluations in flight (here or on a cluster) ended
        return interrupted("\ncheck cancelled")


async def _check(args: argparse.Namespace) -> int:
    from studio.app import runners
    from studio.app.clocks import clock_policy
    from studio.app.task_checks import check_and_record, gather_tasks

    tasks = gather_tasks(list(args.paths))
    policy = clock_policy(args.realtime, args.compare_clocks)
    options = policy.options(
        args.mutants, args.reruns, args.workers or default_workers(), args.seed
    )
    with ProgressBar(len(tasks.entries) + len(tasks.errors), "task") as bar:

        def progress(done: int, _total: int, check: TaskCheck) -> None:
            bar.advance(done, check.id, check.verdict.value, check.ok)

        edition = editions.choose(args.edition, list(args.paths))
        async with runners.evaluator(args.ray, options.workers, edition) as evaluator:
            checked = await check_and_record(
                evaluator, tasks, options, policy, progress, record=not args.no_record
            )
    report = checked.report
    if args.json:
        print(json.dumps(report_json(report, args.with_results), indent=2))
    else:
        _print_report(report)
        if args.profile:
            _print_profile(report)
        _print_recorded(checked)
    for problem in checked.not_recorded.values():
        print(f"warning: {problem}", file=sys.stderr)
    return EXIT_OK if report.ok else EXIT_FAILED


def _print_recorded(checked: CheckedTasks) -> None:
    """One line after the report: how many verdicts were kept for the library's column."""
    from studio.app.task_checks import RECORD_FILE

    if checked.recorded:
        kept = len(checked.recorded)
        tasks = f"{kept} task{'s' if kept != 1 else ''}"
        print(f"recorded as the last check of {tasks} ({RECORD_FILE}, shown in the window)")


def report_json(report: CheckReport, with_results: bool = False) -> dict[str, object]:
    keys = {
        "id",
        "category",
        "folder",
        "golden_passed",
        "initial_failed",
        "ok",
        "errors",
        "verdict",
        "clock",
        "clock_note",
        "reruns",
        "mutants_total",
        "mutants_killed",
        "mutants_invalid",
        "mutants_equivalent",
        "survivors",
        "flaky",
        "seconds",
        "kill_rate",
        "phases",
    }
    if with_results:
        keys |= {"golden", "initial"}
    return {
        "tasks": [t.model_dump(mode="json", include=keys) for t in report.tasks],
        "summary": report.summary.model_dump(mode="json"),
    }


def _print_profile(report: CheckReport) -> None:
    """Where each task's evaluations spent their time (means per evaluation, seconds), and its
    script phase in parts: the VM's steps, the stage drawn, the helper library's and script's
    timers, the turns between them, then the page's release and the pool's post-run check."""
    print(f"{'profile':<36} {'ready':>6} {'wait':>6} {'load':>6} {'script':>7} {'total':>6}")
    for t in report.tasks:
        if t.phases is not None:
            p = t.phases
            print(
                f"{t.id:<36} {p.page_ready_s:6.2f} {p.page_wait_s:6.2f} "
                f"{p.project_load_s:6.2f} {p.script_s:7.2f} {p.total_s:6.2f}"
            )
    print(
        f"{'script phase':<36} {'steps':>6} {'passes':>7} {'skipped':>7} {'step s':>7} "
        f"{'draws':>6} {'draw s':>7} "
        f"{'timers':>7} {'timer s':>8} {'turn s':>7} {'release':>8} {'check':>6}"
    )
    rows = [(t.id, t.phases) for t in report.tasks if t.phases is not None]
    for name, p in [*rows, ("(all evaluations)", report.summary.phases)]:
        print(
            f"{name:<36} {p.vm_steps:6.0f} {p.vm_passes:7.0f} {p.vm_skipped:7.0f} "
            f"{p.vm_step_s:7.3f} {p.draws:6.1f} {p.draw_s:7.3f} "
            f"{p.timers:7.0f} {p.timer_s:8.3f} {p.turn_s:7.3f} {p.release_s:8.3f} "
            f"{p.check_s:6.3f}"
        )


def _print_report(report: CheckReport) -> None:
    for t in report.tasks:
        golden = {True: "golden passes", False: "golden FAILS", None: "golden -"}[t.golden_passed]
        initial = {True: "initial fails", False: "initial passes", None: "initial -"}[
            t.initial_failed
        ]
        mutants = ""
        if t.mutants_total:
            valid = t.mutants_total - t.mutants_invalid
            rate = f" ({t.kill_rate:.0%})" if t.kill_rate is not None else ""
            mutants = f"  mutants {t.mutants_killed}/{valid} killed{rate}"
        print(f"{t.verdict.value:<8} {t.id:<34} {golden:<14} {initial:<15}{mutants}  [{t.clock}]")
        for err in t.errors:
            print(f"         - {err}")
        for f in t.flaky:
            print(f"         - flaky: {f.project} test '{f.test}' passed {f.passed_runs}/{f.runs}")
        for sv in t.survivors:
            tag = "equivalent" if sv.equivalent_reason else ("flaky" if sv.flaky else "survived")
            print(f"         - {tag}: {sv.id}: {sv.description}")
        if t.clock_note:
            print(f"         - clock: {t.clock_note}")
    s = report.summary
    if s.weakest:
        print("weakest scripts (lowest mutation kill rate first):")
        for w in s.weakest:
            print(
                f"  {w.id:<34} {w.kill_rate:>4.0%}  killed {w.mutants_killed}/{w.mutants_ran}, "
                f"{w.survivors} survivors"
            )
    rate = f"; mutation kill rate {s.kill_rate:.0%}" if s.kill_rate is not None else ""
    print(
        f"{s.ok}/{s.tasks} tasks valid; {s.evaluations} evaluations in {s.seconds:.1f} s "
        f"({s.evaluations_per_minute:.1f} per minute){rate}"
    )
    if s.evaluations:
        p = s.phases
        print(
            f"per evaluation: waited for a page {p.page_wait_s:.2f} s (pages load in "
            f"{p.page_ready_s:.2f} s, ahead of need), project load {p.project_load_s:.2f} s, "
            f"script {p.script_s:.2f} s, total {p.total_s:.2f} s"
        )


def equivalent(args: argparse.Namespace) -> int:
    from studio.app import equivalence

    entry = load_task(args.task_dir)
    if args.undo:
        equivalence.unmark_by_id(entry, args.mutant_id)
    else:
        equivalence.mark_by_id(
            entry, args.mutant_id, args.reason, args.by, max(0, args.mutants), args.seed
        )
    verb = "no longer marked" if args.undo else "marked"
    print(f"{entry.task.id}: mutant {args.mutant_id} {verb} equivalent")
    return EXIT_OK

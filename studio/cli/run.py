"""`studio run`: play a campaign (new, or --resume RUN_DIR) and print its summary.

The campaign's manifest, limits and resume are studio.cli.campaign's; the episodes are played
by `batch.run_batch` in this process's browser, through a server (`--api URL`) or on a Ray
cluster (`--ray ADDRESS`). Limits (steps, wall
time, tokens, cost) and the price table apply wherever the episodes play.

Start (bench/bench_resume.py measures it): the campaign is read and planned first, so bad
input and a resume with nothing left fail or end before any browser starts (planning a
1,000-episode resume takes hundredths of a second); then the browser starts and the first
episode's editor page loads alone, its spares and the evaluation spares only once it is set up
(studio.services.episodes.episode). Only the modules the run needs are imported (not the checker,
nor the HTTP client unless --api or the LLM agent needs it).

Exit codes: 0 every episode played; 1 some episodes crashed; 2 unusable input (no tasks, bad
flags, a resume that does not match its campaign); 130 stopped (the finished episodes are kept
and the note says how to resume).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.app.agents import EPISODE_AGENTS, episode_agents
from studio.app.errors import TaskFileError
from studio.app.library import TaskFolder, scan_library
from studio.cli.baselines import add_baselines_flag, baseline_args
from studio.cli.common import EXIT_FAILED, EXIT_OK, ProgressBar, interrupted
from studio.cli.protocol_flags import add_protocol_flags
from studio.models.agent import Mode

AGENTS = EPISODE_AGENTS


def register(subparsers: Any) -> None:
    """Add `run` to the studio's sub-commands."""
    rn = subparsers.add_parser(
        "run",
        help="run an agent on tasks and record every episode (a resumable campaign)",
        description="Run AGENT on every task in TASKS; each episode is recorded under "
        "OUT/<agent>-<mode>-<timestamp>/<task id>/ (<task id>/epoch-<e>/ with --epochs), "
        "with a campaign.json manifest and a results.jsonl of finished episodes. "
        "--resume RUN_DIR plays only the episodes of that campaign that have no result.",
    )
    rn.add_argument("tasks", type=Path, nargs="*", metavar="TASKS", help="task folders/libraries")
    rn.add_argument("--agent", choices=AGENTS, help="which agent acts (required unless --resume)")
    rn.add_argument("--mode", choices=[m.value for m in Mode], help="default: composite")
    rn.add_argument(
        "--epochs", type=int, help="play each task K times (seed fixed per epoch; default 1)"
    )
    rn.add_argument(
        "--resume",
        type=Path,
        metavar="RUN_DIR",
        help="go on with the campaign in RUN_DIR (TASKS, when given, must be its tasks)",
    )
    rn.add_argument(
        "--retries",
        type=int,
        help="replays of an episode after a failure of the environment (browser crash, page "
        "or endpoint time-out, 5xx of the model's endpoint); default 2",
    )
    rn.add_argument("--workers", type=int, default=1, help="episodes side by side")
    rn.add_argument("--out", type=Path, default=Path("runs"), help="folder for the runs")
    rn.add_argument("--steps", type=int, help="step limit per episode")
    rn.add_argument("--seed", type=int, help="base seed (random agent; default 0)")
    rn.add_argument(
        "--realtime",
        action="store_true",
        default=None,
        help="evaluate on the real clock (default: accelerated unless a task needs real time)",
    )
    rn.add_argument(
        "--actions",
        type=Path,
        help="scripted agent: a JSON list of actions, or a folder with <task id>.json files "
        "or recorded runs (<task id>/steps.jsonl) to replay",
    )
    rn.add_argument(
        "--api", metavar="URL", help="act through a running `studio serve` at URL (same machine)"
    )
    rn.add_argument("--token", help="the server's token (default: STUDIO_TOKEN)")
    rn.add_argument("--token-file", type=Path, help="read the server's token from this file")
    rn.add_argument("--max-seconds", type=float, help="wall-time limit per episode")
    rn.add_argument("--max-tokens", type=int, help="token limit per episode (prompt+completion)")
    rn.add_argument("--max-cost", type=float, help="cost limit per episode (needs --prices)")
    rn.add_argument(
        "--prices",
        type=Path,
        metavar="FILE",
        help='price table, JSON or TOML: {"currency": "USD", "per_tokens": 1000000, '
        '"models": {"MODEL": {"prompt": P, "completion": C}}}',
    )
    rn.add_argument("--json", action="store_true", help="print the summary as JSON")
    rn.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play the episodes on a Ray cluster: `local` starts one here, else HOST:PORT of "
        "a running cluster (--workers is then per node); trajectories are written here",
    )
    add_protocol_flags(rn, "run")
    add_baselines_flag(rn)
    rn.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """`studio run`: play the campaign (and with --baselines the idle and random ones); the
    exit code (see the module doc)."""
    extras = baseline_args(args)  # before the campaign changes args
    current = args
    try:
        code = asyncio.run(run_campaign(args))
        for current in extras:
            print(f"baseline: the {current.agent} agent", file=sys.stderr)
            code = max(code, asyncio.run(run_campaign(current)))
        return code
    except KeyboardInterrupt:
        run_dir = getattr(current, "campaign_dir", None)
        if run_dir is None:
            return interrupted()
        return interrupted(
            f"\nstopped; the finished episodes are kept: `studio run --resume {run_dir}` "
            "plays the rest"
        )


@dataclass
class _Plan:
    """What `studio run` plays: the campaign read and checked, then the episodes left
    (`jobs`, campaign.Job) planned from its ledger."""

    tasks: list[TaskFolder]
    run_dir: Path
    manifest: Any  # campaign.Manifest
    limits: Any
    prices: Any
    agent_for: Any
    ledger: Any = None  # campaign.Ledger
    jobs: list[Any] = field(default_factory=list)


async def run_campaign(args: argparse.Namespace) -> int:
    """Play the campaign `args` give: read and plan it (bad input fails here, before any
    browser starts; a resume with nothing left plays nothing), then play what is left."""
    plan = _read_campaign(args)
    if not _plan_episodes(args, plan):
        return EXIT_OK
    return await _play(args, plan)


def _read_campaign(args: argparse.Namespace) -> _Plan:
    """Read (or write) the manifest; the limits, prices and agent (args then hold the
    campaign's settings)."""
    from studio.cli.campaign import campaign_for, limits_for

    tasks, run_dir, manifest = campaign_for(args, collect_tasks)
    args.campaign_dir = run_dir  # named if the run is stopped
    limits, prices = limits_for(args)
    agent_for = episode_agents(
        manifest.agent, manifest.mode, args.seed, args.actions, args.protocol_record.settings
    )
    return _Plan(tasks, run_dir, manifest, limits, prices, agent_for)


def _plan_episodes(args: argparse.Namespace, plan: _Plan) -> bool:
    """Read the ledger and plan the episodes left; False when a resume finds none."""
    from studio.app.runs import Ledger, plan_jobs

    plan.ledger = Ledger(plan.run_dir)
    for warning in plan.ledger.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    plan.jobs, finished = plan_jobs(plan.tasks, plan.run_dir, plan.manifest.epochs, plan.ledger)
    if args.resume:
        print(f"resuming {plan.run_dir}: {finished} episode(s) finished, {len(plan.jobs)} to play")
        if not plan.jobs:
            print(f"nothing left to play; `studio report {plan.run_dir}` shows the campaign")
    sys.stdout.flush()
    return bool(plan.jobs)


async def _play(args: argparse.Namespace, plan: _Plan) -> int:
    """Play the planned episodes where `_episodes` says."""
    from studio.app.editor import AgreementCache, clock_for
    from studio.app.runs import run_batch

    cache = AgreementCache()
    async with _episodes(args, plan) as runner:
        problems = await _task_problems(plan, runner, sys.stderr if args.json else sys.stdout)
        with ProgressBar(len(plan.jobs), "episode", rate="SR") as progress:

            def on_done(done: int, total: int, outcome: Any) -> None:
                progress.on_outcome(done, total, outcome)
                if not args.json:  # each episode's line as it ends (a pipe, a Ctrl+C later)
                    progress.write(outcome.line())

            batch = await run_batch(
                runner,
                plan.tasks,
                plan.agent_for,
                plan.manifest.mode,
                plan.run_dir,
                args.workers,
                plan.manifest.agent,
                on_done,
                clock_for=lambda task: clock_for(task, args.realtime, cache),
                epochs=plan.manifest.epochs,
                ledger=plan.ledger,
                jobs=plan.jobs,
                retries=args.retries,
                limits=plan.limits,
                prices=plan.prices,
                run_meta={"protocol": args.protocol_record.model_dump()},
            )
    run_dir = plan.run_dir
    if args.json:
        summary = batch.to_json()
        summary["task_problems"] = [{"task": p.task.task.id, "error": p.message} for p in problems]
        print(json.dumps(summary, indent=2))
    else:
        done = batch.finished
        print(
            f"SR {100 * batch.sr:.2f}% ({sum(o.success for o in done)}/{len(done)} finished "
            f"episodes)  PSR {100 * batch.psr:.2f}%  in {batch.seconds:.1f} s "
            f"({batch.episodes_per_hour():.0f} episodes/hour)"
        )
        if batch.task_failures:
            print(f"not counted in SR: {batch.task_failures} episode(s) the task failed")
        spent = batch.spent()
        if spent["prompt_tokens"] or spent["completion_tokens"]:
            cost = "" if spent["cost"] is None else f", cost {spent['cost']:.4f}"
            print(
                f"tokens: {spent['prompt_tokens']} prompt, {spent['completion_tokens']} "
                f"completion{cost}"
            )
        if batch.env_failures or batch.env_retries:
            print(
                f"environment failures: {batch.env_retries} retried, {batch.env_failures} left "
                "(played again by --resume)"
            )
        print(f"recorded in {run_dir}; `studio report {run_dir.parent}` shows the grid")
    return EXIT_FAILED if batch.errors or problems else EXIT_OK


async def _task_problems(plan: _Plan, runner: Any, out: Any) -> list[Any]:
    """Check the tasks before any agent plays (studio.services.runs.preflight): each broken
    task is named (on `out`) as the task's problem, recorded, and taken out of the plan."""
    from studio.app.runs import record_problems, task_problems

    try:
        context = runner.pool.context  # this process's browser, when the episodes play here
    except Exception:
        context = None  # elsewhere: a browser of its own parses the scripts
    problems = await task_problems(plan.tasks, context)
    if problems:
        for problem in problems:
            print(problem.line(), file=out)
        broken = {p.task.task.id for p in problems}
        record_problems(problems, plan.jobs, plan.manifest.mode, plan.manifest.agent)
        plan.jobs = [job for job in plan.jobs if job.task.task.id not in broken]
        print(
            f"{len(broken)} task(s) not played (the task's problem, not the agent's): fix "
            f"them, then `studio run --resume {plan.run_dir}` plays their episodes",
            file=out,
        )
        out.flush()
    return problems


def _episodes(args: argparse.Namespace, plan: _Plan) -> Any:
    """Where episodes play: this process's own browser, a server given by --api, or with
    --ray a cluster's workers (within the plan's limits and prices)."""
    from studio.app.runners import episode_runner

    return episode_runner(
        api=args.api,
        token=args.token,
        token_file=args.token_file,
        ray=args.ray,
        workers=args.workers,
        steps=args.steps,
        limits=plan.limits,
        prices=plan.prices,
        element_list=args.element_list,
    )


def collect_tasks(roots: list[Path]) -> list[TaskFolder]:
    """The tasks below `roots` (each id once, the first found); skipped folders are named on
    stderr; none at all is a TaskFileError."""
    tasks: list[TaskFolder] = []
    for root in roots:
        scan = scan_library(root)
        for err in scan.errors:
            print(f"skipped: {err}", file=sys.stderr)
        tasks.extend(scan.tasks)
    if not tasks:
        raise TaskFileError(roots[0], "holds no task folder (with task.json)")
    unique: dict[str, TaskFolder] = {}
    for task in tasks:
        unique.setdefault(task.task.id, task)
    return list(unique.values())

"""`studio run`: play a campaign (new, or --resume RUN_DIR) and print its summary.

The flags are parsed by studio.cli_env; the campaign's manifest, limits and resume by
studio.cli_campaign; the episodes are played by `batch.run_batch` in this process's browser,
through a server (`--api URL`) or on a Ray cluster (`--ray ADDRESS`). Limits (steps, wall
time, tokens, cost) and the price table apply wherever the episodes play.

Start (bench/bench_resume.py measures it): the campaign is read and planned first, so bad
input and a resume with nothing left fail or end before any browser starts (planning a
1,000-episode resume takes hundredths of a second); then the browser starts and the first
episode's editor page loads alone, its spares and the evaluation spares only once it is set up
(studio.services.episodes.episode). Only the modules the run needs are imported.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.app.errors import TaskFileError
from studio.app.library import TaskFolder, scan_library
from studio.cli_progress import ProgressBar

EXIT_OK, EXIT_FAILED = 0, 1


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
    from studio.app.agents import episode_agents
    from studio.cli_campaign import campaign_for, limits_for

    tasks, run_dir, manifest = campaign_for(args, _collect_tasks)
    args.campaign_dir = run_dir  # named if the run is stopped
    limits, prices = limits_for(args)
    agent_for = episode_agents(manifest.agent, manifest.mode, args.seed, args.actions)
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
    with ProgressBar(len(plan.jobs), "episode", rate="SR") as progress:
        async with _episodes(args, plan) as runner:
            batch = await run_batch(
                runner,
                plan.tasks,
                plan.agent_for,
                plan.manifest.mode,
                plan.run_dir,
                args.workers,
                plan.manifest.agent,
                progress.on_outcome,
                clock_for=lambda task: clock_for(task, args.realtime, cache),
                epochs=plan.manifest.epochs,
                ledger=plan.ledger,
                jobs=plan.jobs,
                retries=args.retries,
                limits=plan.limits,
                prices=plan.prices,
            )
    run_dir = plan.run_dir
    if args.json:
        print(json.dumps(batch.to_json(), indent=2))
    else:
        for outcome in batch.outcomes:
            print(outcome.line())
        n = len(batch.outcomes)
        print(
            f"SR {100 * batch.sr:.2f}% ({sum(o.success for o in batch.outcomes)}/{n})  "
            f"PSR {100 * batch.psr:.2f}%  in {batch.seconds:.1f} s "
            f"({batch.episodes_per_hour():.0f} episodes/hour)"
        )
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
    return EXIT_FAILED if batch.errors else EXIT_OK


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
    )


def _collect_tasks(roots: list[Path]) -> list[TaskFolder]:
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

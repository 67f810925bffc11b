"""`studio run`: play a campaign (new, or --resume RUN_DIR) and print its summary.

The flags become a request of studio.app.campaigns (studio.cli.campaign), which opens the
campaign (manifest, limits, resume) and plays its episodes in this process's browser, through
a server (`--api URL`) or on a Ray cluster (`--ray ADDRESS`); this module prints what its
progress events tell (a tqdm bar, each episode's line) and the summary. Limits (steps, wall
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
from pathlib import Path
from typing import Any

from studio.app.extensions import EPISODE_AGENTS, MODES
from studio.cli.baselines import add_baselines_flag, baseline_args
from studio.cli.common import EXIT_FAILED, EXIT_OK, ProgressBar, interrupted
from studio.cli.protocol_flags import add_protocol_flags


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
    rn.add_argument(
        "--agent",
        choices=EPISODE_AGENTS,
        help="which agent acts (required unless --resume): " + EPISODE_AGENTS.describe(),
    )
    rn.add_argument("--mode", choices=MODES, help="default: composite; " + MODES.describe())
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


async def run_campaign(args: argparse.Namespace) -> int:
    """Play the campaign `args` give (studio.app.campaigns): open and plan it (bad input fails
    here, before any browser starts; a resume with nothing left plays nothing), then play what
    is left, printing each episode's line as it ends and a bar drawn from the progress events."""
    from studio.app.campaigns import plan_episodes, play_campaign
    from studio.cli.campaign import campaign_for, request_for, warn

    opened = plan_episodes(campaign_for(args), request_for(args), warn)
    if args.resume:
        print(
            f"resuming {opened.run_dir}: {opened.finished} episode(s) finished, "
            f"{len(opened.jobs)} to play"
        )
        if not opened.jobs:
            print(f"nothing left to play; `studio report {opened.run_dir}` shows the campaign")
    sys.stdout.flush()
    if not opened.jobs:
        return EXIT_OK
    printer = _Printer(args.json)
    try:
        result = await play_campaign(opened, request_for(args), printer.on_event)
    finally:
        printer.close()
    _summary(args.json, result)
    return EXIT_FAILED if result.batch.errors or result.problems else EXIT_OK


class _Printer:
    """The progress events on the terminal: the tasks refused (on stdout, on stderr with
    --json), a bar of the episodes (tqdm, on a terminal) and each episode's line as it ends."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.bar: ProgressBar | None = None

    def on_event(self, event: Any) -> None:
        from studio.app.campaigns import CampaignStarted, EpisodeDone, TasksRefused

        if isinstance(event, TasksRefused):
            out = sys.stderr if self.as_json else sys.stdout
            for problem in event.problems:
                print(problem.line(), file=out)
            broken = {p.task.task.id for p in event.problems}
            print(
                f"{len(broken)} task(s) not played (the task's problem, not the agent's): fix "
                f"them, then `studio run --resume {event.run_dir}` plays their episodes",
                file=out,
            )
            out.flush()
        elif isinstance(event, CampaignStarted):
            self.bar = ProgressBar(event.total, "episode", rate="SR")
        elif isinstance(event, EpisodeDone) and self.bar is not None:
            self.bar.on_outcome(event.done, event.total, event.outcome)
            if not self.as_json:  # each episode's line as it ends (a pipe, a Ctrl+C later)
                self.bar.write(event.outcome.line())

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _summary(as_json: bool, result: Any) -> None:
    """The campaign's summary: JSON, or SR, PSR, speed, tokens and failures in lines."""
    batch, run_dir = result.batch, result.run_dir
    if as_json:
        summary = batch.to_json()
        summary["task_problems"] = [
            {"task": p.task.task.id, "error": p.message} for p in result.problems
        ]
        print(json.dumps(summary, indent=2))
        return
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

"""The campaign side of `studio run` (studio.cli.run): the tasks, run folder and manifest of a
new campaign or of the one --resume names (whose settings then become the run's), and the
per-episode limits and price table. Bad input is a StudioError naming the flag or file.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studio.app.episodes import Limits, PriceTable, load_prices
from studio.app.library import TaskFolder
from studio.app.runs import Manifest, campaign, run_dir_name
from studio.cli.protocol_flags import resolve_run_protocol, resume_protocol
from studio.models.agent import Mode
from studio.models.errors import StudioError


def campaign_for(
    args: argparse.Namespace, collect: Callable[[list[Path]], list[TaskFolder]]
) -> tuple[list[TaskFolder], Path, Manifest]:
    """The tasks, run folder and manifest of a new campaign, or of the one --resume names;
    the manifest's settings become the run's (args is updated with them)."""
    if args.resume is None:
        if args.agent is None or not args.tasks:
            raise StudioError("studio run needs TASKS and --agent (or --resume RUN_DIR)")
        tasks = collect(args.tasks)
        _defaults(args)
        resolve_run_protocol(args)
        manifest = campaign.new_manifest(
            tasks, args.agent, Mode(args.mode), args.epochs, args.seed, **_settings(args)
        )
        run_dir = args.out / run_dir_name(args.agent, manifest.mode)
        base, n = run_dir, 1
        while run_dir.exists():  # another campaign started in the same second
            n += 1
            run_dir = base.with_name(f"{base.name}-{n}")
        campaign.write_manifest(run_dir, manifest)
        return tasks, run_dir, manifest
    manifest = campaign.read_manifest(args.resume)
    for flag, given, kept in (
        ("--agent", args.agent, manifest.agent),
        ("--mode", args.mode, manifest.mode.value),
        ("--epochs", args.epochs, manifest.epochs),
        ("--seed", args.seed, manifest.seed),
    ):
        if given is not None and given != kept:
            raise StudioError(f"{flag} {given}: the campaign in {args.resume} has {kept}")
    given_tasks = collect(args.tasks) if args.tasks else []
    warnings = campaign.check_resume(manifest, given_tasks, args.resume)
    by_id = {t.task.id: t for t in given_tasks}
    tasks = [by_id.get(t.id) or _load_task(Path(t.folder), t.id) for t in manifest.tasks]
    if not given_tasks:  # the manifest's own folders: their scripts may have changed too
        warnings += campaign.changed_scripts(manifest, tasks)
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    args.agent, args.mode, args.epochs, args.seed = (
        manifest.agent,
        manifest.mode.value,
        manifest.epochs,
        manifest.seed,
    )
    resume_protocol(args, manifest.settings)
    for name, value in manifest.settings.items():
        if getattr(args, name, None) is None:
            setattr(args, name, Path(value) if name == "actions" and value else value)
    _defaults(args)
    return tasks, args.resume, manifest


def _defaults(args: argparse.Namespace) -> None:
    defaults = (
        ("mode", "composite"),
        ("epochs", 1),
        ("seed", 0),
        ("retries", 2),
        ("realtime", False),
    )
    for name, value in defaults:
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.workers < 1 or (args.steps is not None and args.steps < 1) or args.epochs < 1:
        raise StudioError("--workers, --steps and --epochs must be at least 1")
    if args.retries < 0:
        raise StudioError("--retries must be 0 or more")


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    """What a resume must reuse: recorded in the manifest."""
    return {
        "steps": args.steps,
        "realtime": args.realtime,
        "retries": args.retries,
        "actions": str(args.actions) if args.actions else None,
        "max_seconds": args.max_seconds,
        "max_tokens": args.max_tokens,
        "max_cost": args.max_cost,
        "prices": str(args.prices) if args.prices else None,
        "protocol": args.protocol_record.model_dump(),
    }


def limits_for(args: argparse.Namespace) -> tuple[Limits | None, PriceTable | None]:
    """The per-episode limits and the price table the flags (or the manifest) give."""
    prices = load_prices(Path(args.prices)) if args.prices else None
    if args.max_cost is not None and prices is None:
        raise StudioError("--max-cost needs --prices FILE (prices per model)")
    for flag, value in (("--max-seconds", args.max_seconds), ("--max-tokens", args.max_tokens)):
        if value is not None and value <= 0:
            raise StudioError(f"{flag} must be more than 0")
    if args.max_cost is not None and prices is not None and args.agent == "llm":
        from studio.app.llm import ENV_MODEL  # httpx: only for the LLM agent

        model = os.environ.get(ENV_MODEL, "")
        if model and model not in prices.models:
            raise StudioError(
                f"{args.prices}: no prices for model '{model}' (needed by --max-cost)"
            )
    if args.max_seconds is None and args.max_tokens is None and args.max_cost is None:
        return None, prices
    return Limits(args.max_seconds, args.max_tokens, args.max_cost), prices


def _load_task(folder: Path, task_id: str) -> TaskFolder:
    """The campaign's task `task_id` from the folder its manifest names."""
    from studio.app.library import load_task

    if not folder.is_dir():
        raise StudioError(f"{folder}: task folder of the campaign is gone (give TASKS)")
    task = load_task(folder)
    if task.task.id != task_id:
        raise StudioError(
            f"{folder}: holds task '{task.task.id}', the campaign's task there is '{task_id}' "
            "(another task set? give the campaign's tasks as TASKS)"
        )
    return task

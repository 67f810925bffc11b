"""Opening a campaign and planning what is left of it, before any browser starts.

- `collect_tasks(roots, warn)`: the tasks below `roots` (each id once, the first found); a
  folder skipped as unreadable is told to `warn` ("skipped: ..."); none at all is a
  TaskFileError naming the first root.
- `open_campaign(request, warn)`: a new campaign (request.tasks and request.agent needed) gets
  its run folder `<out>/<agent>-<mode>-<timestamp>` (`-2`, `-3`... when that exists: another
  campaign started in the same second) and its manifest (campaign.json: tasks with their
  scripts' hashes, agent, mode, epochs, seed, the settings a resume must reuse, the protocol);
  a resume (request.resume) reads that manifest, refuses an agent, mode, epochs, seed or
  protocol setting other than the campaign's and tasks not in it (StudioError naming the flag
  or file), warns of changed scripts or another studio version, and takes the manifest's
  settings into the request. Either way the request then holds the campaign's settings; the
  result has the tasks, folder, manifest, limits and prices.
- `plan_episodes(campaign, request, warn)`: makes the agent factory
  (studio.app.agents.episode_agents, as every front end makes agents: an agent that cannot be
  made, the LLM agent without its endpoint say, fails here), reads the results ledger (its
  warnings told to `warn`) and plans the episodes without a result (`jobs`; `finished` counts
  the others); a finished campaign plans none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from studio.app.agents import AgentFactory, episode_agents
from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.services.core.errors import TaskFileError
from studio.services.core.store import TaskFolder, load_task, scan_library
from studio.services.episodes.limits import Limits, PriceTable
from studio.services.runs import campaign
from studio.services.runs.batch import run_dir_name
from studio.services.runs.campaign import Job, Ledger, Manifest

from .protocol import resolve_run_protocol, resume_protocol
from .request import CampaignRequest, apply_defaults, limits_for, manifest_settings

__all__ = ["Campaign", "Warn", "collect_tasks", "open_campaign", "plan_episodes"]

Warn = Callable[[str], None]  # told each warning line ("warning: ..." / "skipped: ...")


@dataclass
class Campaign:
    """An opened campaign: what it plays, where it records, under which limits; after
    `plan_episodes`, the episodes left (`jobs`) and how many were finished before."""

    tasks: list[TaskFolder]
    run_dir: Path
    manifest: Manifest
    limits: Limits | None
    prices: PriceTable | None
    resumed: bool = False
    agent_for: AgentFactory | None = None
    ledger: Ledger | None = None
    jobs: list[Job] = field(default_factory=list)
    finished: int = 0


def collect_tasks(roots: list[Path], warn: Warn) -> list[TaskFolder]:
    """The tasks below `roots` (see the module docstring)."""
    tasks: list[TaskFolder] = []
    for root in roots:
        scan = scan_library(root)
        for err in scan.errors:
            warn(f"skipped: {err}")
        tasks.extend(scan.tasks)
    if not tasks:
        raise TaskFileError(roots[0], "holds no task folder (with task.json)")
    unique: dict[str, TaskFolder] = {}
    for task in tasks:
        unique.setdefault(task.task.id, task)
    return list(unique.values())


def open_campaign(request: CampaignRequest, warn: Warn) -> Campaign:
    """The campaign the request starts or resumes (see the module docstring)."""
    if request.resume is None:
        tasks, run_dir, manifest = _new(request, warn)
    else:
        tasks, run_dir, manifest = _resumed(request, request.resume, warn)
    limits, prices = limits_for(request)
    return Campaign(tasks, run_dir, manifest, limits, prices, resumed=request.resume is not None)


def plan_episodes(opened: Campaign, request: CampaignRequest, warn: Warn) -> Campaign:
    """The agent factory and the episodes left to play (see the module docstring);
    `opened`, planned."""
    record = request.protocol_record
    opened.agent_for = episode_agents(
        opened.manifest.agent,
        opened.manifest.mode,
        request.seed or 0,
        request.actions,
        record.settings if record is not None else None,
    )
    opened.ledger = Ledger(opened.run_dir)
    for warning in opened.ledger.warnings:
        warn(f"warning: {warning}")
    opened.jobs, opened.finished = campaign.plan_jobs(
        opened.tasks, opened.run_dir, opened.manifest.epochs, opened.ledger
    )
    return opened


def _new(request: CampaignRequest, warn: Warn) -> tuple[list[TaskFolder], Path, Manifest]:
    if request.agent is None or not request.tasks:
        raise StudioError("studio run needs TASKS and --agent (or --resume RUN_DIR)")
    tasks = collect_tasks(request.tasks, warn)
    apply_defaults(request)
    resolve_run_protocol(request)
    manifest = campaign.new_manifest(
        tasks,
        request.agent,
        Mode(request.mode or "composite"),
        request.epochs or 1,
        request.seed or 0,
        **manifest_settings(request),
    )
    run_dir = request.out / run_dir_name(request.agent, manifest.mode)
    base, n = run_dir, 1
    while run_dir.exists():  # another campaign started in the same second
        n += 1
        run_dir = base.with_name(f"{base.name}-{n}")
    campaign.write_manifest(run_dir, manifest)
    return tasks, run_dir, manifest


def _resumed(
    request: CampaignRequest, run_dir: Path, warn: Warn
) -> tuple[list[TaskFolder], Path, Manifest]:
    manifest = campaign.read_manifest(run_dir)
    for flag, given, kept in (
        ("--agent", request.agent, manifest.agent),
        ("--mode", request.mode, manifest.mode.value),
        ("--epochs", request.epochs, manifest.epochs),
        ("--seed", request.seed, manifest.seed),
    ):
        if given is not None and given != kept:
            raise StudioError(f"{flag} {given}: the campaign in {run_dir} has {kept}")
    given_tasks = collect_tasks(request.tasks, warn) if request.tasks else []
    warnings = campaign.check_resume(manifest, given_tasks, run_dir)
    by_id = {t.task.id: t for t in given_tasks}
    tasks = [by_id.get(t.id) or _load_task(Path(t.folder), t.id) for t in manifest.tasks]
    if not given_tasks:  # the manifest's own folders: their scripts may have changed too
        warnings += campaign.changed_scripts(manifest, tasks)
    for warning in warnings:
        warn(f"warning: {warning}")
    request.agent, request.mode = manifest.agent, manifest.mode.value
    request.epochs, request.seed = manifest.epochs, manifest.seed
    resume_protocol(request, manifest.settings)
    for name, value in manifest.settings.items():
        if hasattr(request, name) and getattr(request, name) is None:
            setattr(request, name, Path(value) if name in _PATHS and value else value)
    apply_defaults(request)
    return tasks, run_dir, manifest


_PATHS = ("actions", "prices")


def _load_task(folder: Path, task_id: str) -> TaskFolder:
    """The campaign's task `task_id` from the folder its manifest names."""
    if not folder.is_dir():
        raise StudioError(f"{folder}: task folder of the campaign is gone (give TASKS)")
    task = load_task(folder)
    if task.task.id != task_id:
        raise StudioError(
            f"{folder}: holds task '{task.task.id}', the campaign's task there is '{task_id}' "
            "(another task set? give the campaign's tasks as TASKS)"
        )
    return task

"""Playing a planned campaign: tasks checked, episodes played, progress told, cancel honoured.

`play_campaign(campaign, request, on_event, cancel, pool)` plays the episodes
`plan_episodes` left, where the request says (studio.app.runners.episode_runner: this
process's browser, or `pool`, a browser already started by the caller, shared and not closed;
a served API; a Ray cluster), `request.workers` side by side, each within the campaign's
limits and prices, on the clock `request.realtime` asks for (else accelerated unless the task
needs real time). First the tasks are checked (studio.services.runs.preflight): a broken one
is recorded as the task's problem and not played (`TasksRefused`). Every episode's run.json
records the protocol; each finished one is added to the results ledger, a debug episode with
its repair measures (d_edit and semantic drift: studio.services.forge.episode_measures), wherever
it played (the drift on this process's browser, the cluster's workers, or for a served API a
browser started here when a debug episode needs it). The protocol's feedback budget goes to
every episode, here, on the server or on the workers.

`cancel` (a threading.Event, set from any thread) stops the play after the episodes under
way: no new episode starts, those left have no folder and no result, so a resume of the run
folder plays exactly them. The events (studio.app.campaigns.events) go to `on_event`; an
error of the play is told as `CampaignFailed` and raised.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import AsyncIterator
from typing import Any, cast

from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.services.forge.episode_measures import EpisodeMeasures
from studio.services.runs.batch import run_batch
from studio.services.runs.preflight import TaskProblem, record_problems, task_problems
from studio.services.runtime.clock_agreement import AgreementCache, clock_for
from studio.services.runtime.evaluator import Evaluates, Evaluator

from .events import (
    CampaignFailed,
    CampaignFinished,
    CampaignResult,
    CampaignStarted,
    EpisodeDone,
    OnEvent,
    TasksRefused,
)
from .plan import Campaign
from .request import CampaignRequest

__all__ = ["check_tasks", "episode_home", "play_campaign"]


async def play_campaign(
    campaign: Campaign,
    request: CampaignRequest,
    on_event: OnEvent | None = None,
    cancel: threading.Event | None = None,
    pool: Any = None,
) -> CampaignResult:
    """Play what is left of `campaign` (see the module docstring); its result."""
    if campaign.agent_for is None:
        raise StudioError("the campaign is not planned (plan_episodes) before it plays")
    emit: OnEvent = on_event or (lambda _event: None)
    cache = AgreementCache()
    mode = Mode(campaign.manifest.mode)
    try:
        async with episode_home(request, campaign, pool) as runner:
            problems = await check_tasks(campaign, runner)
            if problems:
                emit(TasksRefused(campaign.run_dir, problems))
            planned = len(campaign.jobs)
            emit(CampaignStarted(campaign.run_dir, planned, campaign.finished))
            measures = EpisodeMeasures(_measuring_evaluator(runner), own_browser=True)
            try:
                batch = await run_batch(
                    runner,
                    campaign.tasks,
                    campaign.agent_for,
                    mode,
                    campaign.run_dir,
                    request.workers,
                    campaign.manifest.agent,
                    lambda done, total, outcome: emit(EpisodeDone(done, total, outcome)),
                    clock_for=lambda task: clock_for(task, bool(request.realtime), cache),
                    epochs=campaign.manifest.epochs,
                    ledger=campaign.ledger,
                    jobs=campaign.jobs,
                    retries=request.retries or 0,
                    limits=campaign.limits,
                    prices=campaign.prices,
                    run_meta={"protocol": _protocol(request)},
                    should_stop=cancel.is_set if cancel is not None else None,
                    after_episode=measures.measure,
                )
            finally:
                await measures.aclose()
    except Exception as exc:
        emit(CampaignFailed(campaign.run_dir, str(exc) or type(exc).__name__))
        raise
    result = CampaignResult(campaign.run_dir, batch, problems, planned - len(batch.outcomes))
    emit(CampaignFinished(result))
    return result


def _measuring_evaluator(runner: Any) -> Evaluates | None:
    """Where the repair measures' drift runs: this process's browser when the episodes play
    here, the cluster's workers when they play there; None for a served API (the measures
    then start a browser of this process when a debug episode needs one)."""
    cluster = getattr(runner, "evaluator", None)
    if cluster is not None:
        return cast("Evaluates", cluster)
    try:
        return Evaluator(runner.pool)
    except Exception:
        return None


def _feedback_turns(request: CampaignRequest) -> int:
    """The feedback budget of the campaign's protocol (0: none)."""
    record = request.protocol_record
    turns = record.settings.get("feedback_turns") if record is not None else None
    return turns if isinstance(turns, int) and not isinstance(turns, bool) else 0


def _protocol(request: CampaignRequest) -> dict[str, Any] | None:
    record = request.protocol_record
    return record.model_dump() if record is not None else None


async def check_tasks(campaign: Campaign, runner: Any) -> list[TaskProblem]:
    """The tasks' problems before any agent plays (studio.services.runs.preflight): each
    broken task's episodes are recorded as the task's failures and taken out of the plan."""
    try:
        context = runner.pool.context  # this process's browser, when the episodes play here
    except Exception:
        context = None  # elsewhere: a browser of its own parses the scripts
    problems = await task_problems(campaign.tasks, context)
    if problems:
        broken = {p.task.task.id for p in problems}
        mode = Mode(campaign.manifest.mode)
        record_problems(problems, campaign.jobs, mode, campaign.manifest.agent)
        campaign.jobs = [job for job in campaign.jobs if job.task.task.id not in broken]
    return problems


@contextlib.asynccontextmanager
async def episode_home(
    request: CampaignRequest, campaign: Campaign, pool: Any = None
) -> AsyncIterator[Any]:
    """Where the episodes play (studio.app.runners.episode_runner), within the campaign's
    limits and prices; `pool` shares a started browser when they play in this process."""
    from studio.app.runners import episode_runner

    home = episode_runner(
        api=request.api,
        token=request.token,
        token_file=request.token_file,
        ray=request.ray,
        workers=request.workers,
        steps=request.steps,
        limits=campaign.limits,
        prices=campaign.prices,
        element_list=request.element_list is not False,
        pool=pool,
        feedback_turns=_feedback_turns(request),
    )
    async with home as runner:
        yield runner

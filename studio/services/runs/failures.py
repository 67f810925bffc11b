"""Whose failure an episode is: the agent's, the task's or the environment's.

SR and PSR judge the agent, so they count only the episodes that say something of it: those
with a verdict on its program, and those it crashed itself. The task's failures (a script that
does not parse or gives no result, a corrupt initial project) and the environment's (the
browser or page died, stalled or timed out, the model's endpoint was down) are counted apart
and named; so are episodes that never finished (stopped half-way, with no verdict).
"""

from __future__ import annotations

from studio.models.evaluation import ErrorKind, EvalResult

__all__ = [
    "ENVIRONMENT_KINDS", "NOT_COUNTED", "OUTCOMES", "TASK_KINDS", "outcome_of", "verdict_failure",
]  # fmt: skip

# An evaluation that ended in one of these says nothing of the agent's program.
ENVIRONMENT_KINDS = frozenset({ErrorKind.CRASH, ErrorKind.STALLED, ErrorKind.SETUP})
# An evaluation that ended in one of these is the task's failure: its script does not parse,
# or returned something that is not a result.
TASK_KINDS = frozenset({ErrorKind.SYNTAX, ErrorKind.RESULT})
NOT_COUNTED = frozenset({"task", "environment"})  # failures SR and PSR leave out
# What an episode is to a report: counted ("finished"), or apart and why.
OUTCOMES = ("finished", "unfinished", "environment", "task")


def verdict_failure(result: EvalResult) -> str | None:
    """Whose failure a verdict is: None for a success, "task" for a script that does not
    parse or gave no result, "environment" for an evaluation whose page died, else "agent"."""
    if result.ok:
        return None
    if result.error is not None and result.error.kind in TASK_KINDS:
        return "task"
    if result.error is not None and result.error.kind in ENVIRONMENT_KINDS:
        return "environment"
    return "agent"


def outcome_of(result: EvalResult | None, failure: str | None, agent_ended: bool) -> str:
    """One of OUTCOMES for an episode with verdict `result` (or None), recorded `failure`
    (run.json `meta.failure`), and `agent_ended` when the agent ended it without a verdict
    (a human who gave up)."""
    if failure in NOT_COUNTED:
        return failure
    if failure == "agent":  # recorded as the agent's (a published runner's exception too)
        return "finished"
    if result is not None:
        whose = verdict_failure(result)
        return whose if whose in NOT_COUNTED else "finished"
    if agent_ended:
        return "finished"  # the agent gave up: its own failure
    return "unfinished"

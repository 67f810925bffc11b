"""The protocol of an agent run in the window (Run ▸ Start agent run): its settings, applied
to the live episode and recorded with it, as `studio run` records a campaign's.

`live_protocol(name, mode, agent, feedback_turns)` resolves the protocol's `run` settings for
the agent and mode (studio.models.protocols; None: the studio's own), with the feedback turns
chosen (0 = the protocol's default); a ProtocolError names what the protocol refuses (an unknown
protocol, feedback turns under `scratchworld`). `apply_protocol(episode, record)` gives the
episode the protocol's step limit and feedback budget (studio.services.episodes.feedback) and
records the protocol in its run.json (`meta.protocol`, as every campaign episode does), so
`studio report` labels and never pools the run with others.
"""

from __future__ import annotations

from typing import Any

from studio.models.agent import Mode
from studio.models.protocols import ProtocolRecord, resolve_protocol

__all__ = ["apply_protocol", "live_protocol"]


def live_protocol(
    name: str | None, mode: Mode | str, agent: str, feedback_turns: int = 0
) -> ProtocolRecord:
    """The `run` settings of protocol `name` for `agent` in `mode` with `feedback_turns`."""
    given = {"feedback_turns": feedback_turns or None}
    return resolve_protocol(name, "run", given, mode=Mode(mode).value, agent=agent)


def apply_protocol(episode: Any, record: ProtocolRecord) -> None:
    """Give a just created `episode` (studio.services.episodes.episode.Episode) the protocol's
    step limit and feedback budget, and record the protocol in its run.json."""
    steps = record.settings.get("steps")
    if isinstance(steps, int) and steps > 0:
        episode.step_limit = steps
    episode.feedback_turns.budget = int(record.settings.get("feedback_turns") or 0)
    recorder = getattr(episode, "recorder", None)
    if recorder is not None:
        recorder.run.meta["protocol"] = record.model_dump()
        if isinstance(steps, int) and steps > 0:
            recorder.run.step_limit = steps
        recorder.write_run()

"""`studio run --baselines`: the idle and random rows every table of MageBench carries.

After the campaign of the agent asked for, the same tasks are played by the idle agent (does
nothing, ends) and the random agent (seeded as the campaign), each a campaign of its own under
--out with the same mode, epochs, seed and protocol, so `studio report OUT` shows their rows
beside the agent's. An agent that is itself idle or random is not played twice. The llm
agent's planner and memory flags do not apply to the baselines. A resume plays one campaign:
--baselines with --resume is refused.
"""

from __future__ import annotations

import argparse
from typing import Any

from studio.app.extensions import EPISODE_AGENTS
from studio.models.errors import StudioError

__all__ = ["BASELINES", "add_baselines_flag", "baseline_args"]

BASELINES = EPISODE_AGENTS.with_trait("baseline")  # idle, then random (the registry's order)
_LLM_ONLY = ("planner", "action_memory", "observation_memory")


def add_baselines_flag(parser: Any) -> None:
    parser.add_argument(
        "--baselines",
        action="store_true",
        help="also play the idle and random agents on the same tasks, mode and protocol "
        "(each a campaign of its own under --out), for the report's baseline rows",
    )


def baseline_args(args: argparse.Namespace) -> list[argparse.Namespace]:
    """The flags of each baseline campaign (none without --baselines), from the command's
    flags as given; StudioError for --baselines with --resume."""
    if not getattr(args, "baselines", False):
        return []
    if args.resume is not None:
        raise StudioError("--baselines starts new campaigns: not with --resume")
    out = []
    for name in BASELINES:
        if name == args.agent:
            continue
        extra = argparse.Namespace(**vars(args))
        extra.agent, extra.actions, extra.baselines = name, None, False
        for flag in _LLM_ONLY:
            setattr(extra, flag, None)
        out.append(extra)
    return out

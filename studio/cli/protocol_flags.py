"""`--protocol NAME` and the protocol's settings on `studio run`, `drag run` and `qa run`.

The protocols and their settings are `studio.models.protocols`' (`studio` by default,
`scratchworld` for the published runners'). Each command's handler calls `resolve_*` once its
flags are parsed: the protocol fills in the settings the flags left out, refuses a flag that
would break it (a fixed setting given another value, a setting the mode does not have), and
the record (`args.protocol_record`) is what the run writes down: the campaign's manifest and
every episode's run.json (`meta.protocol`), a drag or QA run's summary.json.
"""

from __future__ import annotations

import argparse
from typing import Any

from studio.models.errors import StudioError
from studio.models.protocols import PROTOCOLS, ProtocolRecord, resolve_protocol

__all__ = ["add_protocol_flags", "resolve_item_protocol", "resolve_run_protocol", "resume_protocol"]


def add_protocol_flags(parser: argparse.ArgumentParser, command: str) -> None:
    """`--protocol` (and the options the protocols give `command`) on `parser`."""
    names = ", ".join(f"{p.name} ({p.title})" for p in PROTOCOLS.values())
    parser.add_argument(
        "--protocol",
        metavar="NAME",
        help=f"run under a protocol's settings, recorded with the run: {names}; default: studio",
    )
    if command == "run":
        parser.add_argument(
            "--no-element-list",
            dest="element_list",
            action="store_const",
            const=False,
            default=None,
            help="primitive mode: observe the screenshot only, no element list, and act by "
            "coordinates (ScratchWorld's observation ablation)",
        )
    if command == "run":
        parser.add_argument(
            "--planner",
            choices=("online", "global"),
            help="llm agent: online (one action per step, the default) or global (one "
            "observation, the whole list of actions at once)",
        )
        parser.add_argument(
            "--action-memory",
            type=int,
            metavar="N",
            help="llm agent: past actions shown in each prompt (default 8; MageBench: 5)",
        )
        parser.add_argument(
            "--observation-memory",
            type=int,
            metavar="N",
            help="llm agent: observations shown in each prompt, the current one included "
            "(default 1)",
        )
    if command == "drag":
        parser.add_argument(
            "--ground-truth-start",
            action="store_const",
            const=True,
            default=None,
            help="give the agent a valid start point (ScratchWorld's GT Start setting; the "
            "items need computed regions)",
        )
        parser.add_argument(
            "--knowledge",
            action="store_const",
            const=True,
            default=None,
            help="add hints on where to press and release to the prompt (ScratchWorld's "
            "Knowledge setting; llm agent only)",
        )


def resolve_run_protocol(args: argparse.Namespace) -> ProtocolRecord:
    """The protocol record of a new `studio run` campaign; args.steps and args.element_list
    then hold the protocol's values."""
    record = resolve_protocol(args.protocol, "run", _given(args), mode=args.mode, agent=args.agent)
    if record.settings.get("element_list") is False and (args.ray or args.api):
        raise StudioError(
            "--no-element-list plays in this process's browser only: leave out --ray and --api"
        )
    _apply(args, record)
    return record


def resume_protocol(args: argparse.Namespace, settings: dict[str, Any]) -> ProtocolRecord:
    """The protocol record a resumed campaign's manifest holds (a campaign from before
    protocols were recorded: the studio's, with its step limit); a --protocol or setting flag
    given on the resume must agree with it."""
    raw = settings.get("protocol")
    if isinstance(raw, dict):
        record = ProtocolRecord.model_validate(raw)
    else:
        record = resolve_protocol(None, "run", {"steps": settings.get("steps")}, mode=args.mode)
    if args.protocol is not None and args.protocol != record.name:
        raise StudioError(
            f"--protocol {args.protocol}: the campaign in {args.resume} runs under protocol "
            f"{record.name}"
        )
    defaults = resolve_protocol(record.name, "run", mode=args.mode, agent=args.agent).settings
    for key, value in _given(args).items():
        kept = record.settings.get(key, defaults.get(key))
        if key != "steps" and value is not None and value != kept:
            flag = key.replace("_", "-")
            raise StudioError(
                f"--{flag} {value}: the campaign in {args.resume} was started with {kept}"
            )
    _apply(args, record)
    return record


def _given(args: argparse.Namespace) -> dict[str, Any]:
    """The run settings given as flags (None: not given)."""
    for flag, value, least in (
        ("--action-memory", getattr(args, "action_memory", None), 0),
        ("--observation-memory", getattr(args, "observation_memory", None), 1),
    ):
        if value is not None and value < least:
            raise StudioError(f"{flag} must be at least {least}")
    return {
        "steps": args.steps,
        "element_list": getattr(args, "element_list", None),
        "planner": getattr(args, "planner", None),
        "action_memory": getattr(args, "action_memory", None),
        "observation_memory": getattr(args, "observation_memory", None),
    }


def _apply(args: argparse.Namespace, record: ProtocolRecord) -> None:
    args.protocol = record.name
    args.protocol_record = record
    if "steps" in record.settings:
        args.steps = record.settings["steps"]
    args.element_list = record.settings.get("element_list", True)


def resolve_item_protocol(args: argparse.Namespace, command: str) -> ProtocolRecord:
    """The protocol record of a `drag run` (`command` "drag": --k and the drag settings) or a
    `qa run` ("qa"); args.k then holds the protocol's attempts per item."""
    given: dict[str, Any] = {}
    if command == "drag":
        given = {
            "k": args.k,
            "ground_truth_start": getattr(args, "ground_truth_start", None),
            "knowledge": getattr(args, "knowledge", None),
        }
    record = resolve_protocol(args.protocol, command, given)
    args.protocol_record = record
    if command == "drag":
        args.k = record.settings["k"]
    return record

"""`--protocol NAME` and the protocol's settings on `studio run`, `drag run` and `qa run`.

The protocols and their settings are `studio.models.protocols`' (`studio` by default,
`scratchworld` for the published runners'). A campaign's protocol is resolved by
studio.app.campaigns (protocol.py) from the flags; the drag and QA handlers call
`resolve_item_protocol` once their flags are parsed: the protocol fills in the settings the
flags left out, refuses a flag that would break it (a fixed setting given another value, a
setting the mode does not have), and the record (`args.protocol_record`) is what the run
writes down: the campaign's manifest and every episode's run.json (`meta.protocol`), a drag
or QA run's summary.json.
"""

from __future__ import annotations

import argparse
from typing import Any

from studio.models.protocols import PROTOCOLS, ProtocolRecord, resolve_protocol

__all__ = ["add_protocol_flags", "resolve_item_protocol"]


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
            "--feedback-turns",
            type=int,
            metavar="N",
            help="the agent may ask for an evaluation of its program mid-episode up to N times "
            "(DrawingBench's feedback turn; each recorded; default 0: none)",
        )
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

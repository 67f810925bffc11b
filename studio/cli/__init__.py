"""The `studio` command line (the console script and `python -m studio`).

```
studio [--library DIR]                  the window (as `studio gui`; studio.cli.window)
studio gui | view | label ...           the window on a library, a recorded run, labeling
studio eval | check | equivalent ...    a task's script on a project; the adversarial check
studio import | export FORMAT ...       ScratchWorld checkouts, Inspect AI logs
studio propose TASK_DIR                 an evaluation script from the programs' behaviour
studio forge PATHS... --out LIBRARY     validated debug tasks forged from golden tasks
studio serve | run | rescore | report   the agent API, campaigns, their verdicts and grids
studio stats LIBRARY                    what a task set covers (as the ScratchWorld paper counts)
studio trajectory show|export|compare   recorded runs
studio study new|show|serve|export      human baseline studies, participants in a browser
studio regions | drag | qa | diagnostics ...   the diagnostics (drag and perception QA items)
```

One module per command group (`GROUPS`, in the order `studio --help` lists them), each with
`register(subparsers)`: it adds its parsers and sets `handler=` on each leaf one. `main` parses
and hands the arguments to `studio.cli.common.run_command`, which calls the handler and turns
errors and Ctrl-C into messages and exit codes: no command is named here. With no command the
window opens. The group modules import the heavy services (checker, browser pool of a run,
HTTP client, Qt) inside their handlers, so a command loads only what it uses.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from studio.cli import (
    blocktext,
    check,
    common,
    diagnostics,
    evaluate,
    forge,
    propose,
    report,
    rescore,
    run,
    scratchworld,
    serve,
    stats,
    study,
    trajectory,
    window,
)
from studio.services.core import paths

__all__ = ["GROUPS", "build_parser", "main"]

GROUPS = (
    window,
    evaluate,
    check,
    scratchworld,
    propose,
    forge,
    serve,
    run,
    report,
    rescore,
    stats,
    trajectory,
    diagnostics,
    study,
    blocktext,
)


def build_parser() -> argparse.ArgumentParser:
    """The `studio` parser: the top-level options and every group's sub-commands."""
    parser = argparse.ArgumentParser(
        prog="studio",
        description="Scratch Bench Studio: build, check and watch Scratch agent benchmarks.",
    )
    parser.add_argument(
        "--library",
        type=Path,
        default=paths.BUNDLED_TASKS,
        help="task library folder the window opens (default: bundled tasks)",
    )
    parser.set_defaults(handler=window.run)  # no command at all: the window
    sub = parser.add_subparsers(dest="command")
    for group in GROUPS:
        group.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse `argv` (default: the process's), run the command; its exit code."""
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s", stream=sys.stderr)
    return common.run_command(args)

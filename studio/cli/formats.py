"""`studio import FORMAT` and `studio export FORMAT` for the formats that have no parser of
their own: every plain format of `studio.app.formats` gets `FORMAT SRC DEST [--overwrite]
[--json]`, its help from the registry.

The formats with options of their own (ScratchWorld's folders, NL2Scratch, Inspect AI,
submissions) add their parsers first; `add_registered` then adds the generic one for each
registered format still missing, so a new plain format needs no command-line code. Prints the
report's JSON with --json, else a one-line summary and its problems. Exit codes: 0 done, 1 some
files skipped (the report says which), 2 unusable input.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from studio.app.formats import EXPORT_FORMATS, IMPORT_FORMATS, PLAIN, export_set, import_set
from studio.cli.common import EXIT_FAILED, EXIT_OK

__all__ = ["add_registered", "run_plain"]


def add_registered(formats: Any, verb: str) -> None:
    """Add the generic parser of every plain `verb` ("import" or "export") format not on
    `formats` (the FORMAT sub-parsers) yet."""
    registry = IMPORT_FORMATS if verb == "import" else EXPORT_FORMATS
    for name in registry.with_trait(PLAIN):
        if name in formats.choices:
            continue
        sub = formats.add_parser(name, help=registry.help(name))
        what = "set" if verb == "import" else "library (task folder or library)"
        sub.add_argument("src", type=Path, metavar="SRC", help=f"the {what} to read")
        sub.add_argument("dest", type=Path, metavar="DEST", help="folder to write into")
        sub.add_argument("--overwrite", action="store_true", help="replace what exists")
        sub.add_argument("--json", action="store_true", help="print the report as JSON")
        sub.set_defaults(handler=run_plain, verb=verb)


def run_plain(args: argparse.Namespace) -> int:
    """Import or export the set through `studio.app.formats`; print the report."""
    move = import_set if args.verb == "import" else export_set
    report = move(args.format, args.src, args.dest, overwrite=args.overwrite)
    data = report.to_json()
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(f"{args.verb} {args.format}: {args.src} -> {args.dest}")
        for key, value in data.items():
            if isinstance(value, list):
                print(f"  {key}: {len(value)}")
    return EXIT_OK if report.ok else EXIT_FAILED

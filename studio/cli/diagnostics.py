"""Labeling on the command line: the drag items (feasible regions) and the perception QA items
of the two diagnostic benchmarks. This module parses (`qa capture|recapture` and the `run`s are
added by the modules that do them); `studio.cli.diagnostics_items`, `studio.cli.diagnostics_qa` and
`studio.cli.diagnostics_runs` do the work. Each leaf parser sets its `handler`.

```
studio regions compute ITEM... [--grid PX] [--pages N] [--fresh] [--compare] [--edition E] [--json]
studio drag author PROJECT.sb3 --out DIR --id ID (--target BLOCK | --palette OPCODE)
                   --reference BLOCK --connection TYPE [--input NAME] [--detach BLOCK --dx --dy]
studio drag score PREDICTIONS.jsonl ITEMS_DIR [--execute] [--json]
studio drag run ITEMS --agent oracle|random|scripted|llm [--k K] [--pages N] [--out DIR] [--json]
studio drag review ITEM (--approve | --reject | --reopen) --by NAME [--labeler NAME]
studio drag agreement ITEM LABELER_A LABELER_B [--json]
studio qa capture PROJECT.sb3 --out QA_DIR --id ID --type TYPE --question TEXT ...
studio qa recapture QA_DIR [ID...] [--project P.sb3 [--detach BLOCK --dx --dy]]
studio qa confirm QA_DIR TASK_ID --by NAME [--answer TEXT] [--approve]
studio qa score ANSWERS.jsonl QA_DIR [--json]
studio qa run QA_DIR --agent oracle|random|scripted|llm [--out DIR] [--json]
studio qa agreement QA_DIR LABELER_A LABELER_B [--json]
studio diagnostics import ROOT DEST | export SRC DEST [--overwrite] [--json] [--format NAME]
```

Exit codes: 0 done, 1 interrupted or failed, 2 bad input (the message names the file).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from studio.app.formats import ITEM_SET_EXPORTS, ITEM_SET_IMPORTS
from studio.cli import diagnostics_items, diagnostics_qa, diagnostics_runs
from studio.cli.common import EXIT_FAILED, EXIT_OK
from studio.services.runtime import editions

CONNECTIONS = ("next", "parent", "input", "substack_1", "substack_2")


def register(sub: Any) -> None:
    """Add `regions`, `drag`, `qa` and `diagnostics` (import/export) to the studio's
    sub-commands."""
    reg = sub.add_parser("regions", help="feasible regions of single-step drag items")
    reg_sub = reg.add_subparsers(dest="action", required=True)
    comp = reg_sub.add_parser(
        "compute", help="compute the start and end regions of items (editor windows shared)"
    )
    comp.add_argument("items", type=Path, nargs="+", metavar="ITEM", help="drag item folder")
    comp.add_argument("--grid", type=int, help="grid step in px (default: the item's, 5)")
    comp.add_argument("--pages", type=int, default=None, help="editor pages dragging at once")
    comp.add_argument("--fresh", action="store_true", help="ignore a partial result")
    comp.add_argument(
        "--compare",
        action="store_true",
        help="compare with the item's stored regions (IoU); keep both, the computed ones as "
        "the label 'computed'",
    )
    comp.add_argument("--json", action="store_true")
    editions.add_argument(comp, "the one the items' library records, else current")
    comp.set_defaults(handler=diagnostics_items.regions_compute)

    drag = sub.add_parser("drag", help="single-step drag items: author, score, review")
    d_sub = drag.add_subparsers(dest="action", required=True)
    au = d_sub.add_parser("author", help="make an item from a project")
    au.add_argument("project", type=Path)
    au.add_argument("--out", type=Path, required=True, help="item folder to write")
    au.add_argument("--id", required=True)
    au.add_argument("--target", help="id of the canvas block to drag")
    au.add_argument("--palette", help="opcode of the palette block to drag")
    au.add_argument("--palette-index", type=int, default=0)
    au.add_argument("--category", help="palette category to show (motion, looks, ...)")
    au.add_argument("--sprite", help="sprite (or Stage) to edit")
    au.add_argument("--reference", required=True, help="id of the block to connect to")
    au.add_argument("--connection", choices=CONNECTIONS, required=True)
    au.add_argument("--input", help="input name for --connection input")
    au.add_argument("--detach", help="first take this block out of its place")
    au.add_argument("--dx", type=float, default=160.0)
    au.add_argument("--dy", type=float, default=40.0)
    au.add_argument("--instruction")
    au.set_defaults(handler=diagnostics_items.drag_author)
    sc = d_sub.add_parser("score", help="score drag predictions (Pass@k, accuracy, error)")
    sc.add_argument("predictions", type=Path)
    sc.add_argument("items", type=Path)
    sc.add_argument("--execute", action="store_true", help="also perform each drag")
    sc.add_argument("--json", action="store_true")
    sc.set_defaults(handler=diagnostics_items.drag_score)
    rv = d_sub.add_parser("review", help="approve, reject or reopen an item")
    rv.add_argument("item", type=Path)
    group = rv.add_mutually_exclusive_group(required=True)
    group.add_argument("--approve", action="store_true")
    group.add_argument("--reject", action="store_true")
    group.add_argument("--reopen", action="store_true")
    rv.add_argument("--by", required=True)
    rv.add_argument("--labeler", help="approve this labeler's regions as the item's")
    rv.add_argument("--comment", default="")
    rv.set_defaults(handler=diagnostics_items.drag_review)
    ag = d_sub.add_parser("agreement", help="region IoU of two labelers")
    ag.add_argument("item", type=Path)
    ag.add_argument("first")
    ag.add_argument("second")
    ag.add_argument("--json", action="store_true")
    ag.set_defaults(handler=diagnostics_items.drag_agreement)

    qa = sub.add_parser("qa", help="perception QA items: capture, confirm, score")
    q_sub = qa.add_subparsers(dest="action", required=True)
    diagnostics_qa.add_actions(q_sub)
    cf = q_sub.add_parser("confirm", help="confirm or correct the suggested answer")
    cf.add_argument("qa_dir", type=Path)
    cf.add_argument("task_id")
    cf.add_argument("--by", required=True)
    cf.add_argument("--answer")
    cf.add_argument("--approve", action="store_true", help="also approve (as --by)")
    cf.set_defaults(handler=diagnostics_items.qa_confirm)
    qs = q_sub.add_parser("score", help="accuracy of model answers per type")
    qs.add_argument("answers", type=Path)
    qs.add_argument("qa_dir", type=Path)
    qs.add_argument("--json", action="store_true")
    qs.set_defaults(handler=diagnostics_items.qa_score)
    qg = q_sub.add_parser("agreement", help="Cohen's kappa of two labelers")
    qg.add_argument("qa_dir", type=Path)
    qg.add_argument("first")
    qg.add_argument("second")
    qg.add_argument("--json", action="store_true")
    qg.set_defaults(handler=diagnostics_items.qa_agreement)
    diagnostics_runs.add_actions(d_sub, q_sub)

    dg = sub.add_parser(
        "diagnostics", help="drag and QA items of a ScratchWorld checkout (only those)"
    )
    dg_sub = dg.add_subparsers(dest="action", required=True)
    di = dg_sub.add_parser("import", help="checkout ROOT -> DEST/diagnostics/ (drag/<id>/, qa/)")
    di.add_argument("src", type=Path, metavar="ROOT", help="the checkout's folder")
    di.add_argument("dest", type=Path, metavar="DEST", help="library folder to write into")
    di.add_argument("--overwrite", action="store_true", help="replace items that exist")
    di.add_argument("--json", action="store_true")
    _format_flag(di, ITEM_SET_IMPORTS)
    di.set_defaults(handler=diagnostics_import)
    de = dg_sub.add_parser("export", help="SRC/diagnostics/ (or SRC with drag/, qa/) -> DEST")
    de.add_argument("src", type=Path, metavar="SRC", help="library or diagnostics folder")
    de.add_argument("dest", type=Path, metavar="DEST", help="folder to write the layout into")
    de.add_argument("--overwrite", action="store_true", help="write into a non-empty folder")
    de.add_argument("--json", action="store_true")
    _format_flag(de, ITEM_SET_EXPORTS)
    de.set_defaults(handler=diagnostics_export)


# ---- import / export -------------------------------------------------------------------------
def _format_flag(parser: argparse.ArgumentParser, registry: Any) -> None:
    """`--format NAME`: the item set format (the registry's; the first registered by default)."""
    parser.add_argument(
        "--format",
        choices=registry,
        default=registry.names()[0],
        help=f"default: {registry.names()[0]}; " + registry.describe(),
    )


def diagnostics_import(args: argparse.Namespace) -> int:
    """`diagnostics import`: the drag and QA part of `studio import scratchworld` (same code,
    same layout)."""
    from studio.app.formats import import_items

    return _diagnostics(args, "import", lambda *a, **k: import_items(args.format, *a, **k))


def diagnostics_export(args: argparse.Namespace) -> int:
    """`diagnostics export`: the drag and QA part of `studio export scratchworld`."""
    from studio.app.formats import export_items

    return _diagnostics(args, "export", lambda *a, **k: export_items(args.format, *a, **k))


def _diagnostics(args: argparse.Namespace, verb: str, move: Any) -> int:
    """Run `move(src, dest, overwrite=)`; print its report; 1 when items were skipped."""
    from studio.cli.scratchworld import os_error, print_problems

    print(
        f"note: `studio {verb} scratchworld` does the whole checkout (tasks too)", file=sys.stderr
    )
    try:
        report = move(args.src, args.dest, overwrite=args.overwrite)
    except OSError as exc:
        raise os_error(exc) from None
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        if not (report.drag_items or report.qa_items):
            print("0 drag items and 0 QA items")
        print_problems(report)
    return EXIT_FAILED if report.skipped else EXIT_OK

"""The two diagnostic benchmarks on the command line: drag regions and perception QA.

```
studio regions compute ITEM... [--grid PX] [--pages N] [--fresh] [--compare] [--json]
studio drag author PROJECT.sb3 --out DIR --id ID (--target BLOCK | --palette OPCODE)
                   --reference BLOCK --connection TYPE [--input NAME] [--detach BLOCK --dx --dy]
studio drag score PREDICTIONS.jsonl ITEMS_DIR [--execute] [--json]
studio drag run ITEMS --agent oracle|random|scripted|llm [--k K] [--pages N] [--out DIR] [--json]
studio drag review ITEM (--approve | --reject | --reopen) --by NAME [--labeler NAME]
studio drag agreement ITEM LABELER_A LABELER_B [--json]
studio qa capture PROJECT.sb3 --out QA_DIR --id ID --type TYPE --question TEXT ...
studio qa confirm QA_DIR TASK_ID --by NAME [--answer TEXT] [--approve]
studio qa score ANSWERS.jsonl QA_DIR [--json]
studio qa run QA_DIR --agent oracle|random|scripted|llm [--out DIR] [--json]
studio qa agreement QA_DIR LABELER_A LABELER_B [--json]
studio diagnostics import ROOT DEST | export SRC DEST [--overwrite] [--json]
```

Exit codes: 0 done, 1 interrupted or failed, 2 bad input (the message names the file).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from studio import cli_diagnostic_runs
from studio.cli_progress import ProgressBar
from studio.services.errors import StudioError

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
CONNECTIONS = ("next", "parent", "input", "substack_1", "substack_2")


def add_parsers(sub: Any) -> None:
    """Add `regions`, `drag`, `qa` and `diagnostics` to the studio's subcommands."""
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
    reg.set_defaults(diagnostics_run=_regions)

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
    sc = d_sub.add_parser("score", help="score drag predictions (Pass@k, accuracy, error)")
    sc.add_argument("predictions", type=Path)
    sc.add_argument("items", type=Path)
    sc.add_argument("--execute", action="store_true", help="also perform each drag")
    sc.add_argument("--json", action="store_true")
    rv = d_sub.add_parser("review", help="approve, reject or reopen an item")
    rv.add_argument("item", type=Path)
    group = rv.add_mutually_exclusive_group(required=True)
    group.add_argument("--approve", action="store_true")
    group.add_argument("--reject", action="store_true")
    group.add_argument("--reopen", action="store_true")
    rv.add_argument("--by", required=True)
    rv.add_argument("--labeler", help="approve this labeler's regions as the item's")
    rv.add_argument("--comment", default="")
    ag = d_sub.add_parser("agreement", help="region IoU of two labelers")
    ag.add_argument("item", type=Path)
    ag.add_argument("first")
    ag.add_argument("second")
    ag.add_argument("--json", action="store_true")
    drag.set_defaults(diagnostics_run=_drag)

    qa = sub.add_parser("qa", help="perception QA items: capture, confirm, score")
    q_sub = qa.add_subparsers(dest="action", required=True)
    cap = q_sub.add_parser("capture", help="screenshot a project and write a question")
    cap.add_argument("project", type=Path)
    cap.add_argument("--out", type=Path, required=True, help="QA set folder")
    cap.add_argument("--id", required=True)
    cap.add_argument("--type", choices=("connection", "existence", "field"), required=True)
    cap.add_argument("--question", required=True)
    cap.add_argument("--block", help="block id (connection, field)")
    cap.add_argument("--opcode", help="opcode (existence)")
    cap.add_argument("--field", help="field or input name (field)")
    cap.add_argument("--sprite")
    cap.add_argument("--detach", help="first take this block out of its place")
    cap.add_argument("--dx", type=float, default=0.0)
    cap.add_argument("--dy", type=float, default=0.0)
    cap.add_argument("--area", choices=("window", "canvas"), default="window")
    cap.add_argument("--screenshot", help="PNG name (default: ID.png)")
    cap.add_argument("--hint", default="")
    cf = q_sub.add_parser("confirm", help="confirm or correct the suggested answer")
    cf.add_argument("qa_dir", type=Path)
    cf.add_argument("task_id")
    cf.add_argument("--by", required=True)
    cf.add_argument("--answer")
    cf.add_argument("--approve", action="store_true", help="also approve (as --by)")
    qs = q_sub.add_parser("score", help="accuracy of model answers per type")
    qs.add_argument("answers", type=Path)
    qs.add_argument("qa_dir", type=Path)
    qs.add_argument("--json", action="store_true")
    qg = q_sub.add_parser("agreement", help="Cohen's kappa of two labelers")
    qg.add_argument("qa_dir", type=Path)
    qg.add_argument("first")
    qg.add_argument("second")
    qg.add_argument("--json", action="store_true")
    qa.set_defaults(diagnostics_run=_qa)
    cli_diagnostic_runs.add_parsers(d_sub, q_sub)

    dg = sub.add_parser(
        "diagnostics", help="drag and QA items of a ScratchWorld checkout (only those)"
    )
    dg_sub = dg.add_subparsers(dest="action", required=True)
    di = dg_sub.add_parser("import", help="checkout ROOT -> DEST/diagnostics/ (drag/<id>/, qa/)")
    di.add_argument("src", type=Path, metavar="ROOT", help="the checkout's folder")
    di.add_argument("dest", type=Path, metavar="DEST", help="library folder to write into")
    di.add_argument("--overwrite", action="store_true", help="replace items that exist")
    di.add_argument("--json", action="store_true")
    de = dg_sub.add_parser("export", help="SRC/diagnostics/ (or SRC with drag/, qa/) -> DEST")
    de.add_argument("src", type=Path, metavar="SRC", help="library or diagnostics folder")
    de.add_argument("dest", type=Path, metavar="DEST", help="folder to write the layout into")
    de.add_argument("--overwrite", action="store_true", help="write into a non-empty folder")
    de.add_argument("--json", action="store_true")
    dg.set_defaults(diagnostics_run=_diagnostics)


def _server(pool: Any) -> Any:
    if pool.server is None:
        raise StudioError("the browser pool has no editor server")
    return pool.server


def run(args: argparse.Namespace) -> int:
    try:
        code: int = args.diagnostics_run(args)
        return code
    except StudioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


# ---- regions ---------------------------------------------------------------------------------
def _regions(args: argparse.Namespace) -> int:
    """Each item in turn on the same editor windows (opened once, warm for the next item)."""
    from studio.services.drag.item import check_screenshot, load_item
    from studio.services.drag.regions import DEFAULT_PAGES, RegionInterrupted

    entries = [load_item(path) for path in args.items]
    for entry in entries:
        check_screenshot(entry)
        cfg = entry.item.evaluation_config
        if args.compare and not (cfg.feasible_points and cfg.feasible_start_points):
            raise StudioError(f"{entry.path}: --compare needs stored regions, the item has none")
    pages = args.pages or DEFAULT_PAGES
    rows: list[dict[str, Any]] = []

    async def go() -> None:
        from studio.services.browser import BrowserPool

        async with BrowserPool(spares=0) as pool:
            windows: list[Any] = []
            for entry in entries:
                rows.append(await _region_item(args, pool, entry, pages, windows))

    try:
        asyncio.run(go())
    except (RegionInterrupted, KeyboardInterrupt) as exc:
        print(f"error: {exc or 'interrupted'}", file=sys.stderr)
        return EXIT_FAILED
    if args.json:
        print(json.dumps(rows[0] if len(rows) == 1 else rows, indent=2))
    return EXIT_OK


async def _region_item(
    args: argparse.Namespace, pool: Any, entry: Any, pages: int, windows: list[Any]
) -> dict[str, Any]:
    """Compute one item's regions on `windows`, store them, print its lines; its JSON row."""
    from studio.services.drag.regions import (
        RegionComputer,
        apply_result,
        compare_with_stored,
        keep_as_label,
    )

    cfg = entry.item.evaluation_config
    start_at = cfg.drag_start_point if args.compare and cfg.drag_start_point else None
    grid = args.grid or cfg.grid

    # points verified, how many not known ahead; cleared after, the item's lines say the rest
    with ProgressBar(None, "point", leave=False) as bar:
        computer = RegionComputer(
            pool.context,
            _server(pool),
            entry,
            grid,
            pages,
            lambda phase, done, asked: bar.advance(done, entry.item.id, f"{phase}: {asked} next"),
            resume=not args.fresh,
            windows=windows,
            start_at=(start_at[0], start_at[1]) if start_at else None,
        )
        result = await computer.compute()
    compared = compare_with_stored(entry, result) if args.compare else None
    if compared is not None:
        keep_as_label(entry, result)
    else:
        apply_result(entry, result, grid, pages)
    if args.json:
        return (
            {"item": entry.item.id} | result.as_json() | ({"compare": compared} if compared else {})
        )
    if compared is not None:
        print(
            f"{entry.item.id}: computed in {result.seconds:.1f} s ({result.drags} real drags); "
            + "; ".join(
                f"{kind} IoU {c['iou']:.3f} (stored {c['stored']}, computed {c['computed']})"
                for kind, c in compared.items()
            )
        )
    else:
        print(
            f"{entry.item.id}: {len(result.start_points)} start points, "
            f"{len(result.end_points)} end points (grid {grid} px) in {result.seconds:.1f} s, "
            f"{result.drags} real drags on {pages} pages"
            + (f", {result.resumed_drags} verdicts resumed" if result.resumed_drags else "")
        )
        print(f"  start: {result.start_points}")
        print(f"  end:   {result.end_points}")
    return {"item": entry.item.id}


# ---- drag ------------------------------------------------------------------------------------
def _drag(args: argparse.Namespace) -> int:
    handler = {
        "author": _drag_author,
        "score": _drag_score,
        "review": _drag_review,
        "agreement": _drag_agreement,
        "run": cli_diagnostic_runs.drag_run,
    }[args.action]
    return handler(args)


def _drag_author(args: argparse.Namespace) -> int:
    from studio.services.browser import BrowserPool
    from studio.services.drag.author import Pick, author_item, prepare_from_project, save_authored
    from studio.services.drag.item import ConnectionType
    from studio.services.drag.page import open_window

    if bool(args.target) == bool(args.palette):
        raise StudioError("give the block to drag: --target BLOCK_ID or --palette OPCODE")

    async def go() -> Any:
        async with BrowserPool(spares=0) as pool:
            page = await open_window(pool.context, _server(pool))
            offset = (args.dx, args.dy)
            await prepare_from_project(
                page, _server(pool), args.project, args.sprite, args.detach, offset, args.category
            )
            if args.target:
                opcode = await page.evaluate(
                    "(i) => { const b = window.workspace.getBlockById(i); return b && b.type; }",
                    args.target,
                )
                if not opcode:
                    raise StudioError(f"{args.project}: no block {args.target} on the canvas")
                pick = Pick("canvas", opcode, args.target)
            else:
                pick = Pick("flyout", args.palette, None, args.palette_index)
            item, sb3, png = await author_item(
                page,
                args.id,
                pick,
                args.reference,
                ConnectionType(args.connection),
                args.input,
                args.instruction,
            )
            return save_authored(args.out, item, sb3, png)

    entry = asyncio.run(go())
    print(f"{entry.path}: {entry.item.instruction}")
    return EXIT_OK


def _drag_score(args: argparse.Namespace) -> int:
    from studio.services.drag.item import scan_items
    from studio.services.drag.scoring import execute, read_predictions, report, score_items

    items = {e.item.id: e for e in scan_items(args.items)}
    preds = read_predictions(args.predictions)
    groups = score_items(items, preds)
    if args.execute:

        async def go() -> None:
            from studio.services.browser import BrowserPool

            async with BrowserPool(spares=0) as pool:
                await execute(pool.context, _server(pool), items, groups, preds)

        asyncio.run(go())
    out = report(groups)
    if args.json:
        print(json.dumps(out, indent=2))
        return EXIT_OK
    cols = ("pass@1", "pass@2", "pass@3", "start_acc", "end_acc", "start_error_px", "end_error_px")
    print(f"{'group':<20} {'type':<8} " + " ".join(f"{c:>14}" for c in cols))
    for group, data in out.items():
        for part in ("overall", "T1", "T2"):
            row = data[part]
            cells = " ".join(f"{_cell(row.get(c)):>14}" for c in cols)
            print(f"{group:<20} {part:<8} {cells}")
            if "executed_success" in row:
                print(f"{'':<29} executed drags that connected: {row['executed_success']}%")
    return EXIT_OK


def _cell(value: Any) -> str:
    return "-" if value is None else f"{value}"


def _drag_review(args: argparse.Namespace) -> int:
    from studio.services.drag.agreement import approve
    from studio.services.drag.item import load_item
    from studio.services.drag.review import ReviewState

    entry = load_item(args.item)
    item = entry.item
    if args.approve:
        item = approve(item, args.by, args.labeler, args.comment)
    elif args.reject:
        item = item.model_copy(
            update={"review": item.review.move(ReviewState.REJECTED, args.by, args.comment)}
        )
    else:
        item = item.model_copy(
            update={"review": item.review.move(ReviewState.DRAFT, args.by, args.comment)}
        )
    entry.item = item
    entry.save()
    print(f"{item.id}: {item.review.state.value}")
    return EXIT_OK


def _drag_agreement(args: argparse.Namespace) -> int:
    from studio.services.drag.agreement import region_agreement
    from studio.services.drag.item import load_item

    out = region_agreement(load_item(args.item).item, args.first, args.second)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(
            f"{out['item']}: start IoU {out['start_iou']:.3f}, end IoU {out['end_iou']:.3f}, "
            f"mean {out['mean_iou']:.3f}"
        )
    return EXIT_OK


# ---- qa --------------------------------------------------------------------------------------
def _qa(args: argparse.Namespace) -> int:
    handler = {
        "capture": _qa_capture,
        "confirm": _qa_confirm,
        "score": _qa_score,
        "agreement": _qa_agreement,
        "run": cli_diagnostic_runs.qa_run,
    }[args.action]
    return handler(args)


def _qa_capture(args: argparse.Namespace) -> int:
    from studio.services.browser import BrowserPool
    from studio.services.drag.author import prepare_from_project
    from studio.services.drag.page import open_window
    from studio.services.qa.capture import capture, make_item
    from studio.services.qa.item import QaSet, QaType, Subject

    async def go() -> Any:
        async with BrowserPool(spares=0) as pool:
            page = await open_window(pool.context, _server(pool))
            await prepare_from_project(
                page, _server(pool), args.project, args.sprite, args.detach, (args.dx, args.dy)
            )
            png, info = await capture(page, args.area)
            subject = Subject(block_id=args.block, opcode=args.opcode, field=args.field)
            name = args.screenshot or f"{args.id}.png"
            item = await make_item(
                page, args.id, args.question, QaType(args.type), subject, name, args.hint, info
            )
            return item, png

    item, png = asyncio.run(go())
    qa = QaSet(args.out)
    shot = None if qa.screenshot_path(item.screenshot).is_file() else png
    qa.save(item, shot)
    assert item.suggestion is not None
    print(f"{item.task_id}: suggested {item.ground_truth!r} ({item.tag}; {item.suggestion.why})")
    return EXIT_OK


def _qa_confirm(args: argparse.Namespace) -> int:
    from studio.services.drag.review import ReviewState
    from studio.services.qa.item import QaSet, confirm

    qa = QaSet(args.qa_dir)
    item = confirm(qa.load(args.task_id), args.by, args.answer)
    if args.approve:
        item = item.model_copy(update={"review": item.review.move(ReviewState.APPROVED, args.by)})
    qa.save(item)
    print(f"{item.task_id}: {item.ground_truth} ({item.review.state.value})")
    return EXIT_OK


def _qa_score(args: argparse.Namespace) -> int:
    from studio.services.qa.item import QaSet
    from studio.services.qa.scoring import read_answers, score

    items = QaSet(args.qa_dir).items()
    out = {model: score(items, answers) for model, answers in read_answers(args.answers).items()}
    if args.json:
        print(json.dumps(out, indent=2))
        return EXIT_OK
    print(
        f"{'model':<20} {'connection':>11} {'existence':>10} {'field':>7} {'exact':>7} {'all':>7}"
    )
    for model, row in out.items():
        cells = [row["connection"], row["existence"], row["field"], row["field_exact"]]
        print(
            f"{model:<20} {_cell(cells[0]):>11} {_cell(cells[1]):>10} {_cell(cells[2]):>7} "
            f"{_cell(cells[3]):>7} {_cell(row['overall']):>7}"
        )
        if row["missing"]:
            print(f"  {len(row['missing'])} items without an answer count as wrong")
    return EXIT_OK


def _qa_agreement(args: argparse.Namespace) -> int:
    from studio.services.qa.item import QaSet
    from studio.services.qa.scoring import labeler_agreement

    out = labeler_agreement(QaSet(args.qa_dir).items(), args.first, args.second)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{out['items']} items, agreement {out['agreement']}%, kappa {out['kappa']}")
    return EXIT_OK


# ---- import / export -------------------------------------------------------------------------
def _diagnostics(args: argparse.Namespace) -> int:
    """The drag and QA part of `studio import|export scratchworld` (same code, same layout)."""
    from studio.cli_scratchworld import print_problems
    from studio.services.scratchworld.diagnostics import export_diagnostics_only, import_diagnostics

    verb = "import" if args.action == "import" else "export"
    print(
        f"note: `studio {verb} scratchworld` does the whole checkout (tasks too)", file=sys.stderr
    )
    try:
        if args.action == "import":
            report = import_diagnostics(args.src, args.dest, overwrite=args.overwrite)
        else:
            report = export_diagnostics_only(args.src, args.dest, overwrite=args.overwrite)
    except OSError as exc:
        raise StudioError(f"{exc.filename or ''}: {exc.strerror or exc}") from None
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        if not (report.drag_items or report.qa_items):
            print("0 drag items and 0 QA items")
        print_problems(report)
    return EXIT_FAILED if report.skipped else EXIT_OK

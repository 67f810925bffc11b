"""What the labeling commands do with drag items and QA sets (`studio.cli.diagnostics` parses).

```
studio regions compute ITEM... [--grid PX] [--pages N] [--fresh] [--compare] [--edition E] [--json]
studio drag author | score | review | agreement ...
studio qa confirm | score | agreement ...  (capture, recapture: studio.cli.diagnostics_qa)
```

Each handler takes the parsed arguments and returns the exit code: 0 done, 1 interrupted or
failed; bad input raises StudioError (exit 2, the message names the file). Regions are computed
and recorded by the use case `studio.app.regions` (the drag items tab's too). Review steps are
the services' (`diagnostics.drag.review`, `diagnostics.qa.review`): a refused step is a ReviewError
whose message is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import TYPE_CHECKING, Any

from studio.cli.common import EXIT_OK, ProgressBar, failed
from studio.models.errors import StudioError

if TYPE_CHECKING:
    from studio.app.regions import RegionOptions, RegionWorkshop
    from studio.services.diagnostics.drag.item import ItemFolder


def _server(pool: Any) -> Any:
    if pool.server is None:
        raise StudioError("the browser pool has no editor server")
    return pool.server


# ---- regions ---------------------------------------------------------------------------------
def regions_compute(args: argparse.Namespace) -> int:
    """Each item in turn on the same editor windows (opened once, warm for the next item)."""
    from studio.app.regions import (
        DEFAULT_PAGES,
        RegionInterrupted,
        RegionOptions,
        RegionWorkshop,
        prepare,
    )

    plan = prepare(args.items, args.edition, args.compare)
    options = RegionOptions(
        grid=args.grid or None,
        pages=args.pages or DEFAULT_PAGES,
        resume=not args.fresh,
        compare=args.compare,
        edition=plan.edition,
    )
    rows: list[dict[str, Any]] = []

    async def go() -> None:
        async with RegionWorkshop.opened() as workshop:
            for entry in plan.entries:
                rows.append(await _region_item(args, workshop, entry, options))

    try:
        asyncio.run(go())
    except (RegionInterrupted, KeyboardInterrupt) as exc:
        return failed(f"{exc or 'interrupted'}")
    if args.json:
        print(json.dumps(rows[0] if len(rows) == 1 else rows, indent=2))
    return EXIT_OK


async def _region_item(
    args: argparse.Namespace, workshop: RegionWorkshop, entry: ItemFolder, options: RegionOptions
) -> dict[str, Any]:
    """Compute and record one item's regions, print its lines; its JSON row."""
    # points verified, how many not known ahead; cleared after, the item's lines say the rest
    with ProgressBar(None, "point", leave=False) as bar:
        outcome = await workshop.compute(
            entry,
            options,
            lambda phase, done, asked: bar.advance(done, entry.item.id, f"{phase}: {asked} next"),
        )
    result, compared = outcome.result, outcome.compared
    if args.json:
        return dict(outcome.as_json())
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
            f"{len(result.end_points)} end points (grid {outcome.grid} px, grabbed at "
            f"({result.drag_start_point[0]:g}, {result.drag_start_point[1]:g})) in "
            f"{result.seconds:.1f} s, "
            f"{result.drags} real drags on {outcome.pages} pages"
            + (f", {result.resumed_drags} verdicts resumed" if result.resumed_drags else "")
        )
        print(f"  start: {result.start_points}")
        print(f"  end:   {result.end_points}")
    return {"item": entry.item.id}


# ---- drag ------------------------------------------------------------------------------------
def drag_author(args: argparse.Namespace) -> int:
    from studio.models.drag_item import ConnectionType
    from studio.services.diagnostics.drag.author import (
        Pick,
        author_item,
        prepare_from_project,
        save_authored,
    )
    from studio.services.diagnostics.drag.page import open_window
    from studio.services.runtime import page_scripts
    from studio.services.runtime.browser import BrowserPool

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
                opcode = await page_scripts.call(
                    page, page_scripts.EDITOR, "blockType", args.target
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


def drag_score(args: argparse.Namespace) -> int:
    from studio.services.diagnostics.drag.item import scan_items
    from studio.services.diagnostics.drag.scoring import (
        execute,
        read_predictions,
        report,
        score_items,
    )

    items = {e.item.id: e for e in scan_items(args.items)}
    preds = read_predictions(args.predictions)
    groups = score_items(items, preds)
    if args.execute:

        async def go() -> None:
            from studio.services.runtime.browser import BrowserPool

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


def drag_review(args: argparse.Namespace) -> int:
    from studio.models.items import ReviewState
    from studio.services.diagnostics.drag import review
    from studio.services.diagnostics.drag.item import load_item

    entry = load_item(args.item)
    item = entry.item
    if args.approve:
        item = review.approve(item, args.by, args.labeler, args.comment)
    else:
        state = ReviewState.REJECTED if args.reject else ReviewState.DRAFT
        item = review.move(item, state, args.by, args.comment)
    entry.item = item
    entry.save()
    print(f"{item.id}: {item.review.state.value}")
    return EXIT_OK


def drag_agreement(args: argparse.Namespace) -> int:
    from studio.services.diagnostics.drag.agreement import region_agreement
    from studio.services.diagnostics.drag.item import load_item

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
def qa_confirm(args: argparse.Namespace) -> int:
    from studio.services.diagnostics.qa import review
    from studio.services.diagnostics.qa.item import QaSet

    qa = QaSet(args.qa_dir)
    item = review.confirm(qa.load(args.task_id), args.by, args.answer)
    if args.approve:
        item = review.approve(item, args.by)
    qa.save(item)
    print(f"{item.task_id}: {item.ground_truth} ({item.review.state.value})")
    return EXIT_OK


def qa_score(args: argparse.Namespace) -> int:
    from studio.services.diagnostics.qa.item import QaSet
    from studio.services.diagnostics.qa.scoring import read_answers, score

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


def qa_agreement(args: argparse.Namespace) -> int:
    from studio.services.diagnostics.qa.item import QaSet
    from studio.services.diagnostics.qa.scoring import labeler_agreement

    out = labeler_agreement(QaSet(args.qa_dir).items(), args.first, args.second)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{out['items']} items, agreement {out['agreement']}%, kappa {out['kappa']}")
    return EXIT_OK

"""Running agents on the diagnostic items (drag items, QA sets) from the command line.

```
studio drag run ITEMS --agent oracle|random|scripted|llm [--k K] [--pages N] [--out DIR] [--json]
                [--ray ADDRESS]
studio qa run QA_DIR --agent oracle|random|scripted|llm [--workers N] [--out DIR] [--json]
```

`--seed` seeds the random agent, `--answers FILE` (JSON lines) feeds the scripted one, and the
LLM agent takes its endpoint from STUDIO_LLM_URL / STUDIO_LLM_MODEL / STUDIO_LLM_KEY. With
`--ray`, drag items play on a Ray cluster's workers (`--pages` per node) and the run folder is
written here, the same as a local run's. Exit codes
as the other labeling commands: 0 done, 1 some items could not be run, 2 bad input.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from studio.app.agents import item_agent
from studio.app.extensions import ITEM_AGENTS
from studio.cli.common import EXIT_FAILED, EXIT_OK, ProgressBar, failed
from studio.cli.protocol_flags import add_protocol_flags, resolve_item_protocol
from studio.models.errors import StudioError


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--agent",
        required=True,
        choices=ITEM_AGENTS,
        help="which agent answers: " + ITEM_AGENTS.describe(),
    )
    p.add_argument("--out", type=Path, default=Path("runs"), help="folder for the runs")
    p.add_argument("--seed", type=int, default=0, help="seed (random agent)")
    p.add_argument("--answers", type=Path, help="scripted agent: a JSON lines file")
    p.add_argument("--temperature", type=float, help="LLM agent: sampling temperature")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")


def add_actions(drag_sub: Any, qa_sub: Any) -> None:
    """`drag run` and `qa run`, on the `drag` and `qa` subcommands' parsers."""
    from studio.services.diagnostics.drag.scoring import K_MAX

    dr = drag_sub.add_parser(
        "run",
        help="run an agent on drag items (real drags, Pass@k)",
        description="For each item and attempt the agent sees the prepared screen and gives "
        "one drag, performed in the editor; results go to OUT/<agent>-drag-<timestamp>/.",
    )
    dr.add_argument("items", type=Path, help="a drag item folder or a folder of them")
    dr.add_argument(
        "--k", type=int, help=f"attempts per item (1-{K_MAX}; default 1, scratchworld: 3)"
    )
    dr.add_argument("--pages", type=int, default=1, help="items run at once (editor windows)")
    dr.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play the items on a Ray cluster: `local` starts one here, else HOST:PORT of a "
        "running cluster (--pages is then per node); the run folder is written here",
    )
    _common(dr)
    add_protocol_flags(dr, "drag")
    dr.set_defaults(handler=drag_run)
    qr = qa_sub.add_parser(
        "run",
        help="run an agent on a QA set (accuracy per type)",
        description="The agent answers every question of the set from its screenshot; "
        "results go to OUT/<agent>-qa-<timestamp>/.",
    )
    qr.add_argument("qa_dir", type=Path, help="QA set folder (items/, screenshots/)")
    qr.add_argument("--workers", type=int, default=1, help="questions asked at once")
    _common(qr)
    add_protocol_flags(qr, "qa")
    qr.set_defaults(handler=qa_run)


def _pct(value: Any) -> str:
    return "-" if value is None else f"{value:.2f}%"


# ---- drag run --------------------------------------------------------------------------------
def drag_run(args: argparse.Namespace) -> int:
    from studio.app.runners import item_runner
    from studio.services.diagnostics.drag.item import scan_items
    from studio.services.diagnostics.drag.run import new_run_dir, run_drag
    from studio.services.diagnostics.drag.scoring import K_MAX

    protocol = resolve_item_protocol(args, "drag").model_dump()
    if not 1 <= args.k <= K_MAX:
        raise StudioError(f"--k must be 1 to {K_MAX}")
    if args.pages < 1:
        raise StudioError("--pages must be at least 1")
    entries = scan_items(args.items)
    if not entries:
        raise StudioError(f"{args.items}: no drag items (item.json) below it")
    items = {e.item.id: e.item for e in entries}
    agent = _with_settings(
        item_agent("drag", args.agent, items, args.seed, args.answers, args.temperature),
        items,
        args,
    )
    from studio.services.runtime import editions

    for edition in sorted({editions.edition_of_item(e.path) for e in entries}, key=str):
        editions.require_installed(edition, "The drag items")  # each plays on its own
    run_dir = new_run_dir(args.out, args.agent, "drag")

    async def go(progress: ProgressBar) -> Any:
        async with item_runner(args.ray, args.pages) as (context, server, runner):
            return await run_drag(
                context,
                server,
                entries,
                agent,
                run_dir,
                args.k,
                args.pages,
                progress.on_outcome,
                str(args.items),
                runner=runner,
                protocol=protocol,
            )

    try:
        with ProgressBar(len(entries), "item", rate=f"Pass@{args.k}") as progress:
            run = asyncio.run(go(progress))
    except KeyboardInterrupt:
        return failed(f"interrupted; finished items are in {run_dir}")
    summary = run.summary()
    if args.json:
        print(json.dumps({"run_dir": str(run_dir), **summary}, indent=2))
    else:
        for item in run.items:
            print(item.line())
        passes = "  ".join(f"Pass@{i} {_pct(summary[f'pass@{i}'])}" for i in range(1, args.k + 1))
        print(
            f"{passes}  start acc {_pct(summary['start_acc'])}  end acc "
            f"{_pct(summary['end_acc'])}  ({len(run.items)} items) in {run.seconds:.1f} s"
        )
        for part in ("T1", "T2"):
            row = summary[part]
            if row["items"]:
                print(f"  {part}: Pass@1 {_pct(row['pass@1'])} over {row['items']} items")
        print(f"recorded in {run_dir}; `studio report {args.out}` lists the runs")
    return EXIT_FAILED if run.errors else EXIT_OK


def _with_settings(agent: Any, items: dict[str, Any], args: argparse.Namespace) -> Any:
    """The agent under the protocol's drag settings (GT Start, Knowledge), refused by name
    where the items or the agent lack what a setting needs."""
    from studio.services.diagnostics.drag_settings import SettingsDragAgent
    from studio.services.diagnostics.drag_settings import (
        settings_problems as drag_settings_problems,
    )

    settings = args.protocol_record.settings
    gt, knowledge = bool(settings.get("ground_truth_start")), bool(settings.get("knowledge"))
    prompted = ITEM_AGENTS.with_trait("reads-prompt")
    problems = drag_settings_problems(items, args.agent, gt, knowledge, prompted)
    if problems:
        raise StudioError("; ".join(problems))
    return SettingsDragAgent(agent, items, gt, knowledge) if gt or knowledge else agent


# ---- qa run ----------------------------------------------------------------------------------
def qa_run(args: argparse.Namespace) -> int:
    from studio.services.diagnostics.drag.run import new_run_dir
    from studio.services.diagnostics.qa.item import QaSet
    from studio.services.diagnostics.qa.run import run_qa

    if args.workers < 1:
        raise StudioError("--workers must be at least 1")
    protocol = resolve_item_protocol(args, "qa").model_dump()
    qa = QaSet(args.qa_dir)
    items = qa.items()
    if not items:
        raise StudioError(f"{args.qa_dir}: the QA set has no items")
    by_id = {i.task_id: i for i in items}
    agent = item_agent("qa", args.agent, by_id, args.seed, args.answers, args.temperature)
    run_dir = new_run_dir(args.out, args.agent, "qa")
    try:
        with ProgressBar(len(items), "item", rate="acc") as progress:
            run = asyncio.run(
                run_qa(qa, agent, run_dir, args.workers, progress.on_outcome, protocol)
            )
    except KeyboardInterrupt:
        return failed("interrupted")
    summary = run.summary()
    if args.json:
        print(json.dumps({"run_dir": str(run_dir), **summary}, indent=2))
    else:
        for outcome in run.outcomes:
            print(outcome.line())
        print(
            f"accuracy {_pct(summary['overall'])} over {summary['items']} items: connection "
            f"{_pct(summary['connection'])}, existence {_pct(summary['existence'])}, field "
            f"{_pct(summary['field'])} (exact {_pct(summary['field_exact'])})"
        )
        print(f"recorded in {run_dir}; `studio report {args.out}` lists the runs")
    return EXIT_FAILED if summary["errors"] else EXIT_OK

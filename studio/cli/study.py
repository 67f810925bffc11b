"""`studio study new|show|serve|export`: human baseline studies with participants in a browser.

```
studio study new LIBRARY --participants N [--tasks K] [--seed S] [--task ID ...]
                 [--practice ID] [--time-limit S] [--break S] --out STUDY
studio study show STUDY [--json]        the plan (no tokens), the board of who did what (and
                                        with --json the study's results tables)
studio study board STUDY                the same board, live, in a window
studio study serve STUDY [--port P] [--host H]   one link per participant, until Ctrl-C
studio study export STUDY --out DIR     the anonymized runs
```

`--tasks K` is the number of tasks each participant gets (all the study's tasks by default);
`--task ID` (repeated) picks the study's tasks from the library (default: all of them). The
participants' results sit in `STUDY/runs`: `studio report STUDY/runs` (or a folder holding
it and agents' runs) shows them as agent `human` beside the agents, and `studio report STUDY`
adds the study's per-participant and per-task tables. Exit codes: 0 done; 2 unusable input.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from studio.cli.common import EXIT_OK


def register(subparsers: Any) -> None:
    """Add `study` and its sub-commands."""
    study = subparsers.add_parser(
        "study", help="human baseline studies (participants in a browser)"
    )
    sub = study.add_subparsers(dest="study_command", required=True)
    new = sub.add_parser("new", help="plan a study: participants, counterbalanced queues")
    new.add_argument("library", type=Path, metavar="LIBRARY")
    new.add_argument("--participants", type=int, required=True, metavar="N")
    new.add_argument("--tasks", type=int, metavar="K", help="tasks per participant (default all)")
    new.add_argument("--seed", type=int, default=0, metavar="S", help="design seed (default 0)")
    new.add_argument("--task", action="append", metavar="ID", help="a study task (repeat)")
    new.add_argument(
        "--practice",
        metavar="ID",
        help="practice task (default: the easiest "
        "task outside the study's, none if every task is studied)",
    )
    new.add_argument("--time-limit", type=int, default=900, metavar="S", help="per task")
    new.add_argument(
        "--break",
        dest="break_s",
        type=int,
        default=60,
        metavar="S",
        help="break between tasks (default 60)",
    )
    new.add_argument("--out", type=Path, required=True, metavar="STUDY")
    new.set_defaults(handler=study_new)
    show = sub.add_parser("show", help="the plan and the board: participants x tasks")
    show.add_argument("study", type=Path, metavar="STUDY")
    show.add_argument("--json", action="store_true", help="plan and board as JSON")
    show.set_defaults(handler=study_show)
    serve = sub.add_parser("serve", help="serve the participant pages; prints their links")
    serve.add_argument("study", type=Path, metavar="STUDY")
    serve.add_argument("--port", type=int, default=0, metavar="P", help="default: a free one")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="H",
        help="address to listen on (default loopback; give another to let "
        "other machines in: each link carries its participant's token)",
    )
    serve.set_defaults(handler=study_serve)
    board = sub.add_parser("board", help="the live board in a window (double-click: the run)")
    board.add_argument("study", type=Path, metavar="STUDY")
    board.set_defaults(handler=study_board)
    export = sub.add_parser("export", help="write the anonymized runs to a new folder")
    export.add_argument("study", type=Path, metavar="STUDY")
    export.add_argument("--out", type=Path, required=True, metavar="DIR")
    export.set_defaults(handler=study_export)


def study_new(args: argparse.Namespace) -> int:
    from studio.services.episodes.human.protocol import ProtocolCard
    from studio.services.studies.plan import new_study, save_study

    card = ProtocolCard(time_limit_s=args.time_limit if args.time_limit > 0 else None)
    plan = new_study(
        args.library,
        args.out,
        args.participants,
        args.tasks,
        args.seed,
        args.task,
        args.practice,
        card,
    )
    plan.break_s = max(0, args.break_s)
    save_study(args.out, plan)
    print(
        f"study {plan.name}: {len(plan.participants)} participants, {len(plan.tasks)} tasks, "
        f"{plan.design.tasks_per_participant} each; practice {plan.practice or 'none'}"
    )
    for p in plan.participants:
        print(f"  {p.code}: {' '.join(p.queue)}")
    print(f"written to {args.out / 'study.json'}; serve it with `studio study serve {args.out}`")
    return EXIT_OK


def study_show(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from studio.services.studies.board import format_board, read_board
    from studio.services.studies.plan import load_study, public_view
    from studio.services.studies.results import study_results

    plan = load_study(args.study)
    board = read_board(args.study, plan)
    if args.json:
        rows = {code: [asdict(c) for c in cells] for code, cells in board.rows.items()}
        results = asdict(study_results(plan, board))
        data = {"plan": public_view(plan), "board": rows, "totals": board.totals()}
        print(json.dumps({**data, "results": results}, indent=2))
        return EXIT_OK
    print(f"study {plan.name}: library {plan.library} ({plan.edition}), mode {plan.mode.value}")
    card = plan.protocol
    print(
        f"protocol: sees {card.allowed_to_see}; uses {card.allowed_to_use}; stops when "
        f"{card.stopping_rule}; time limit {card.time_limit_s or 'none'} s; break {plan.break_s} s"
    )
    print(
        f"practice: {plan.practice or 'none'}; "
        f"design: {plan.design.method} (seed {plan.design.seed})"
    )
    sys.stdout.write(format_board(board))
    return EXIT_OK


def study_serve(args: argparse.Namespace) -> int:
    return asyncio.run(_serve(args))


async def _serve(args: argparse.Namespace) -> int:
    from studio.app.serving.study import start_study
    from studio.app.serving.until_stopped import serve_until_stopped

    server = await start_study(args.study, host=args.host, port=args.port)
    print(f"serving study {server.plan.name} on {server.base_url}; one link per participant:")
    for code, link in server.links().items():
        print(f"  {code}  {link}")
    sys.stdout.flush()
    await serve_until_stopped(server.close)
    print("stopped")
    return EXIT_OK


def study_board(args: argparse.Namespace) -> int:
    from studio.services.studies.plan import load_study
    from studio.views.sessions.study_board import show_board

    load_study(args.study)  # a clear error before any window opens
    return show_board(args.study)


def study_export(args: argparse.Namespace) -> int:
    from studio.services.studies.export import export_study
    from studio.services.studies.plan import load_study

    runs = export_study(args.study, load_study(args.study), args.out)
    print(f"{runs} runs exported to {args.out}")
    return EXIT_OK

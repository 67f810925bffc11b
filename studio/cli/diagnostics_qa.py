"""`studio qa capture` and `studio qa recapture` (added to `studio qa` by studio.cli.diagnostics).

```
studio qa capture PROJECT.sb3 --out QA_DIR --id ID --type TYPE --question TEXT
                  [--block ID | --opcode OP] [--field NAME] [--sprite S] [--category C]
                  [--detach BLOCK --dx DX --dy DY] [--small-stage]
                  [--published-state '{"scale": S, "scrollX": X, "scrollY": Y}']
                  [--area window|canvas] [--screenshot NAME] [--hint TEXT] [--edition E]
studio qa recapture QA_DIR [ID...] [--project P.sb3 [--detach BLOCK --dx DX --dy DY]]
                    [--edition E]
```

Both open an editor page of the QA set's edition (`edition.json` in the set or in the library
it sits in; `--edition` overrides), refused before a browser starts when that edition is not
installed. `capture` prepares the screen (studio.services.diagnostics.qa.screens), takes
the picture, writes a draft item whose truth is the VM's suggestion, and keeps the project as
shown beside the set (`projects/<screenshot stem>.sb3`) when none is kept for that screenshot yet.
`recapture` takes each screenshot of the chosen items (default: all) again from its kept
project (or `--project`, for one screenshot) and renews its items' clip, block box and
suggestion; truths and reviews stay. Exit codes: 0 done; 1 some item's truth is not what the VM
suggests now (listed; the items are written); 2 bad input.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from studio.cli.common import EXIT_FAILED, EXIT_OK
from studio.models.errors import StudioError
from studio.services.runtime import editions
from studio.services.runtime.editions import Edition


def _edition(args: argparse.Namespace) -> Edition:
    if args.edition:
        edition = Edition.parse(args.edition, "--edition")
    else:
        edition = editions.edition_for_set(args.out if hasattr(args, "out") else args.qa_dir)
    editions.require_installed(edition, "The QA set")
    return edition


async def _window(pool: Any, edition: Edition) -> Any:
    from studio.services.diagnostics.drag.page import open_window

    if pool.server is None:
        raise StudioError("the browser pool has no editor server")
    return await open_window(pool.context, pool.server, edition)


def published_arg(raw: str | None) -> dict[str, float] | None:
    """The workspace state `--published-state` gives (None without); bad JSON is a StudioError."""
    from studio.services.diagnostics.qa.screens import published_state

    if raw is None:
        return None
    try:
        return published_state(json.loads(raw))
    except json.JSONDecodeError as exc:
        raise StudioError(f"--published-state: not JSON ({exc.msg})") from None


def qa_capture(args: argparse.Namespace) -> int:
    from studio.models.qa_item import QaType, Subject
    from studio.services.diagnostics.qa import screens
    from studio.services.diagnostics.qa.capture import capture, make_item
    from studio.services.diagnostics.qa.item import QaSet
    from studio.services.runtime.browser import BrowserPool

    edition = _edition(args)
    screen = screens.Screen(
        target=args.sprite,
        category=args.category,
        detach=args.detach,
        offset=(args.dx, args.dy),
        small_stage=args.small_stage,
        published=published_arg(args.published_state),
    )
    try:
        project = args.project.read_bytes()
    except OSError as exc:
        raise StudioError(f"{args.project}: cannot read the project ({exc.strerror})") from None
    qa = QaSet(args.out)
    name = args.screenshot or f"{args.id}.png"

    async def go() -> Any:
        async with BrowserPool(spares=0) as pool:
            page = await _window(pool, edition)
            await screens.prepare(page, project, args.project.name, screen)
            png, info = await capture(page, args.area)
            info.update(screen.record())
            subject = Subject(block_id=args.block, opcode=args.opcode, field=args.field)
            item = await make_item(
                page, args.id, args.question, QaType(args.type), subject, name, args.hint, info
            )
            shown = await screens.shown_project(page)
            return item, png, shown

    item, png, shown = asyncio.run(go())
    shot = None if qa.screenshot_path(item.screenshot).is_file() else png
    if not screens.project_path(qa, name).is_file():
        screens.keep_project(qa, name, shown)
    qa.save(item, shot)
    assert item.suggestion is not None
    print(
        f"{item.task_id}: suggested {item.ground_truth!r} ({item.tag}; {item.suggestion.why}) "
        f"on the {edition.value} edition"
    )
    return EXIT_OK


def qa_recapture(args: argparse.Namespace) -> int:
    from studio.models.qa_item import QaItem
    from studio.services.diagnostics.qa import screens
    from studio.services.diagnostics.qa.item import QaSet
    from studio.services.runtime.browser import BrowserPool

    qa = QaSet(args.qa_dir)
    items = qa.items()
    if args.ids:
        known = {item.task_id for item in items}
        unknown = [i for i in args.ids if i not in known]
        if unknown:
            raise StudioError(f"{args.qa_dir}: no QA item {', '.join(unknown)}")
    chosen = {i.task_id for i in items if not args.ids or i.task_id in args.ids}
    shots: dict[str, list[QaItem]] = defaultdict(list)
    for item in items:  # every item of a chosen screenshot, since the picture changes for all
        shots[item.screenshot].append(item)
    shots = {s: group for s, group in shots.items() if any(i.task_id in chosen for i in group)}
    if args.project is not None and len(shots) != 1:
        raise StudioError(f"--project: the chosen items show {len(shots)} screenshots, not one")
    if args.detach and args.project is None:
        raise StudioError("--detach goes with --project (a kept project is stored as shown)")
    edition = _edition(args)

    async def go() -> list[screens.Recaptured]:
        async with BrowserPool(spares=0) as pool:
            page = await _window(pool, edition)
            return [
                await screens.recapture(
                    page, qa, shot, group, args.project, args.detach, (args.dx, args.dy)
                )
                for shot, group in shots.items()
            ]

    done = asyncio.run(go())
    disagree = [line for one in done for line in one.disagree]
    for one in done:
        boxed = sum(1 for i in one.items if "subject_box" in i.capture)
        print(f"{one.screenshot}: {len(one.items)} items renewed, {boxed} with a block box")
    print(f"on the {edition.value} edition")
    for line in disagree:
        print(f"  truth differs from the VM: {line}", file=sys.stderr)
    return EXIT_FAILED if disagree else EXIT_OK


def add_actions(q_sub: Any) -> None:
    """`qa capture` and `qa recapture` (into `studio qa`'s subparsers)."""
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
    cap.add_argument("--category", help="palette category to show (motion, looks, ...)")
    cap.add_argument("--detach", help="first take this block out of its place")
    cap.add_argument("--dx", type=float, default=0.0)
    cap.add_argument("--dy", type=float, default=0.0)
    cap.add_argument("--small-stage", action="store_true", help="small stage mode, as published")
    cap.add_argument(
        "--published-state",
        metavar="JSON",
        help='a published workspace state {"scale", "scrollX", "scrollY"}, restored as the '
        "edition restores published items",
    )
    cap.add_argument("--area", choices=("window", "canvas"), default="window")
    cap.add_argument("--screenshot", help="PNG name (default: ID.png)")
    cap.add_argument("--hint", default="")
    editions.add_argument(cap, "the one the QA set or its library records, else current")
    cap.set_defaults(handler=qa_capture)
    rc = q_sub.add_parser("recapture", help="take the screenshots of QA items again")
    rc.add_argument("qa_dir", type=Path)
    rc.add_argument("ids", nargs="*", help="items (default: all); their screenshots' items too")
    rc.add_argument("--project", type=Path, help="the project shown")
    rc.add_argument("--detach", help="with --project: first take this block out of its place")
    rc.add_argument("--dx", type=float, default=0.0)
    rc.add_argument("--dy", type=float, default=0.0)
    editions.add_argument(rc, "the one the QA set or its library records, else current")
    rc.set_defaults(handler=qa_recapture)

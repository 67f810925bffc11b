"""`studio gui`, `studio view` and `studio label`: the window's options are their options.

```
studio [--library DIR]                       the window on a task library (same as `studio gui`)
studio gui [--library DIR] [--open TASK_ID [--project initial|golden]] [--tab NAME] [--size WxH]
studio view PATH [--step N] [--library DIR] [--size WxH]        a recorded run in the Run tab
studio label [--drag DIR] [--qa DIR] [--tab drag|qa] [--item ID] [--library DIR]
```

`--library` may come before the sub-command (`studio --library tasks`, what `make run` runs) or
after it; given after, it wins. `studio` with no command runs `run` too (studio.cli sets it as the
top-level handler). Each command turns its options into one `GuiOptions` and hands
them to `studio.views.app.run_gui`; no argument list is parsed twice.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from studio.views.app import GuiOptions


def register(subparsers: Any) -> None:
    """Add `gui`, `view` and `label` to the studio's sub-commands (handler: `run`)."""
    from studio.views.app import LABELING_TABS, PROJECTS

    gui = subparsers.add_parser("gui", help="open the studio window (the default)")
    add_window_options(gui)
    gui.add_argument("--open", dest="open_task", metavar="TASK_ID", help="task to select first")
    gui.add_argument(
        "--project", choices=PROJECTS, default="golden", help="project of that task to open"
    )
    gui.add_argument("--tab", help="bottom tab to show (Task, Script, Results, Checks, Diff...)")
    gui.set_defaults(handler=run)

    vw = subparsers.add_parser(
        "view", help="open a recorded run (folder or .zip) in the studio window"
    )
    vw.add_argument("path", type=Path, help="trajectory folder or exported .zip")
    vw.add_argument("--step", type=int, default=1, help="step to show first")
    add_window_options(vw)
    vw.set_defaults(handler=run)

    lb = subparsers.add_parser(
        "label", help="open the labeling window of the diagnostics (drag regions, perception QA)"
    )
    lb.add_argument("--drag", type=Path, help="drag items folder (default: diagnostics/drag)")
    lb.add_argument("--qa", type=Path, help="QA set folder (default: diagnostics/qa)")
    lb.add_argument("--item", help="item to show first (of the tab shown)")
    lb.add_argument("--tab", choices=LABELING_TABS, default="drag", help="tab to show")
    add_window_options(lb)
    lb.set_defaults(handler=run)


def add_window_options(
    parser: argparse.ArgumentParser, library_default: Any = argparse.SUPPRESS
) -> None:
    """`--library` and `--size`. The default SUPPRESS leaves the top-level `--library` in
    place when the option is not given after the sub-command."""
    parser.add_argument(
        "--library", type=Path, default=library_default, help="task library folder to show"
    )
    parser.add_argument(
        "--size", type=_window_size, metavar="WxH", help="window size (default: remembered)"
    )


def _window_size(text: str) -> tuple[int, int]:
    from studio.views.app import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def gui_options(args: argparse.Namespace) -> GuiOptions:
    """The `GuiOptions` of a parsed `gui`, `view` or `label` command (or of none: `gui`)."""
    from studio.views.app import GuiOptions

    common = {"library": args.library, "size": getattr(args, "size", None)}
    if args.command == "view":
        return GuiOptions(**common, trajectory=args.path, step=args.step)
    if args.command == "label":
        return GuiOptions(
            **common, labeling=args.tab, drag_root=args.drag, qa_root=args.qa, item=args.item
        )
    return GuiOptions(
        **common,
        open_task=getattr(args, "open_task", None),
        project=getattr(args, "project", "golden"),
        tab=getattr(args, "tab", None),
    )


def run(args: argparse.Namespace) -> int:
    """Show the window as the command asks until it is closed; the exit code."""
    from studio.views.app import run_gui

    return run_gui(gui_options(args))

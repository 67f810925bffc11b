"""`studio blocks text|build` and `studio nl2scratch score`: Scratch as scratchblocks text.

```
studio blocks text PROJECT.sb3 [--sprite NAME] [--json]
studio blocks build TEXT --out PROJECT.sb3 [--into PROJECT.sb3] [--sprite NAME]
studio blocks set-task TASK --golden|--initial TEXT [--sprite NAME]
studio blocks picture PROJECT.sb3 [--sprite NAME] --out DIR|FILE.svg|FILE.html
studio nl2scratch score PREDICTIONS.jsonl [--gold GOLD.jsonl] [--tasks LIBRARY] [--json]
studio import nl2scratch FILE.jsonl DEST [--json]
studio export nl2scratch SRC OUT.jsonl [--json]
```

`blocks text` prints the scripts as canonical text (every target under its `// stage` /
`// sprite: NAME` marker, or one sprite's scripts alone); `--json` gives `{target: text}`.
`blocks build` reads the text (a file, `-` for stdin) and writes a new project, or with
`--into` the given project with the scripts of each target the text names replaced (text
without markers: the `--sprite` target); it prints what it had to create. A line that cannot
be placed stops the build (exit 2) with every such line named: nothing is written.
`blocks set-task TASK --golden|--initial TEXT` makes a task's golden (or initial) project
from text: the text's targets replace their scripts in that project (in a copy of the other
one when the task has none yet), written atomically, task.json's metadata updated
(`studio.app.text_authoring.set_task_project`).
`blocks picture` draws the scripts as SVG pictures with the scratchblocks package (Scratch 3
style; `studio.app.block_pictures` says what each form of `--out` holds).
`nl2scratch score` prints NL2Scratch's metrics (with `--json`, the totals under the scoring
script's names and the per-row figures); rows that cannot be used are listed on stderr. With
`--tasks LIBRARY` (the set imported there) each prediction is also built into its task's
project and judged by the task's script: a verdict per row and `execution_pass_rate`.
`import nl2scratch` makes one create task per row, its evaluation script proposed from
behaviour in the real editor (rows that cannot be parsed or observed are listed with their
line and why; exit 1 when no task was made); `export nl2scratch` writes the rows back.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from studio.app.formats import EXPORT_FORMATS, IMPORT_FORMATS
from studio.cli.common import EXIT_FAILED, EXIT_OK, ProgressBar

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add `blocks` and `nl2scratch` to the studio's subcommands."""
    blocks = subparsers.add_parser("blocks", help="Scratch projects as scratchblocks text")
    sub = blocks.add_subparsers(dest="blocks_command", required=True)
    text = sub.add_parser("text", help="print a project's scripts as block text")
    text.add_argument("project", type=Path, metavar="PROJECT.sb3")
    text.add_argument("--sprite", help="only this sprite's scripts ('Stage' for the stage)")
    text.add_argument("--json", action="store_true", help="{target name: text} as JSON")
    text.set_defaults(handler=show_text)
    build = sub.add_parser("build", help="build a project from block text")
    build.add_argument("text", metavar="TEXT", help="a text file, or - for stdin")
    build.add_argument("--out", type=Path, required=True, metavar="PROJECT.sb3")
    build.add_argument("--into", type=Path, metavar="PROJECT.sb3", help="replace scripts here")
    build.add_argument("--sprite", default="Sprite1", help="the target of unmarked text")
    build.set_defaults(handler=build_text)
    task = sub.add_parser("set-task", help="make a task's golden or initial project from text")
    task.add_argument("task", type=Path, metavar="TASK", help="the task folder")
    which = task.add_mutually_exclusive_group(required=True)
    which.add_argument("--golden", metavar="TEXT", help="a text file (- for stdin): the golden")
    which.add_argument("--initial", metavar="TEXT", help="a text file (- for stdin): the initial")
    task.add_argument("--sprite", default="Sprite1", help="the target of unmarked text")
    task.set_defaults(handler=set_task)
    picture = sub.add_parser("picture", help="draw a project's scripts as block pictures (SVG)")
    picture.add_argument("project", type=Path, metavar="PROJECT.sb3")
    picture.add_argument("--sprite", help="only this sprite's scripts ('Stage' for the stage)")
    picture.add_argument(
        "--out", type=Path, required=True, metavar="DIR|FILE.svg|FILE.html",
        help="a folder (one .svg per script and index.html), one .svg, or one .html page",
    )  # fmt: skip
    picture.set_defaults(handler=draw_pictures)
    nl2 = subparsers.add_parser("nl2scratch", help="NL2Scratch sets: score predictions")
    nsub = nl2.add_subparsers(dest="nl2scratch_command", required=True)
    score = nsub.add_parser("score", help="score a file of predictions by NL2Scratch's metrics")
    score.add_argument("predictions", type=Path, metavar="PREDICTIONS.jsonl")
    score.add_argument("--gold", type=Path, metavar="GOLD.jsonl")
    score.add_argument("--json", action="store_true", help="totals and per-row figures as JSON")
    score.add_argument(
        "--tasks", type=Path, metavar="LIBRARY",
        help="the set imported as tasks: run each prediction in its task, judged by its script",
    )  # fmt: skip
    score.set_defaults(handler=score_predictions)


def register_exchange(imports: Any, exports: Any) -> None:
    """Add `nl2scratch` to the formats of `studio import` and `studio export`."""
    imp = imports.add_parser(
        "nl2scratch",
        help=IMPORT_FORMATS.help("nl2scratch"),
        description="One create task per row {key, nl, pseudocode}; the evaluation script is "
        "proposed from the golden program's behaviour in the real editor.",
    )
    imp.add_argument("file", type=Path, metavar="FILE.jsonl")
    imp.add_argument("dest", type=Path, metavar="DEST", help="library folder to write into")
    imp.add_argument("--mutants", type=int, default=6, help="mutants that choose the tests")
    imp.add_argument("--workers", type=int, default=2, help="evaluations in parallel")
    imp.add_argument("--json", action="store_true", help="print the report as JSON")
    imp.set_defaults(handler=import_rows)
    exp = exports.add_parser("nl2scratch", help=EXPORT_FORMATS.help("nl2scratch"))
    exp.add_argument("src", type=Path, metavar="SRC", help="task folder or library")
    exp.add_argument("out", type=Path, metavar="OUT.jsonl")
    exp.add_argument("--json", action="store_true", help="print the report as JSON")
    exp.set_defaults(handler=export_rows)


def import_rows(args: argparse.Namespace) -> int:
    import asyncio

    return asyncio.run(_import_rows(args))


async def _import_rows(args: argparse.Namespace) -> int:
    from studio.services.formats.nl2scratch.importer import import_nl2scratch
    from studio.services.propose.pipeline import ProposeOptions
    from studio.services.runtime.browser import BrowserPool
    from studio.services.runtime.evaluator import Evaluator

    options = ProposeOptions(mutants=max(0, args.mutants), workers=max(1, args.workers))
    with ProgressBar(None, "row", leave=False, show=not args.json) as bar:

        def progress(done: int, total: int, what: str) -> None:
            bar.advance(done, what, "", total=total)

        async with BrowserPool(spares=options.workers) as pool:
            report = await import_nl2scratch(
                args.file, args.dest, Evaluator(pool), options, progress
            )
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        print(f"made {len(report.made)} task(s) in {args.dest}")
        for line in report.skipped:
            print(f"  skipped {line}")
    return EXIT_OK if report.ok else EXIT_FAILED


def export_rows(args: argparse.Namespace) -> int:
    from studio.services.formats.nl2scratch.exporter import export_nl2scratch

    report = export_nl2scratch(args.src, args.out)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(f"wrote {report.rows} row(s) to {args.out}")
        for line in report.skipped:
            print(f"  skipped {line}")
    return EXIT_OK


def show_text(args: argparse.Namespace) -> int:
    from studio.services.core.blocktext.project_text import project_text
    from studio.services.core.sb3 import load_sb3

    _data, project = load_sb3(args.project)
    if not args.json:
        print(project_text(project, args.sprite, str(args.project)))
        return EXIT_OK
    names = ["Stage" if t.get("isStage") else str(t["name"]) for t in project["targets"]]
    chosen = [args.sprite] if args.sprite else names
    out = {name: project_text(project, name, str(args.project)) for name in chosen}
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return EXIT_OK


def build_text(args: argparse.Namespace) -> int:
    from studio.services.core import atomic
    from studio.services.core.blocktext.project_text import build_into, build_project
    from studio.services.core.sb3 import load_sb3

    source = "stdin" if args.text == "-" else args.text
    text = sys.stdin.read() if args.text == "-" else Path(args.text).read_text("utf-8")
    if args.into:
        data, _project = load_sb3(args.into)
        built = build_into(data, str(args.into), text, source, args.sprite)
    else:
        built = build_project(text, source, args.sprite)
    atomic.write_bytes(args.out, built.data)
    print(f"wrote {args.out}: {built.scripts} script(s)")
    for item in built.created:
        print(f"  created {item}")
    return EXIT_OK


def set_task(args: argparse.Namespace) -> int:
    from studio.app.text_authoring import set_task_project

    which = "golden" if args.golden is not None else "initial"
    name = args.golden if args.golden is not None else args.initial
    source = "stdin" if name == "-" else name
    text = sys.stdin.read() if name == "-" else Path(name).read_text("utf-8")
    made = set_task_project(args.task, which, text, args.sprite, source)
    start = "" if made.base == which else f" (from the {made.base} project)"
    print(f"wrote {made.path}{start}: {made.scripts} script(s) from {source}")
    for item in made.created:
        print(f"  created {item}")
    return EXIT_OK


def draw_pictures(args: argparse.Namespace) -> int:
    from studio.app.block_pictures import write_pictures

    written = write_pictures(args.project, args.out, args.sprite)
    print(f"drew {written.scripts} script(s) into {args.out}")
    return EXIT_OK


def score_predictions(args: argparse.Namespace) -> int:
    import asyncio

    from studio.app.nl2scratch_scoring import score_with_execution

    with ProgressBar(
        None, "prediction", leave=False, show=bool(args.tasks) and not args.json
    ) as bar:

        def progress(done: int, total: int, what: str) -> None:
            bar.advance(done, what, "", total=total)

        scores = asyncio.run(
            score_with_execution(args.predictions, args.gold, args.tasks, progress)
        )
    for problem in scores.problems:
        print(f"skipped {problem}", file=sys.stderr)
    if args.json:
        print(json.dumps(scores.to_json(), indent=2))
        return EXIT_OK
    for name, value in scores.totals.items():
        print(
            f"{name:24} {int(value)}"
            if name in ("scored", "executed")
            else f"{name:24} {value:.4f}"
        )
    return EXIT_OK

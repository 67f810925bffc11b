"""Drive the real studio window from the command line, for screenshots and benches.

Run from the repository root (under Xvfb, or with QT_QPA_PLATFORM=offscreen):

  python -m tests.helpers.window_harness --library tasks --open TASK_ID --evaluate \\
      --screenshot shot.png

The window opens on `--library` (at `--size`), then the harness does, in this order, what its
options ask, and closes the window:

  --exit-when-ready          print "editor-ready <seconds since process start>" and stop there
                             (bench/bench_gui_start.py)
  --idle SECONDS             once the editor and the library are ready, print "idle-start", do
                             nothing for SECONDS, print "idle-end" (bench/bench_idle.py measures
                             the CPU used in between); --minimised minimises the window first
  --open TASK_ID             select that task and open its --project (initial|golden) ...
  --evaluate                 ... and evaluate the editor's project (prints the summary line)
  --trajectory PATH --step N open a recorded run (folder or .zip) and select step N
  --live-agent NAME          after --open: run that built-in agent live in --mode, paused; let
                             --step actions through, then stay paused
  --human-session NAME       after --open: start a human baseline session of participant NAME
                             on that task (the window in its session mode) and wait for it
  --check                    run the task's adversarial check
  --tab NAME                 show that bottom tab (Task, Script, Results, Checks, Diff, Review...)
  --labeling drag|qa         open the labeling window on that tab (--drag-root, --qa-root, --item)
  --screenshot PATH          grab the window shown last (the labeling window, if opened) as PNG

The exit code is 0 when every step did what it was asked (an evaluation passing), 1 when an
evaluation failed or a step raised, 2 when a task or run could not be opened.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from studio.app.extensions import MODES, window_agents
from studio.cli.window import add_window_options
from studio.services.core import paths
from studio.views import app

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from studio.views.window.main_window import MainWindow

SETTLE_BEFORE_GRAB_S = 1.0
POLL_S = 0.05
_T0 = time.perf_counter()


def process_age_s() -> float:
    """Seconds since this process started (from /proc; since import of this module elsewhere)."""
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")
        return float(Path("/proc/uptime").read_text().split()[0]) - started
    except (OSError, ValueError, IndexError):
        return time.perf_counter() - _T0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tests.helpers.window_harness",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_window_options(parser, library_default=paths.BUNDLED_TASKS)
    parser.add_argument("--exit-when-ready", action="store_true")
    parser.add_argument("--idle", type=float, metavar="SECONDS", help="sit idle, see above")
    parser.add_argument("--minimised", action="store_true", help="minimise before --idle")
    parser.add_argument("--open", dest="open_task", metavar="TASK_ID")
    parser.add_argument("--project", choices=app.PROJECTS, default="golden")
    parser.add_argument("--evaluate", action="store_true")
    parser.add_argument("--trajectory", type=Path, help="recorded run to open in the Run tab")
    parser.add_argument("--step", type=int, default=1, help="run step to show, or live steps")
    parser.add_argument("--live-agent", choices=window_agents())
    parser.add_argument("--mode", choices=MODES, default="primitive")
    parser.add_argument("--human-session", metavar="PARTICIPANT", help="start a human session")
    parser.add_argument("--check", action="store_true", help="run the task's check")
    parser.add_argument("--tab", help="bottom tab to show")
    parser.add_argument("--labeling", choices=app.LABELING_TABS, help="open the labeling window")
    parser.add_argument("--drag-root", type=Path, help="drag items folder of the labeling window")
    parser.add_argument("--qa-root", type=Path, help="QA set folder of the labeling window")
    parser.add_argument("--item", help="item to select in the labeling window's tab")
    parser.add_argument("--screenshot", type=Path, help="PNG of the window shown last")
    return parser


def script_for(opts: argparse.Namespace) -> app.WindowScript:
    """The steps `opts` ask for, as a script of `app.run_gui`."""

    async def script(window: MainWindow) -> int:
        await window.editor.wait_ready()
        if opts.exit_when_ready:
            print(f"editor-ready {process_age_s():.2f}", flush=True)
            return 0
        if opts.idle is not None:
            return await _idle(window, opts.idle, opts.minimised)
        code = 0
        if opts.open_task:
            code = await app.open_task(window, opts.open_task, opts.project)
            if code == 0 and opts.evaluate:
                code = await _evaluate(window)
        if opts.trajectory:
            code = await app.show_trajectory(window, opts.trajectory, opts.step) or code
        if opts.live_agent and opts.open_task:
            await _live_steps(window, opts.live_agent, opts.mode, opts.step)
        if opts.human_session and opts.open_task:
            await _human_session(window, opts.human_session)
        if opts.check:
            await window.quality.run_check()
        if opts.tab:
            await app.show_tab(window, opts.tab)
        shown: QWidget = window
        if opts.labeling:
            labeling = app.GuiOptions(
                labeling=opts.labeling,
                drag_root=opts.drag_root,
                qa_root=opts.qa_root,
                item=opts.item,
            )
            shown = app.open_labeling(window, labeling)
        if opts.screenshot and not await _grab(shown, opts.screenshot):
            code = 1
        return code

    return script


async def _idle(window: MainWindow, seconds: float, minimised: bool) -> int:
    """Sit still for `seconds` with the library shown (the window minimised if asked)."""
    await window.wait_library()
    await window.shell.pool()  # the evaluation browser the window starts has started
    if minimised:
        window.showMinimized()
    await asyncio.sleep(SETTLE_BEFORE_GRAB_S)  # let the start-up's last paints and timers end
    print("idle-start", flush=True)
    await asyncio.sleep(seconds)
    print("idle-end", flush=True)
    return 0


async def _evaluate(window: MainWindow) -> int:
    result = await window.evaluate_editor_project()
    if result is None:
        print(f"error: {window.results.summary_text()}", file=sys.stderr)
        return 1
    print(result.summary_line(), flush=True)
    return 0 if result.ok else 1


async def _live_steps(window: MainWindow, agent: str, mode: str, steps: int) -> None:
    """Start the agent live and paused, let `steps` actions through, stay paused."""
    from studio.models.agent import Mode
    from studio.views.viewer.start_run_dialog import RunChoice

    entry = window.library.current_entry()
    assert entry is not None
    choice = RunChoice(agent=agent, mode=Mode(mode), paused=True, seed=0)
    window.background.spawn(window.runs.run(entry, choice))
    live, panel = window.runs.live, window.run_panel

    async def until_paused() -> None:
        while live.controls is None or live.controls.pending is None:
            await asyncio.sleep(POLL_S)

    for number in range(1, steps + 1):
        await until_paused()
        panel.step()
        while panel.model.rowCount() < number:
            await asyncio.sleep(POLL_S)
    await until_paused()


async def _human_session(window: MainWindow, participant: str) -> None:
    """Start a session on the selected task; return once the participant could start."""
    from studio.services.episodes.human.protocol import ProtocolCard

    entry = window.library.current_entry()
    assert entry is not None
    human = window.runs.human
    card = ProtocolCard(participant=participant, time_limit_s=15 * 60)
    window.background.spawn(human.run(card, [entry]))
    while human.driver is None or not human.bar.isVisible():
        await asyncio.sleep(POLL_S)


async def _grab(shown: QWidget, path: Path) -> bool:
    """Save a PNG of the widget `shown` once it has settled; False (named) if it cannot."""
    await asyncio.sleep(SETTLE_BEFORE_GRAB_S)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not shown.grab().save(str(path), "PNG"):
        print(f"error: could not write {path}", file=sys.stderr)
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    opts = build_parser().parse_args(argv)
    return app.run_gui(app.GuiOptions(library=opts.library, size=opts.size), script_for(opts))


if __name__ == "__main__":
    raise SystemExit(main())

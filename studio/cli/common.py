"""What every `studio` command shares: exit codes, error printing, the dispatch to a handler,
and the progress bar of the long commands.

Exit codes (each command's docstring says which it uses): 0 done; 1 failed (some episodes or
items could not run, a verdict changed, files skipped); 2 unusable input; 130 interrupted
(Ctrl-C). The window's own code passes through.

Dispatch: each command group module (studio.cli.*) has `register(subparsers)`, which adds its
parsers and sets `handler=` (a `Handler`: parsed arguments -> exit code) on each leaf one.
`run_command` calls the handler of the parsed command. A StudioError (every named error of the
studio: task, project, review, JSON input ...) or a SetupError (a part that is not installed)
becomes one line `error: MESSAGE` on stderr (the message names the file and the problem) and
exit code 2; Ctrl-C ends with 130 and no traceback.

Progress: one bar per command on stderr (`ProgressBar`, drawn by tqdm): items finished out of
all, the last item's label and verdict, and, when the command names a rate (SR, Pass@k, acc),
the share of finished items that succeeded. The bar is drawn only when stderr is a terminal
(tqdm's `disable=None`): piped or redirected, a command writes nothing but its own output.
Nothing goes to stdout, so the JSON and the text reports stay exactly as they are.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from types import TracebackType
from typing import Protocol, TextIO

from tqdm import tqdm

from studio.models.errors import StudioError
from studio.services.core.paths import SetupError

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130

Handler = Callable[[argparse.Namespace], int]


def run_command(args: argparse.Namespace) -> int:
    """Call the handler the parsed command set; the exit code (see the module doc)."""
    handler: Handler = args.handler
    try:
        return handler(args)
    except (StudioError, SetupError) as exc:
        return bad_input(exc)
    except KeyboardInterrupt:
        return interrupted()


def bad_input(exc: BaseException) -> int:
    """Print `error: MESSAGE` on stderr; the exit code of unusable input."""
    print(f"error: {exc}", file=sys.stderr)
    return EXIT_BAD_INPUT


def failed(message: str) -> int:
    """Print `error: MESSAGE` on stderr; the exit code of a command that could not finish
    (the labeling runs stopped by Ctrl-C or by a region computation that gave up)."""
    print(f"error: {message}", file=sys.stderr)
    return EXIT_FAILED


def interrupted(note: str | None = None) -> int:
    """Print `note` (what is kept, how to go on) on stderr if any; the exit code of Ctrl-C."""
    if note:
        print(note, file=sys.stderr)
    return EXIT_INTERRUPTED


class Outcome(Protocol):
    """What a batch run reports after each episode or item (runs.batch, drag, qa)."""

    @property
    def label(self) -> str: ...

    @property
    def success(self) -> bool: ...

    @property
    def error(self) -> str | None: ...


class ProgressBar:
    """Items done out of `total` (a count alone when None), with the last one's label and
    mark; a context manager. `leave=False` clears the bar when it closes; `show=False` keeps
    it hidden even on a terminal (a command printing JSON there, say)."""

    def __init__(
        self,
        total: int | None,
        unit: str,
        rate: str | None = None,
        file: TextIO | None = None,
        leave: bool = True,
        show: bool = True,
    ) -> None:
        self.rate = rate
        self.passed = 0
        self._bar = tqdm(
            total=total,
            unit=unit,
            file=file if file is not None else sys.stderr,
            disable=None if show else True,
            dynamic_ncols=True,
            leave=leave,
        )

    @property
    def shown(self) -> bool:
        """Whether the bar is drawn (stderr is a terminal)."""
        return not self._bar.disable

    def advance(
        self, done: int, label: str, mark: str, succeeded: bool = False, total: int | None = None
    ) -> None:
        """`done` items are finished; the last one is `label`, its verdict `mark`. A `total`
        given (a count known only as the work goes) replaces the bar's."""
        if total is not None and total != self._bar.total:
            self._bar.total = total
        self.passed += bool(succeeded)
        parts = [f"{label[:30]} {mark}".rstrip()]
        if self.rate and done:
            parts.insert(0, f"{self.rate} {100 * self.passed / done:.0f}%")
        self._bar.set_postfix_str("  ".join(parts), refresh=False)
        self._bar.update(done - self._bar.n)

    def on_outcome(self, done: int, _total: int, outcome: Outcome) -> None:
        """The progress callback of batch runs: episodes, drag items, QA items."""
        mark = "ERR" if outcome.error else ("ok" if outcome.success else "fail")
        self.advance(done, outcome.label, mark, outcome.success)

    def write(self, line: str) -> None:
        """Print `line` on stdout now (flushed: a pipe sees it at once), above the bar."""
        tqdm.write(line, file=sys.stdout)
        sys.stdout.flush()

    def close(self) -> None:
        self._bar.close()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(
        self,
        _type: type[BaseException] | None,
        _value: BaseException | None,
        _tb: TracebackType | None,
    ) -> None:
        self.close()

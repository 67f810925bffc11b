"""The progress bar of the long commands (`check`, `run`, `drag run`, `qa run`, `regions
compute`), drawn by tqdm.

One bar per command on stderr: items finished out of all, the last item's label and verdict,
and, when the command names a rate (SR, Pass@k, acc), the share of finished items that
succeeded. The bar is drawn only when stderr is a terminal (tqdm's `disable=None`): piped or
redirected, a command writes nothing but its own output. Nothing goes to stdout, so the JSON and
the text reports stay exactly as they are.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Protocol, TextIO

from tqdm import tqdm


class Outcome(Protocol):
    """What a batch run reports after each episode or item (studio.services.batch, drag, qa)."""

    @property
    def label(self) -> str: ...

    @property
    def success(self) -> bool: ...

    @property
    def error(self) -> str | None: ...


class ProgressBar:
    """Items done out of `total` (a count alone when None), with the last one's label and
    mark; a context manager. `leave=False` clears the bar when it closes."""

    def __init__(
        self,
        total: int | None,
        unit: str,
        rate: str | None = None,
        file: TextIO | None = None,
        leave: bool = True,
    ) -> None:
        self.rate = rate
        self.passed = 0
        self._bar = tqdm(
            total=total,
            unit=unit,
            file=file if file is not None else sys.stderr,
            disable=None,
            dynamic_ncols=True,
            leave=leave,
        )

    @property
    def shown(self) -> bool:
        """Whether the bar is drawn (stderr is a terminal)."""
        return not self._bar.disable

    def advance(self, done: int, label: str, mark: str, succeeded: bool = False) -> None:
        """`done` items are finished; the last one is `label`, its verdict `mark`."""
        self.passed += bool(succeeded)
        parts = [f"{label[:30]} {mark}"]
        if self.rate and done:
            parts.insert(0, f"{self.rate} {100 * self.passed / done:.0f}%")
        self._bar.set_postfix_str("  ".join(parts), refresh=False)
        self._bar.update(done - self._bar.n)

    def on_outcome(self, done: int, _total: int, outcome: Outcome) -> None:
        """The progress callback of batch runs: episodes, drag items, QA items."""
        mark = "ERR" if outcome.error else ("ok" if outcome.success else "fail")
        self.advance(done, outcome.label, mark, outcome.success)

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

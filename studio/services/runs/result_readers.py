"""Result-folder readers by benchmark format: what `studio report` reads besides the studio's
own run.json files.

`RESULT_READERS` names, per format, a reader (root folder) -> `FieldRead`: the episodes it
found as report entries, the drag/QA diagnostics rows, and one line per folder or file it
could not use. The report (`reports.report_for`) asks every registered reader, in the order
they were added, and adds what each found. A reader is imported on the first report, by its
deferred target; a new format's reader is a function and one `add` line here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from studio.services.core.registry import Registry

__all__ = ["RESULT_READERS", "FieldRead", "ResultReader", "read_all"]


class FieldRead(Protocol):
    """What a reader returns: report entries, diagnostics rows and problem lines."""

    entries: list[Any]
    diagnostics: list[Any]
    problems: list[str]


ResultReader = Callable[[Path], FieldRead]

RESULT_READERS: Registry[ResultReader] = Registry("result-folder format")
RESULT_READERS.add(
    "scratchworld",
    "studio.services.runs.sw_results:load_field_results",
    "the published ScratchWorld runners' result folders (tasks, drag, perception QA)",
)


@dataclass
class _Together:
    entries: list[Any] = field(default_factory=list)
    diagnostics: list[Any] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def read_all(root: Path) -> FieldRead:
    """What every registered reader finds at or below `root`, together (readers in order)."""
    out = _Together()
    for name in RESULT_READERS:
        found = RESULT_READERS.get(name)(root)
        out.entries += found.entries
        out.diagnostics += found.diagnostics
        out.problems += found.problems
    return out

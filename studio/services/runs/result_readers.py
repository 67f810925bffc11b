"""Result-folder readers by benchmark format: what `studio report` reads besides the studio's
own run.json files.

`RESULT_READERS` names, per format, a reader (root folder) -> `FieldRead`: the episodes it
found as report entries, the diagnostics rows, and one line per folder or file it
could not use. The report (`reports.report_for`) and the bundle (`bundle.writer`) ask every
registered reader, in the order they were added, and add what each found. A reader is
imported on the first use, by its deferred target, so no module of `runs` imports a format
(the formats sit above `runs` in the layers contract); a new format's reader is a function and
one `add` line here.

A reader that also knows its runners' folders one by one (`ShowsFolders`: ScratchWorld's
`formats.scratchworld.results.reader.FIELD_READER`) gives, for a folder,

- `run_folder(folder)`: the runner's result folder an episode's folder belongs to (the run it
  is part of in the bundle), None when the folder is not one of its episodes;
- `view(folder)`: the folder as a trajectory view (a `trajectories.view.TrajectoryView`, flags
  set) when it is one of its runners', else None (the viewer, `trajectories.view.load_view`).

`folder_readers()` lists those, in registration order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from studio.services.core.registry import Registry

__all__ = [
    "RESULT_READERS",
    "FieldRead",
    "ResultReader",
    "ShowsFolders",
    "folder_readers",
    "read_all",
]


class FieldRead(Protocol):
    """What a reader returns: report entries, diagnostics rows and problem lines."""

    entries: list[Any]
    diagnostics: list[Any]
    problems: list[str]


ResultReader = Callable[[Path], FieldRead]

RESULT_READERS: Registry[ResultReader] = Registry("result-folder format")
RESULT_READERS.add(
    "scratchworld",
    "studio.services.formats.scratchworld.results.reader:FIELD_READER",
    "the published ScratchWorld runners' result folders (tasks, drag, perception QA)",
)


@runtime_checkable
class ShowsFolders(Protocol):
    """A reader that also places and shows its runners' folders one by one (see the module)."""

    def run_folder(self, folder: Path) -> Path | None: ...

    def view(self, folder: Path) -> object | None: ...


def folder_readers() -> list[ShowsFolders]:
    """The registered readers that are `ShowsFolders`, in registration order."""
    found: list[ShowsFolders] = []
    for name in RESULT_READERS:
        reader: object = RESULT_READERS.get(name)
        if isinstance(reader, ShowsFolders):
            found.append(reader)
    return found


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

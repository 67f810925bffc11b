"""Result folders other benchmarks' runners write, as the runs feature reads them.

The report (`reports.report_for`), the bundle (`bundle.writer`) and the trajectory viewer
(`trajectories.view.load_view`) read, beside the studio's own runs, the result folders a
benchmark's published runners write (today ScratchWorld's task, drag and perception runners).
A format gives a `FieldReader` for them; `READERS` names each by "module:attr", imported when
first used, so no module of `runs` imports a format (the formats sit above `runs` in the layers
contract, pyproject.toml). The readers are asked in the order of `READERS`:

- `read(root)`: everything at or below `root`: episodes as report entries, diagnostics rows,
  and problem lines naming the files that could not be read (never an exception for content).
- `run_folder(folder)`: the runner's result folder an episode's folder belongs to (the run it
  is part of in the bundle), None when the folder is not one of this runner's episodes.
- `view(folder)`: the folder as a trajectory view (a `trajectories.view.TrajectoryView`, flags
  set) when it is one of this runner's, else None.

A "module:attr" that cannot be imported, or names nothing, is a bug of the studio: ImportError
or AttributeError, raised on first use.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Protocol

from studio.models.report import DiagnosticRow, RunEntry

__all__ = ["READERS", "FieldRead", "FieldReader", "field_readers"]

READERS: tuple[str, ...] = ("studio.services.formats.scratchworld.results.reader:FIELD_READER",)


class FieldRead(Protocol):
    """What `FieldReader.read` found below a folder."""

    @property
    def entries(self) -> list[RunEntry]: ...

    @property
    def diagnostics(self) -> list[DiagnosticRow]: ...

    @property
    def problems(self) -> list[str]: ...


class FieldReader(Protocol):
    """A format's reader of its runners' result folders (see the module)."""

    def read(self, root: Path) -> FieldRead: ...

    def run_folder(self, folder: Path) -> Path | None: ...

    def view(self, folder: Path) -> object | None: ...


@cache
def field_readers() -> tuple[FieldReader, ...]:
    """The readers `READERS` names, imported on the first call."""
    found: list[FieldReader] = []
    for name in READERS:
        module, _, attr = name.partition(":")
        found.append(getattr(importlib.import_module(module), attr))
    return tuple(found)

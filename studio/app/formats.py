"""Benchmark formats by name: what `studio import FORMAT` and `studio export FORMAT` offer, and
the one way to import or export a set in a format.

- `IMPORT_FORMATS`: per format, the function that reads a set of that format into a library
  (tasks, and the drag and QA items it holds).
- `EXPORT_FORMATS`: per format, the function that writes a library (or recorded runs) out in
  that format.
- `ITEM_SET_IMPORTS`, `ITEM_SET_EXPORTS`: per format, the functions that read or write its
  drag and QA item sets alone (`studio diagnostics import|export --format`), all plain:
  `(src, dest, *, overwrite=False)` -> a report; `import_items` / `export_items` run them.

Each entry is a deferred import ("package.module:attribute") with a one-line help, the help
the command line shows for the format. A format whose function is *plain* (trait `plain`)
takes `(src, dest, *, overwrite=False, **options of its own)` and returns a report with `ok`
and `to_json()`: the command line gives it the generic `FORMAT SRC DEST [--overwrite]
[--json]` (unless it has a parser of its own) and `import_set` / `export_set` run it. A
format that needs more (NL2Scratch proposes scripts in the browser; Inspect AI and
submissions read campaigns) keeps a command-line parser of its own, which still takes its
help from here. The result folders a format's runners write are read by
`studio.services.runs.result_readers.RESULT_READERS`.

A new format: its functions in a module of its own, and one `add` line per direction here
(or `@IMPORT_FORMATS.register(NAME, help, traits=["plain"])` on the function).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from studio.models.errors import StudioError
from studio.services.core.registry import Registry

__all__ = [
    "EXPORT_FORMATS", "IMPORT_FORMATS", "ITEM_SET_EXPORTS", "ITEM_SET_IMPORTS", "PLAIN",
    "SetReport", "export_items", "export_set", "import_items", "import_set",
]  # fmt: skip

PLAIN = "plain"


class SetReport(Protocol):
    """What a plain import or export returns: whether it all went (`ok`), and the report as
    JSON data (what was made, what was skipped and why)."""

    @property
    def ok(self) -> bool: ...

    def to_json(self) -> dict[str, Any]: ...


IMPORT_FORMATS: Registry[Callable[..., Any]] = Registry("import format")
IMPORT_FORMATS.add(
    "scratchworld",
    "studio.services.formats.scratchworld.checkout:import_checkout",
    "a checkout of the ScratchWorld repository",
    traits=[PLAIN],
)
IMPORT_FORMATS.add(
    "nl2scratch",
    "studio.services.formats.nl2scratch.importer:import_nl2scratch",
    "an NL2Scratch JSON-lines file: one create task per row",
)

EXPORT_FORMATS: Registry[Callable[..., Any]] = Registry("export format")
EXPORT_FORMATS.add(
    "scratchworld",
    "studio.services.formats.scratchworld.checkout:export_checkout",
    "the ScratchWorld repository layout",
    traits=[PLAIN],
)
EXPORT_FORMATS.add(
    "inspect",
    "studio.services.runs.inspect_log:export_inspect",
    "Inspect AI eval logs of recorded runs (needs the optional extra [inspect])",
)
EXPORT_FORMATS.add(
    "submission",
    "studio.services.formats.scratchworld.submission:write_submission",
    "a campaign as a ScratchWorld leaderboard submission (JSONL)",
)
EXPORT_FORMATS.add(
    "nl2scratch",
    "studio.services.formats.nl2scratch.exporter:export_nl2scratch",
    "NL2Scratch rows {key, nl, pseudocode}",
)


ITEM_SET_IMPORTS: Registry[Callable[..., Any]] = Registry("item set format")
ITEM_SET_IMPORTS.add(
    "scratchworld",
    "studio.services.formats.scratchworld.items.sets:import_diagnostics",
    "the single-step drag and perception QA items of a ScratchWorld checkout",
    traits=[PLAIN],
)
ITEM_SET_EXPORTS: Registry[Callable[..., Any]] = Registry("item set format")
ITEM_SET_EXPORTS.add(
    "scratchworld",
    "studio.services.formats.scratchworld.items.sets:export_diagnostics_only",
    "drag and QA items in the ScratchWorld published layout",
    traits=[PLAIN],
)


def import_set(
    format: str, src: Path | str, dest: Path | str, *, overwrite: bool = False, **options: Any
) -> SetReport:
    """Import the set at `src` (format `format`) into the library `dest`; its report.
    `options` are the format's own keywords (ScratchWorld's `tasks_dir`, ...). StudioError for
    an unknown format (naming the choices) or one that is not plain."""
    importer = _plain(IMPORT_FORMATS, format)
    return importer(Path(src), Path(dest), overwrite=overwrite, **options)


def export_set(
    format: str, src: Path | str, dest: Path | str, *, overwrite: bool = False, **options: Any
) -> SetReport:
    """Export the library `src` to `dest` in format `format`; its report (`options` as for
    `import_set`). StudioError for an unknown format (naming the choices) or one that is not
    plain."""
    exporter = _plain(EXPORT_FORMATS, format)
    return exporter(Path(src), Path(dest), overwrite=overwrite, **options)


def import_items(
    format: str, src: Path | str, dest: Path | str, *, overwrite: bool = False
) -> SetReport:
    """Import the drag and QA item sets of `src` (format `format`) into the library `dest`;
    its report. StudioError for an unknown format (naming the choices) or a set without items."""
    return _plain(ITEM_SET_IMPORTS, format)(Path(src), Path(dest), overwrite=overwrite)


def export_items(
    format: str, src: Path | str, dest: Path | str, *, overwrite: bool = False
) -> SetReport:
    """Export the drag and QA items of `src` (a library or its item folder) to `dest` in
    format `format`; its report."""
    return _plain(ITEM_SET_EXPORTS, format)(Path(src), Path(dest), overwrite=overwrite)


def _plain(registry: Registry[Callable[..., Any]], format: str) -> Callable[..., SetReport]:
    if PLAIN not in registry.entry(format).traits:
        plain = ", ".join(registry.with_trait(PLAIN)) or "none"
        raise StudioError(
            f"{registry.kind} {format!r} takes options of its own: not a plain SRC DEST one "
            f"(plain: {plain})"
        )
    function: Callable[..., SetReport] = registry.get(format)
    return function

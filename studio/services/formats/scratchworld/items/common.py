"""What drag items and QA items share on their way to and from the published layout.

Round trip. Import keeps each record as read, with its file name and JSON style, in the item's
`sw_source` (`source_of`). Export starts from that record and lays over it only the published
fields the studio changed, compared with what import makes of the record (`Overlay`), so an
unchanged item is written back byte for byte (`record_bytes`) and studio-only data (review,
labels, answers, ...) stays in the studio. A changed value is spelled as the one it replaces
(`_like`): whole numbers without `.0` when the old value had no fractions, points as {x, y}
objects when they were. Items made in the studio have no record: they are written with the
published keys plus a `"studio"` key (`STUDIO_KEY`) holding the rest, which import reads back.

Untrusted input. A file of the checkout that is a symbolic link out of it is not read
(`in_checkout`). File names taken from records are used only when plain (`plain_name`: no
folders, no `..`, nothing hidden). Records are read up to `MAX_RECORD_BYTES` and must hold one
JSON object (`read_record`); other files are read up to a limit (`read_capped`), screenshots up
to `MAX_SCREENSHOT_BYTES` and only when they are PNG files (`read_png`). Whatever is wrong with
one item is a `BadRecord` naming the file, the problem and the field; the caller puts it in the
report's skipped list and goes on with the next item.

Export. `Output` is the files of one export: a path holds one content (the same bytes may be put
twice, other bytes are a clash the caller reports). `check_dest` refuses a destination that is
not an empty folder unless `overwrite`.

The helpers (`BadRecord`, `read_record`, `source_of`, `Overlay`, ...) are shared by drag.py,
drag_record.py and qa.py; other modules use the published package's entry points.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from studio.models.errors import StudioError
from studio.models.items import SwSource
from studio.services.core.atomic import write_bytes
from studio.services.core.names import contained
from studio.services.core.untrusted_json import JsonInputError, loads
from studio.services.diagnostics.drag.item import DragItemError, png_size
from studio.services.formats.scratchworld.tasks.layout import JsonStyle
from studio.services.formats.scratchworld.tasks.reports import ExportReport, ImportReport, Problem

__all__ = [
    "MAX_RECORD_BYTES", "MAX_SCREENSHOT_BYTES", "SOURCE_FIELDS", "STUDIO_KEY", "BadRecord",
    "Output", "Overlay", "Report", "check_dest", "from_validation", "in_checkout", "plain_name",
    "read_capped", "read_png", "read_record", "record_bytes", "require", "source_of", "who_of",
]  # fmt: skip

STUDIO_KEY = "studio"
# What an item file keeps of the published record; a "studio" key of a record never sets them.
SOURCE_FIELDS = frozenset({"sw_source", "sw_extra"})

MAX_RECORD_BYTES = 16 * 1024 * 1024
MAX_SCREENSHOT_BYTES = 32 * 1024 * 1024

Report = ImportReport | ExportReport


class BadRecord(StudioError):
    """One item that cannot be imported or exported: which file, what, which field."""

    def __init__(self, file: Path, problem: str, field: str | None = None) -> None:
        super().__init__(problem)
        self.problem = Problem(file, problem, field)


def plain_name(value: Any) -> bool:
    """A file name to use as it is: no folders, no `..`, nothing hidden, nothing odd."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= 255
        and not value.startswith(".")
        and value == value.strip()
        and not any(c in value for c in "/\\:\0")
    )


def in_checkout(path: Path, roots: Iterable[Path], record: Path, field: str | None) -> None:
    """BadRecord when `path` is a symbolic link (or lies in a linked folder) out of the checkout."""
    if path.exists() and not any(contained(path, root) for root in roots):
        msg = f"{path} is a symbolic link to {path.resolve()}, outside the checkout; not copied"
        raise BadRecord(record, msg, field)


def read_capped(path: Path, limit: int, who: str, field: str | None, record: Path) -> bytes:
    if not path.is_file():
        raise BadRecord(record, f"{who}: names {path.name}, which is not in {path.parent}", field)
    size = path.stat().st_size
    if size > limit:
        raise BadRecord(path, f"{who}: {size} bytes, more than the {limit} allowed")
    return path.read_bytes()


def read_record(path: Path) -> tuple[dict[str, Any], str]:
    size = path.stat().st_size
    if size > MAX_RECORD_BYTES:
        raise BadRecord(
            path, f"{size} bytes, more than the {MAX_RECORD_BYTES} allowed for a record"
        )
    try:
        text = path.read_text(encoding="utf-8")
        raw = loads(text, path, max_bytes=MAX_RECORD_BYTES)
    except JsonInputError as exc:
        raise BadRecord(path, exc.problem) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadRecord(path, f"cannot be read ({exc})") from None
    if not isinstance(raw, dict):
        raise BadRecord(path, "must hold one JSON object")
    return raw, text


def read_png(path: Path, who: str, record: Path) -> bytes:
    data = read_capped(path, MAX_SCREENSHOT_BYTES, who, "screenshot", record)
    try:
        png_size(data)
    except DragItemError:
        raise BadRecord(path, f"{who}: not a PNG file") from None
    return data


def who_of(raw: dict[str, Any], key: str, path: Path) -> str:
    value = raw.get(key)
    return f"item {value}" if isinstance(value, str | int) and value != "" else f"item {path.stem}"


def require(raw: dict[str, Any], keys: Iterable[str], who: str, path: Path) -> None:
    missing = [k for k in keys if k not in raw]
    if missing:
        raise BadRecord(path, f"{who}: required field is missing", ", ".join(missing))


def from_validation(exc: ValidationError, who: str, path: Path) -> BadRecord:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    return BadRecord(path, f"{who}: {err['msg']}", loc or None)


# ---- round trip ------------------------------------------------------------------------------
def source_of(raw: dict[str, Any], file: str, text: str) -> dict[str, Any]:
    style = JsonStyle.detect(text)
    exact = style.dump(raw) == text
    return {
        "file": file,
        "record": copy.deepcopy(raw),
        "style": style.model_dump(),
        "text": None if exact else text,
    }


def record_bytes(source: SwSource, out: dict[str, Any], changed: bool) -> bytes:
    """The file of a published record: as read when unchanged, else in the file's style."""
    try:
        style = JsonStyle.model_validate(source.style)
    except ValidationError:  # an item file can hold anything there: the default style then
        style = JsonStyle()
    if not changed and source.text is not None and _is_record(source.text, source.record):
        return source.text.encode("utf-8")
    return style.dump(out).encode("utf-8")


def _is_record(text: str, record: dict[str, Any]) -> bool:
    """Whether the kept text is the record itself (else it is not written: an item file could
    hold any text there)."""
    try:
        return bool(loads(text, "sw_source.text", max_bytes=MAX_RECORD_BYTES) == record)
    except JsonInputError:
        return False


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    return False


def _whole(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_whole(v) for v in value]
    return value


def _like(new: Any, old: Any) -> Any:
    """A changed value spelled as the one it replaces: whole numbers without `.0` when the old
    value had no fractions, points as {x, y} objects when they were."""
    if old is None:
        return new
    if not _has_float(old):
        new = _whole(new)
    is_xy = isinstance(old, dict) and "x" in old and "y" in old
    if is_xy and isinstance(new, list) and len(new) == 2:
        return {"x": new[0], "y": new[1]}
    if isinstance(old, list) and old and isinstance(old[0], dict) and isinstance(new, list):
        return [_like(p, old[0]) for p in new]
    return new


_MISSING = object()


class Overlay:
    """Lays the published fields the studio changed over a copy of the original record."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.out = copy.deepcopy(record)
        self.changed = False

    def put(self, obj: dict[str, Any], key: str, new: Any, base: Any) -> None:
        if new != base:
            obj[key] = _like(new, obj.get(key))
            self.changed = True

    def extra(self, current: dict[str, Any], base: dict[str, Any]) -> None:
        for key in dict.fromkeys([*base, *current]):
            if key not in current:
                self.out.pop(key, None)
                self.changed = True
            else:
                self.put(self.out, key, current[key], base.get(key, _MISSING))


# ---- export ----------------------------------------------------------------------------------
class Output:
    """The files of one export: a path holds one content (the same bytes may be put twice)."""

    def __init__(self, dest: Path, already: Iterable[str] = ()) -> None:
        self.dest = dest
        self.files: dict[str, bytes | None] = dict.fromkeys(already)  # None: on disk

    def fits(self, rel: str, data: bytes) -> bool:
        if rel not in self.files:
            return True
        known = self.files[rel]
        if known is None:
            known = self.files[rel] = (self.dest / rel).read_bytes()
        return known == data

    def put(self, files: dict[str, bytes]) -> None:
        for rel, data in files.items():
            if rel not in self.files:
                write_bytes(self.dest / rel, data)
                self.files[rel] = data

    def clash(self, files: dict[str, bytes]) -> str | None:
        return next((rel for rel, data in files.items() if not self.fits(rel, data)), None)


def check_dest(dest: Path, overwrite: bool) -> None:
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())) and not overwrite:
        raise StudioError(f"{dest}: exists and is not an empty folder; not overwritten")

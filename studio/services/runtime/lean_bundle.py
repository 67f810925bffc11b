"""The GUI bundle without its editor: the script an evaluation page loads.

An evaluation page needs the Scratch classes (VM, renderer, storage, audio engine, bitmap
adapter) from the bundle's webpack module table, never the editor. Loaded as it is, the bundle
also runs its entry: every module of the GUI (React components, scratch-blocks, locale
messages...) is compiled and run before the page can start, about half of a cold page's load
(goto to DOMContentLoaded on a fresh profile, 2 cores: 1.9-2.3 s with the entry, 0.8-1.0 s
without; docs/evaluation-page.md).

`lean_path(edition, entry, cache)` is the edition's entry script with one change: the call that
runs the entry is left out. The webpack runtime and the module table (every module factory,
byte for byte) stay, so the page still reaches the table through the chunk-loading global
(`webpackChunkGUI`) and nothing else runs until asked for; scratch-classes.js finds each class
by its source, as before, and every evaluation runs the modules it needs from a fresh module
cache. The classes are the editor's own: tests/e2e/test_lean_bundle.py finds them on the
editor page of each edition and compares them with its VM's.

Per edition (`ENTRY_CALLS`) a pattern names the entry call in its pinned build and what
replaces it; a bundle in which the pattern is not found exactly once (another build) is a
`LeanBundleError` naming the file and the edition. The lean script is written once per entry
file (its size and modification time in its name) into the cache folder, atomically, and
served from there like a bundle file, so the browser keeps it (and V8 its code) by URL.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path

from studio.models.errors import StudioError
from studio.services.core.atomic import write_bytes
from studio.services.runtime.editions import Edition

__all__ = [
    "ENTRY_CALLS", "LEAN_PREFIX", "VERSION", "EntryCall", "LeanBundleError", "lean_path",
    "lean_source",
]  # fmt: skip

LEAN_PREFIX = "studio-lean/"  # served path of a lean script, under the edition's prefix
VERSION = 1  # of the change; part of the file name, so a new change makes a new file


@dataclass(frozen=True)
class EntryCall:
    """Where an edition's build runs its entry, and what the lean script has there instead."""

    pattern: bytes  # a regular expression, found exactly once in the entry script
    replacement: bytes
    shown: str  # the call as an error message names it


ENTRY_CALLS = {
    # @scratch/scratch-gui-standalone 15: the runtime ends `let __webpack_exports__ =
    # __webpack_require__(<entry id>); return __webpack_exports__`.
    Edition.CURRENT: EntryCall(
        rb"let __webpack_exports__=__webpack_require__\(\d+\);",
        b"let __webpack_exports__={};",
        "let __webpack_exports__=__webpack_require__(<id>);",
    ),
    # scratch-gui 5.1.89: the entry's modules are concatenated into one function that the
    # runtime calls last (`return (() => {...entry...})(), __webpack_exports__`); the lean
    # script returns before it (the function is parsed, never compiled or run).
    Edition.CLASSIC: EntryCall(
        rb"var __webpack_exports__=\{\};return\(\(\)=>\{",
        b"var __webpack_exports__={};return __webpack_exports__;(()=>{",
        "var __webpack_exports__={};return(()=>{",
    ),
}

_lock = threading.Lock()


class LeanBundleError(StudioError):
    """The bundle's entry script is not the build its edition's pattern was made for."""


def lean_source(edition: Edition, source: bytes, name: str) -> bytes:
    """`source` (the edition's entry script, `name` for messages) without its entry call."""
    call = ENTRY_CALLS[edition]
    found = len(re.findall(call.pattern, source))
    if found != 1:
        raise LeanBundleError(
            f"{name}: the {edition.value} edition's entry call `{call.shown}` is "
            f"found {found} times, not once: this is not the build the studio pins (run "
            f"`make bundle` for the current edition, `make bundle-classic` for the classic one)"
        )
    return re.sub(call.pattern, lambda _m: call.replacement, source, count=1)


def lean_path(edition: Edition, entry: Path, cache: Path) -> Path:
    """The lean script of `entry` (the edition's entry script) in folder `cache`, made on the
    first call for this entry file."""
    stat = entry.stat()
    target = cache / f"{edition.value}-{stat.st_size}-{stat.st_mtime_ns}-v{VERSION}-{entry.name}"
    with _lock:
        if not target.is_file():
            write_bytes(target, lean_source(edition, entry.read_bytes(), str(entry)))
    return target

"""Editor editions: which Scratch editor a task set runs on, and the one place they differ.

The studio drives two editions of the Scratch editor:

- *current*: `@scratch/scratch-gui-standalone` 15.1.1 (scratch-blocks 2 on Blockly 12), the
  studio's own editor; new libraries use it.
- *classic*: the unscoped `scratch-gui` 5.1.89 (scratch-blocks 1.x, React 16 from the npm
  registry's UMD builds), mounted as the published ScratchWorld benchmark's playground page is
  (SCRATCHWORLD_API.md section 11); a ScratchWorld import uses it.

What differs between them is decided here and in the per-edition page adapter
(`resources/js/edition-<name>.js`, which defines `window.studioEdition`: how the page mounts the
GUI, reaches its store, finds the Blockly component); the shared page scripts call the adapter
and never test which edition they are in. An edition's pages are served under its URL prefix
(`""` for current, `"classic/"` for classic): `<prefix>editor.html` is the editor,
`<prefix>eval.html` the headless evaluation page; the bundle's own files are served under the
same prefix.

Bundles are fetched at set-up (`make bundle`, `make bundle-classic`). An edition's bundle is
looked for in its environment variable when set (and only there), else in a checkout's
`resources/<folder>/dist`, then in the per-user data folder's `<folder>/dist`. A bundle lacking
a file the edition needs, or holding an empty one, is missing; the error names the edition, the
folders looked in and the command that fetches it.

The edition of a task library is recorded in `<library>/edition.json` (`{"edition": "classic"}`);
a library without that file is *current* (`read_edition`, `write_edition`). A task folder takes
its library's (`edition_for`); a diagnostics set (`<library>/diagnostics/qa`) too, unless it
records its own (`edition_for_set`).
"""

from __future__ import annotations

import enum
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.models.errors import StudioError
from studio.services.core import atomic, paths

__all__ = [
    "EDITIONS", "EDITION_FILE", "ITEM_LEVELS", "Edition", "EditionInfo", "add_argument",
    "bundle_dir", "bundle_places", "choose", "choose_items", "edition_for", "edition_for_set",
    "edition_of_item", "edition_of_page", "info", "read_edition", "require_installed",
    "write_edition",
]  # fmt: skip

EDITION_FILE = "edition.json"


class Edition(enum.Enum):
    """An editor edition; its value is how files and command lines name it."""

    CURRENT = "current"
    CLASSIC = "classic"

    @classmethod
    def parse(cls, value: str, where: str = "edition") -> Edition:
        try:
            return cls(value)
        except ValueError:
            names = ", ".join(e.value for e in cls)
            raise StudioError(
                f"{where}: unknown editor edition {value!r} (one of {names})"
            ) from None


@dataclass(frozen=True)
class EditionInfo:
    """Where an edition's bundle comes from and lives, and where its pages are served."""

    edition: Edition
    package: str  # what `npm pack` fetches (name@version)
    folder: str  # the bundle's folder under resources/ and under the per-user data folder
    files: tuple[str, ...]  # files of dist/ the pages load (the first is the GUI's entry)
    env: str  # the environment variable naming a dist folder that replaces the lookup
    make_target: str
    prefix: str  # URL prefix of the edition's pages and bundle files on the editor server

    @property
    def entry(self) -> str:
        return self.files[0]

    @property
    def editor_page(self) -> str:
        return f"{self.prefix}editor.html"

    @property
    def eval_page(self) -> str:
        return f"{self.prefix}eval.html"


EDITIONS = {
    Edition.CURRENT: EditionInfo(
        Edition.CURRENT,
        f"{paths.BUNDLE_PACKAGE}@{paths.BUNDLE_VERSION}",
        "scratch-gui",
        (paths.BUNDLE_ENTRY,),
        "STUDIO_BUNDLE_DIR",
        "bundle",
        "",
    ),
    Edition.CLASSIC: EditionInfo(
        Edition.CLASSIC,
        "scratch-gui@5.1.89",  # the Makefile's CLASSIC_VERSION (a test keeps them equal)
        "scratch-gui-classic",
        ("scratch-gui.js", "react.production.min.js", "react-dom.production.min.js"),
        "STUDIO_CLASSIC_BUNDLE_DIR",
        "bundle-classic",
        "classic/",
    ),
}


def add_argument(parser: Any, default: str = "the one the library records, else current") -> None:
    """A command's `--edition` option (argparse); None when not given."""
    parser.add_argument(
        "--edition",
        choices=[e.value for e in Edition],
        help=f"editor edition to run on (default: {default})",
    )


def info(edition: Edition) -> EditionInfo:
    return EDITIONS[edition]


def bundle_places(edition: Edition) -> list[Path]:
    """The folders looked in for the edition's bundle, in order (see the module doc)."""
    spec = EDITIONS[edition]
    override = os.environ.get(spec.env)
    if override:
        return [Path(override)]
    checkout = [] if paths.INSTALLED else [paths.PROJECT_ROOT / "resources" / spec.folder / "dist"]
    return [*checkout, paths.data_base() / spec.folder / "dist"]


def _complete(folder: Path, files: tuple[str, ...]) -> bool:
    try:
        return all((folder / name).stat().st_size > 0 for name in files)
    except OSError:
        return False


def bundle_dir(edition: Edition) -> Path:
    """The edition's bundle folder, or a SetupError naming the edition, the folders looked in
    and the command that fetches it."""
    if edition is Edition.CURRENT:
        return paths.bundle_dir()
    spec = EDITIONS[edition]
    places = bundle_places(edition)
    for place in places:
        if _complete(place, spec.files):
            return place
    looked = ", ".join(str(p) for p in places)
    raise paths.SetupError(
        f"The {edition.value} editor edition's bundle ({spec.package}) is missing or incomplete: "
        f"no complete {', '.join(spec.files)} in {looked}. In a checkout run "
        f"`make {spec.make_target}`; otherwise fetch {spec.package} and react@16, react-dom@16 "
        f"with `npm pack` and put dist/ with the two React UMD builds in {places[-1]} "
        f"(or set {spec.env} to a dist folder that holds them)."
    )


def edition_of_page(path: str) -> tuple[Edition, str]:
    """Split a served path (no leading slash) into its edition and the path within it."""
    for edition in (Edition.CLASSIC,):
        prefix = EDITIONS[edition].prefix
        if path.startswith(prefix):
            return edition, path[len(prefix) :]
    return Edition.CURRENT, path


def read_edition(library: Path) -> Edition:
    """The edition recorded for a task library (current when it records none)."""
    path = Path(library) / EDITION_FILE
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Edition.CURRENT
    except OSError as exc:
        raise StudioError(f"{path}: cannot read the editor edition ({exc.strerror})") from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise StudioError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("edition"), str):
        raise StudioError(f'{path}: expected {{"edition": "current" | "classic"}}')
    return Edition.parse(data["edition"], str(path))


def write_edition(library: Path, edition: Edition) -> Path:
    """Record the library's edition (atomically); return the file written."""
    path = Path(library) / EDITION_FILE
    atomic.write_json(path, {"edition": edition.value})
    return path


def require_installed(edition: Edition, what: str) -> Path:
    """Before any browser opens: the edition's bundle folder, or an error saying that `what`
    (a task set, a library) is recorded for an edition that is not installed (the current
    edition's own error says it all: every library without a record is current)."""
    if edition is Edition.CURRENT:
        return bundle_dir(edition)
    try:
        return bundle_dir(edition)
    except paths.SetupError as exc:
        raise paths.SetupError(
            f"{what} is recorded for the {edition.value} edition. {exc}"
        ) from None


def edition_for(path: Path) -> Edition:
    """The edition of a library or task folder: recorded in the folder itself, else in its
    parent (the library a task folder sits in), else current."""
    path = Path(path)
    for folder in (path, path.parent):
        if (folder / EDITION_FILE).is_file():
            return read_edition(folder)
    return Edition.CURRENT


ITEM_LEVELS = 3  # an item folder <library>/diagnostics/drag/<id>/ is three below its library


def edition_of_item(path: Path) -> Edition:
    """The edition of a drag item or QA item folder: recorded in the folder, or in one of the
    `ITEM_LEVELS` folders above it (the item set, `diagnostics/`, the library whose import
    recorded it: a ScratchWorld import is classic), else current."""
    folder = Path(path)
    for _ in range(ITEM_LEVELS + 1):
        if (folder / EDITION_FILE).is_file():
            return read_edition(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    return Edition.CURRENT


def choose_items(explicit: str | None, folders: list[Path]) -> Edition:
    """The edition to compute or run the items in `folders` on (see `choose`; items record
    theirs as `edition_of_item` finds it)."""
    if explicit:
        return Edition.parse(explicit, "--edition")
    found = {folder: edition_of_item(folder) for folder in folders}
    kinds = set(found.values())
    if len(kinds) > 1:
        listed = ", ".join(f"{f} ({e.value})" for f, e in found.items())
        raise StudioError(
            f"these items record different editor editions: {listed}; run them apart "
            "or choose one with --edition"
        )
    return kinds.pop() if kinds else Edition.CURRENT


def edition_for_set(path: Path) -> Edition:
    """The edition of a diagnostics set (a QA set, a drag item folder): recorded in the set's
    folder, else in the two folders above it (a library keeps its sets in
    `<library>/diagnostics/<kind>/`), else current."""
    path = Path(path)
    for folder in (path, path.parent, path.parent.parent):
        if (folder / EDITION_FILE).is_file():
            return read_edition(folder)
    return Edition.CURRENT


def choose(explicit: str | None, folders: list[Path]) -> Edition:
    """The edition to run `folders` on: `explicit` (a command line's --edition) when given,
    else the one they record; folders recording different editions are refused."""
    if explicit:
        return Edition.parse(explicit, "--edition")
    found = {folder: edition_for(folder) for folder in folders}
    kinds = set(found.values())
    if len(kinds) > 1:
        listed = ", ".join(f"{f} ({e.value})" for f, e in found.items())
        raise StudioError(
            f"these folders record different editor editions: {listed}; run them apart "
            "or choose one with --edition"
        )
    return kinds.pop() if kinds else Edition.CURRENT

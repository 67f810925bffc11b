"""Where the studio finds its resources and keeps its caches.

The studio ships three folders besides its code: `resources/` (our web pages, our JavaScript,
the report template), `tasks/` (the bundled task library) and `diagnostics/` (the drag and QA
items). In a checkout they sit beside the `studio` package; an installed wheel carries them
inside it, in `studio/shipped/` (setup.py puts them there), and that folder's presence is how
an installed package is told from a checkout.

The Scratch GUI bundle (150 MB) is not shipped: it is fetched at set-up. It is looked for in
$STUDIO_BUNDLE_DIR when that is set (and only there), else in a checkout's
`resources/scratch-gui/dist` (where `make bundle` puts it), then in the per-user data folder's
`scratch-gui/dist`; when it is in none of them the error names where it looked and how to
fetch it.
"""

from __future__ import annotations

import os
from pathlib import Path

from studio.models.errors import StudioError

__all__ = [
    "BUNDLED_TASKS", "BUNDLE_ENTRY", "BUNDLE_PACKAGE", "BUNDLE_VERSION", "CHROMIUM", "DIAGNOSTICS",
    "HELPER_LIBRARY", "INSTALLED", "JS_DIR", "PACKAGE_ROOT", "PROJECT_ROOT", "RESOURCES", "SHIPPED",
    "WEB_DIR", "SetupError", "bundle_dir", "bundle_places", "cache_dir", "chromium_path",
    "data_base", "data_dir",
]  # fmt: skip

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
PROJECT_ROOT = PACKAGE_ROOT.parent  # a checkout's root (meaningless for an installed package)
SHIPPED = PACKAGE_ROOT / "shipped"
INSTALLED = SHIPPED.is_dir()
_SOURCE = SHIPPED if INSTALLED else PROJECT_ROOT
RESOURCES = _SOURCE / "resources"
WEB_DIR = RESOURCES / "web"
JS_DIR = RESOURCES / "js"
BUNDLED_TASKS = _SOURCE / "tasks"
DIAGNOSTICS = _SOURCE / "diagnostics"
HELPER_LIBRARY = JS_DIR / "evaluation_utils.js"
CHROMIUM = Path(os.environ.get("STUDIO_CHROMIUM", "/usr/bin/chromium"))
BUNDLE_PACKAGE = "@scratch/scratch-gui-standalone"
BUNDLE_VERSION = "15.1.1"  # the Makefile's GUI_VERSION (a test keeps them equal)
BUNDLE_ENTRY = "scratch-gui-standalone.js"


class SetupError(StudioError, RuntimeError):
    """A part the studio needs (browser, editor bundle) is not installed."""


def bundle_places() -> list[Path]:
    """The folders looked in for the Scratch GUI bundle, in order (see the module doc)."""
    override = os.environ.get("STUDIO_BUNDLE_DIR")
    if override:
        return [Path(override)]
    checkout = [] if INSTALLED else [PROJECT_ROOT / "resources" / "scratch-gui" / "dist"]
    return [*checkout, data_base() / "scratch-gui" / "dist"]


def bundle_dir() -> Path:
    """Return the Scratch GUI bundle folder, or say where it was looked for and how to fetch it."""
    places = bundle_places()
    for path in places:
        if (path / BUNDLE_ENTRY).is_file():
            return path
    looked = ", ".join(str(p) for p in places)
    target = places[-1]
    pack = f"scratch-scratch-gui-standalone-{BUNDLE_VERSION}.tgz"
    raise SetupError(
        f"The Scratch GUI bundle ({BUNDLE_PACKAGE}@{BUNDLE_VERSION}) is missing: no "
        f"{BUNDLE_ENTRY} in {looked}. In a checkout run `make bundle`; otherwise fetch it "
        f"with `npm pack {BUNDLE_PACKAGE}@{BUNDLE_VERSION} && tar -xzf {pack} && "
        f"mkdir -p {target.parent} && mv package/dist {target}` "
        "(or set STUDIO_BUNDLE_DIR to a dist folder that holds it)."
    )


def chromium_path() -> Path:
    """Return the system Chromium, or say how to install it."""
    if not CHROMIUM.is_file():
        raise SetupError(
            f"Chromium is missing at {CHROMIUM}; install it with `apt-get install chromium` "
            "or set STUDIO_CHROMIUM."
        )
    return CHROMIUM


def cache_dir() -> Path:
    """Per-user cache folder (browser profile with its code cache)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    path = Path(base) / "scratch-bench-studio"
    path.mkdir(parents=True, exist_ok=True)
    return path


def data_base() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "scratch-bench-studio"


def data_dir() -> Path:
    """Per-user data folder (recovery files, settings that are not Qt's, a fetched bundle)."""
    path = data_base()
    path.mkdir(parents=True, exist_ok=True)
    return path

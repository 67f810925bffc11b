"""Where the studio finds its resources and keeps its caches."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
PROJECT_ROOT = PACKAGE_ROOT.parent
RESOURCES = PROJECT_ROOT / "resources"
WEB_DIR = RESOURCES / "web"
JS_DIR = RESOURCES / "js"
BUNDLE_DIR = RESOURCES / "scratch-gui" / "dist"
BUNDLED_TASKS = PROJECT_ROOT / "tasks"
HELPER_LIBRARY = JS_DIR / "evaluation_utils.js"
CHROMIUM = Path(os.environ.get("STUDIO_CHROMIUM", "/usr/bin/chromium"))


class SetupError(RuntimeError):
    """A part the studio needs (browser, editor bundle) is not installed."""


def bundle_dir() -> Path:
    """Return the Scratch GUI bundle folder, or say how to fetch it."""
    override = os.environ.get("STUDIO_BUNDLE_DIR")
    path = Path(override) if override else BUNDLE_DIR
    if not (path / "scratch-gui-standalone.js").is_file():
        raise SetupError(
            f"The Scratch GUI bundle is missing at {path}; run `make bundle` (or `make run`)."
        )
    return path


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


def data_dir() -> Path:
    """Per-user data folder (recovery files, settings that are not Qt's)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    path = Path(base) / "scratch-bench-studio"
    path.mkdir(parents=True, exist_ok=True)
    return path

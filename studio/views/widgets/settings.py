"""Where the window keeps its geometry and splitter state (an INI file a person can read)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings


def settings_path() -> Path:
    """`$XDG_CONFIG_HOME/scratch-bench-studio/studio.ini`, read from the environment each time.

    Qt's default location is resolved once per process; tests give every test its own home.
    """
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "scratch-bench-studio" / "studio.ini"


def open_settings() -> QSettings:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return QSettings(str(path), QSettings.Format.IniFormat)

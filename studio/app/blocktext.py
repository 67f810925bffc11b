"""Scratch as text: what the front ends use to read and write block text and score NL2Scratch.

Each service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

if TYPE_CHECKING:
    from studio.services.core.blocktext.project_text import (
        BlockTextError,
        build_into,
        build_project,
        project_text,
    )
    from studio.services.core.blocktext.roundtrip import round_trip
    from studio.services.core.sb3 import load_sb3
    from studio.services.formats.nl2scratch.exporter import export_nl2scratch
    from studio.services.formats.nl2scratch.importer import import_nl2scratch
    from studio.services.formats.nl2scratch.score import score_files

__getattr__ = lazy.exports(
    __name__,
    {
        "BlockTextError": ("studio.services.core.blocktext.project_text", "BlockTextError"),
        "build_into": ("studio.services.core.blocktext.project_text", "build_into"),
        "build_project": ("studio.services.core.blocktext.project_text", "build_project"),
        "project_text": ("studio.services.core.blocktext.project_text", "project_text"),
        "export_nl2scratch": ("studio.services.formats.nl2scratch.exporter", "export_nl2scratch"),
        "import_nl2scratch": ("studio.services.formats.nl2scratch.importer", "import_nl2scratch"),
        "load_sb3": ("studio.services.core.sb3", "load_sb3"),
        "round_trip": ("studio.services.core.blocktext.roundtrip", "round_trip"),
        "score_files": ("studio.services.formats.nl2scratch.score", "score_files"),
    },
)

__all__ = [
    "BlockTextError",
    "build_into",
    "build_project",
    "export_nl2scratch",
    "import_nl2scratch",
    "load_sb3",
    "project_text",
    "round_trip",
    "score_files",
]

"""ScratchWorld checkouts: import them into a library and export a library back.

The layout (FORMATS.md section 1): `tasks/<category>/<id>.json` plus task list files,
`scratch-bench-api/api/evaluation_scripts/` with one `<function>.js` per task and the set's
helper library `evaluation_utils.js`, and `scratch-gui/static/` with every .sb3. Import keeps the
original task object in `task.metadata.scratchworld`, so import -> export -> import loses nothing.
A whole checkout also holds single-step drag items and perception QA items
(`scratchworld.items`); `scratchworld.checkout` does tasks and those in one go.
"""

from studio.services.formats.scratchworld.tasks.exporter import export_scratchworld
from studio.services.formats.scratchworld.tasks.importer import import_scratchworld
from studio.services.formats.scratchworld.tasks.layout import (
    HELPER_NAME,
    PROJECTS_DIR,
    SCRIPTS_DIR,
    TASKS_DIR,
    match_golden,
)
from studio.services.formats.scratchworld.tasks.record import METADATA_KEY, SwRecord
from studio.services.formats.scratchworld.tasks.reports import ExportReport, ImportReport, Problem

__all__ = [
    "HELPER_NAME",
    "METADATA_KEY",
    "PROJECTS_DIR",
    "SCRIPTS_DIR",
    "TASKS_DIR",
    "ExportReport",
    "ImportReport",
    "Problem",
    "SwRecord",
    "export_scratchworld",
    "import_scratchworld",
    "match_golden",
]

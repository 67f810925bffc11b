"""Drag items and perception QA items in the published ScratchWorld layout, both ways.

The published layout (FORMATS.md sections 5 and 6), beside the tasks of a checkout:

```
single_step_drag_benchmark/tasks/<id>.json    {id, category, instruction, init_project,
                                               evaluation_config, sprite?}
scratch-gui/static/<init_project>             the item's project (beside the task projects)
visual_perception_benchmark/tasks/<n>.json    {task_id, instruction, screenshot, task_type, tag,
                                               ground_truth, focus_hint, prompt,
                                               response_content, full_response}
visual_perception_benchmark/screenshots_final/<screenshot>
```

In the studio, under a library's `diagnostics/` folder: drag items are item folders
`drag/<id>/` (item.json and the project under its published name), QA items one QA set `qa/`
(`items/<task_id>.json`, `screenshots/<name>`).

This module holds the entry points, which treat both kinds together:

- `has_diagnostics(root)`: whether a checkout holds drag items or QA items;
- `diagnostics_folder(src)`: the studio's diagnostics folder of a library (or the folder itself);
- `import_diagnostics(root, dest)`: a checkout's drag and QA items into `dest/diagnostics/`
  (their editor edition, classic unless the checkout records another, is recorded in
  `dest/diagnostics/edition.json` when the library does not already run on it);
- `export_diagnostics(src, out, report)`: a diagnostics folder into an export under way (the
  whole-checkout export in checkout.py shares its `Output` with the tasks);
- `export_diagnostics_only(src, dest)`: `studio diagnostics export`, the items alone.

The work is split by kind: diagnostics_drag_record.py (a drag record and the studio's item),
diagnostics_drag.py (drag items as files), diagnostics_qa.py (QA items), and
diagnostics_common.py (what both kinds share: the round-trip rules, untrusted names and sizes,
the export's `Output`).
"""

from __future__ import annotations

import json
from pathlib import Path

from studio.models.errors import StudioError
from studio.services.formats.scratchworld.items.common import Output, Report, check_dest
from studio.services.formats.scratchworld.items.drag import DRAG_TASKS, export_drag, import_drag
from studio.services.formats.scratchworld.items.qa import QA_TASKS, export_qa, import_qa
from studio.services.formats.scratchworld.tasks.reports import ExportReport, ImportReport
from studio.services.runtime import editions
from studio.services.runtime.editions import Edition

__all__ = [
    "DIAGNOSTICS_DIR", "DRAG_SUB", "QA_SUB", "diagnostics_folder", "export_diagnostics",
    "export_diagnostics_only", "has_diagnostics", "import_diagnostics",
]  # fmt: skip

DIAGNOSTICS_DIR = "diagnostics"  # in a library: diagnostics/drag/<id>/, diagnostics/qa/
DRAG_SUB, QA_SUB = "drag", "qa"


def has_diagnostics(root: Path) -> bool:
    """Whether a checkout holds drag items or QA items."""
    return (root / DRAG_TASKS).is_dir() or (root / QA_TASKS).is_dir()


def diagnostics_folder(src: Path) -> Path | None:
    """The studio's diagnostics folder of `src`: `src/diagnostics` of a library, or `src`
    itself when it holds `drag/` or `qa/`."""
    if (src / DIAGNOSTICS_DIR).is_dir():
        return src / DIAGNOSTICS_DIR
    if (src / DRAG_SUB).is_dir() or (src / QA_SUB).is_dir():
        return src
    return None


def import_diagnostics(
    root: Path | str,
    dest: Path | str,
    report: Report | None = None,
    projects_dir: Path | str | None = None,
    *,
    overwrite: bool = False,
) -> ImportReport | ExportReport:
    """Drag and QA items of the checkout `root` into the library `dest` (`dest/diagnostics/`).

    Raises StudioError when the checkout holds neither."""
    root, dest = Path(root), Path(dest)
    if not has_diagnostics(root):
        raise StudioError(f"{root}: no {DRAG_TASKS}/ and no {QA_TASKS}/ in it")
    report = report if report is not None else ImportReport(root, dest)
    base = dest / DIAGNOSTICS_DIR
    projects = Path(projects_dir) if projects_dir else None
    if (root / DRAG_TASKS).is_dir():
        import_drag(root, base / DRAG_SUB, report, projects, overwrite=overwrite)
    if (root / QA_TASKS).is_dir():
        import_qa(root, base / QA_SUB, report, overwrite=overwrite)
    _record_edition(root, base)
    return report


def _record_edition(root: Path, base: Path) -> None:
    """The items run on the checkout's editor edition: the one it records (a studio export),
    else classic, the published benchmark's. Recorded in `base` (the library's diagnostics
    folder) when the library does not already say so; the library's tasks keep theirs."""
    recorded = root / editions.EDITION_FILE
    edition = editions.read_edition(root) if recorded.is_file() else Edition.CLASSIC
    if editions.edition_of_item(base) is not edition:
        editions.write_edition(base, edition)


def export_diagnostics(src: Path, out: Output, report: Report) -> None:
    """The diagnostics folder `src` (drag/, qa/) into the export `out`; items not on the
    classic edition (the published set's) record theirs in the export's `edition.json`, as a
    library's tasks do, so an import gives them back their edition."""
    edition = editions.edition_of_item(src)
    if edition is not Edition.CLASSIC:
        out.put({editions.EDITION_FILE: (json.dumps({"edition": edition.value}) + "\n").encode()})
    if (src / DRAG_SUB).is_dir():
        export_drag(src / DRAG_SUB, out, report)
    if (src / QA_SUB).is_dir():
        export_qa(src / QA_SUB, out, report)


def export_diagnostics_only(
    src: Path | str, dest: Path | str, *, overwrite: bool = False
) -> ExportReport:
    """`studio diagnostics export`: the drag and QA items of `src` (a library or its
    diagnostics folder) to `dest` in the published layout."""
    src, dest = Path(src), Path(dest)
    folder = diagnostics_folder(src)
    if folder is None:
        raise StudioError(f"{src}: no {DIAGNOSTICS_DIR}/ (nor {DRAG_SUB}/ or {QA_SUB}/) in it")
    check_dest(dest, overwrite)
    report = ExportReport(src, dest)
    out = Output(dest)
    export_diagnostics(folder, out, report)
    report.files = sorted(out.files)
    return report

"""`studio study export`: the study's anonymized runs, for sharing.

Writes into a new folder: `study.json` without the link tokens (the library named by its
folder name only), and every run of `runs/`
(not the practice) with its run.json stripped of what is not the participant's work on the
task: the host's task folder path, and nothing but the participant's pseudonymous code to
name them; steps, final project and protocol card are copied as they are. The participants'
files (consent times, refused requests with addresses) and `refusals.jsonl` stay behind; only
their counts go into `export.json`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from studio.models.errors import StudioError
from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services.core import atomic
from studio.services.core.untrusted_json import JsonInputError, read_json
from studio.services.studies.plan import StudyPlan, public_view

__all__ = ["export_study"]


def export_study(study: Path, plan: StudyPlan, out: Path) -> int:
    """Export into `out` (which must not exist yet); the number of runs written."""
    study, out = Path(study), Path(out)
    if out.exists():
        raise StudioError(f"{out}: already exists; export into a new folder")
    out.mkdir(parents=True)
    shared = public_view(plan)
    shared["library"] = Path(plan.library).name  # no path of the host's disk
    atomic.write_json(out / "study.json", shared)
    runs = 0
    counts: dict[str, dict[str, int]] = {}
    for p in plan.participants:
        notes_file = study / "participants" / f"{p.code}.json"
        try:
            notes = read_json(notes_file) if notes_file.is_file() else {}
        except JsonInputError:
            notes = {}
        counts[p.code] = {
            k: len(notes.get(k, [])) for k in ("breaches", "refusals") if isinstance(notes, dict)
        }
        base = study / "runs" / p.code
        for folder in sorted(base.iterdir()) if base.is_dir() else []:
            if not (folder / RUN_FILE).is_file():
                continue
            target = out / "runs" / p.code / folder.name
            shutil.copytree(folder, target, ignore=shutil.ignore_patterns(".*", RUN_FILE))
            try:
                run = RunInfo.model_validate_json((folder / RUN_FILE).read_text("utf-8"))
            except (OSError, ValueError) as exc:
                raise StudioError(f"{folder / RUN_FILE}: not a run header ({exc})") from None
            run.task_folder = None
            run.meta["participant"] = p.code
            atomic.write_text(target / RUN_FILE, run.model_dump_json(indent=2) + "\n")
            runs += 1
    atomic.write_json(out / "export.json", {"runs": runs, "participants": counts})
    return runs

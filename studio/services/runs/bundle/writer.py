"""`studio report RUNS --bundle DIR`: a static site anyone opens from disk (no server, no
install, no network): `DIR/index.html` with `bundle.css` and `bundle.js` (from
resources/report/bundle/), `data.js` and the screenshots under `img/`.

Each episode's final program is drawn as block pictures (`bundle.programs`).
`data.js` assigns the global `STUDIO_BUNDLE` (a page opened from file:// may not fetch() its
neighbours, but it may load a script): `{format, version, generated, root, report (the report
as `studio report --json` prints it, so the interval fields `sr_ci95` / `psr_ci95` of its rows
are there when the report computes them), runs: [{id, label, agent, mode, folder, episodes}],
episodes: [episode_data ...], task_set: the statistics of the runs' tasks, table and bar charts
(`bundle.set_figures.bundle_stats`; null when no task folder of the runs could be read)}`.
A run is one run folder: a `studio run` batch folder, or a ScratchWorld task runner's
`result_<model>_<mode>_<agent>/` (read through `runs.result_readers`).

The site is built in a temporary folder beside DIR and moved into place at the end, so DIR
is a whole bundle or untouched; an existing DIR is replaced only when it is a bundle itself.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.errors import StudioError
from studio.models.report import RunEntry, RunReport
from studio.services.core import paths
from studio.services.runs.bundle.episodes import episode_data
from studio.services.runs.bundle.programs import add_programs
from studio.services.runs.bundle.set_figures import bundle_stats
from studio.services.runs.result_readers import folder_readers, read_all

__all__ = [
    "DATA_FILE",
    "EPOCH_FOLDER",
    "FORMAT",
    "GLOBAL",
    "STATIC_DIR",
    "STATIC_FILES",
    "VERSION",
    "BundleSummary",
    "collect_entries",
    "run_folder",
    "write_bundle",
]  # fmt: skip

FORMAT = "scratch-bench-bundle"
VERSION = 1
DATA_FILE = "data.js"
GLOBAL = "STUDIO_BUNDLE"
STATIC_DIR = paths.RESOURCES / "report" / "bundle"
STATIC_FILES = ("index.html", "bundle.css", "bundle.js")


@dataclass
class BundleSummary:
    """What was written: where, how many runs, episodes, steps and images, in how long."""

    out: Path
    runs: int
    episodes: int
    steps: int
    images: int
    seconds: float

    @property
    def index(self) -> Path:
        return self.out / "index.html"


EPOCH_FOLDER = re.compile(r"epoch-\d+")


def run_folder(entry: RunEntry) -> Path:
    """The run an episode belongs to: a campaign's folder for an episode of an epoch (one run
    with epochs, so two campaigns compare task by task), a task runner's result folder, else
    its parent folder."""
    folder = Path(entry.folder)
    if EPOCH_FOLDER.fullmatch(folder.name):  # <run>/<task>/epoch-<e>: a campaign with epochs
        return folder.parent.parent
    for reader in folder_readers():
        outer = reader.run_folder(folder)
        if outer is not None:
            return outer
    return folder.parent


def collect_entries(root: Path) -> list[RunEntry]:
    """Every episode below `root`: studio runs and ScratchWorld task runner folders."""
    from studio.services.runs.reports import load_runs

    entries, _ = load_runs(root)
    return entries + read_all(root).entries


def write_bundle(root: Path, out: Path, report: RunReport | None = None) -> BundleSummary:
    """Write the site for the runs below `root` into `out`; StudioError on unusable input."""
    from studio.services.runs.reports import report_for

    t0 = time.perf_counter()
    root, out = Path(root), Path(out)
    _check_target(out)
    report = report if report is not None else report_for(root)
    entries = sorted(collect_entries(root), key=lambda e: (str(run_folder(e)), e.task_id))
    folders = list(dict.fromkeys(run_folder(e) for e in entries))
    number = {folder: i for i, folder in enumerate(folders)}
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        episodes = [episode_data(e, i, number[run_folder(e)], tmp) for i, e in enumerate(entries)]
        add_programs(episodes, tmp)
        runs = [
            _run(folder, i, [e for e in episodes if e["run"] == i]) for folder, i in number.items()
        ]
        data = {
            "format": FORMAT,
            "version": VERSION,
            "generated": datetime.now(UTC).isoformat(timespec="seconds"),
            "root": str(root),
            "report": report.model_dump(mode="json"),
            "runs": runs,
            "episodes": episodes,
            "task_set": bundle_stats(entries),
        }
        _write_site(tmp, data)
        _swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    steps = sum(len(e["steps"]) for e in episodes)
    images = sum(1 for e in episodes for s in e["steps"] if s["img"]) + sum(
        1 for e in episodes if e["final"]
    )
    return BundleSummary(out, len(runs), len(episodes), steps, images, time.perf_counter() - t0)


def _run(folder: Path, number: int, episodes: list[dict[str, Any]]) -> dict[str, Any]:
    first = episodes[0] if episodes else {"agent": "?", "mode": "?"}
    passed = sum(1 for e in episodes if e["outcome"] == "pass")
    return {
        "id": number,
        "label": f"{first['agent']} · {first['mode']} · {folder.name}",
        "agent": first["agent"],
        "mode": first["mode"],
        "folder": str(folder),
        "episodes": len(episodes),
        "passed": passed,
    }


def _write_site(tmp: Path, data: dict[str, Any]) -> None:
    for name in STATIC_FILES:
        shutil.copyfile(STATIC_DIR / name, tmp / name)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    (tmp / DATA_FILE).write_text(f"window.{GLOBAL} = {text};\n", encoding="utf-8")


def _is_bundle(folder: Path) -> bool:
    return (folder / DATA_FILE).is_file() and (folder / "index.html").is_file()


def _check_target(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise StudioError(f"{out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not _is_bundle(out):
        raise StudioError(f"{out}: a folder that is not empty and holds no bundle; not replaced")


def _swap(tmp: Path, out: Path) -> None:
    """Move the finished site into place (an older bundle there is replaced)."""
    if out.exists():
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        os.replace(out, old)
        os.replace(tmp, out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp, out)

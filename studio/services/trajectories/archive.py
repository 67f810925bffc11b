"""One run (or human session) as one self-contained zip, and opening such a zip elsewhere.

Layout of the zip: the trajectory's own files at the top (run.json, steps.jsonl, step_NNNN.png,
obs_NNNN.json, final.png, final.sb3), the task folder's files under `task/` (task.json, the
projects, the evaluation script) so the run can be evaluated or re-run on another machine, and
`manifest.json`: format name and version, creation time, a run summary, and every file with its
size and sha256.

`open_archive` refuses what is not such an archive (not a zip, no manifest, members with
absolute or `..` paths) with a StudioError naming the file; content that does not match the
manifest (changed or missing files) only becomes a problem line, stored in `archive.json`
beside the extracted run and shown by `load_view`. An archive opened twice is extracted once:
the folder name carries the hash of the manifest's file list.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import zipfile
import zlib
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from studio.models.trajectory import RUN_FILE, RunInfo
from studio.services import atomic
from studio.services.errors import StudioError
from studio.services.trajectories.view import ARCHIVE_INFO, load_view

FORMAT = "scratch-bench-trajectory"
VERSION = 1
MANIFEST = "manifest.json"
TASK_DIR = "task"
_SKIPPED_NAMES = {MANIFEST, ARCHIVE_INFO, "__pycache__"}


# ---- export --------------------------------------------------------------------------------
def export_archive(folder: Path, out_zip: Path, task_folder: Path | None = None) -> Path:
    """Write the trajectory in `folder` and its task folder to `out_zip` (atomically)."""
    folder, out_zip = Path(folder), Path(out_zip)
    view = load_view(folder)
    if task_folder is None and view.run is not None and view.run.task_folder:
        task_folder = Path(view.run.task_folder)
    members = _trajectory_files(folder, out_zip)
    task_note = _task_note(task_folder)
    if task_note["included"]:
        assert task_folder is not None
        members += [(f"{TASK_DIR}/{rel}", path) for rel, path in _tree_files(task_folder)]
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "created_at": datetime.now(UTC).isoformat(),
        "run": _run_summary(view.run),
        "task": task_note,
        "problems": view.problems,
        "files": [],  # filled while writing, from the very bytes written
    }
    try:
        _write_zip(out_zip, members, manifest)
    except OSError as exc:
        raise StudioError(f"{out_zip}: cannot be written ({exc})") from None
    return out_zip


def _trajectory_files(folder: Path, out_zip: Path) -> list[tuple[str, Path]]:
    skip = out_zip.resolve()
    return [
        (p.name, p)
        for p in sorted(folder.iterdir())
        if p.is_file() and _kept(p.name) and p.resolve() != skip
    ]


def _tree_files(root: Path) -> list[tuple[str, Path]]:
    found = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_file() and all(_kept(part) for part in rel.parts):
            found.append((rel.as_posix(), path))
    return found


def _kept(name: str) -> bool:
    return not name.startswith(".") and name not in _SKIPPED_NAMES


def _task_note(task_folder: Path | None) -> dict[str, Any]:
    if task_folder is None:
        return {"included": False, "source": None, "note": "the run names no task folder"}
    if not task_folder.is_dir():
        note = "task folder not found when exporting; not included"
        return {"included": False, "source": str(task_folder), "note": note}
    return {"included": True, "source": str(task_folder), "note": ""}


def _run_summary(run: RunInfo | None) -> dict[str, Any] | None:
    if run is None:
        return None
    result = run.eval
    return {
        "episode_id": run.episode_id,
        "task_id": run.task_id,
        "agent": run.agent,
        "mode": run.mode.value,
        "status": run.status.value,
        "steps": run.steps,
        "started_at": run.started_at.isoformat(),
        "ended_at": run.ended_at.isoformat() if run.ended_at else None,
        "success": bool(result and result.ok),
        "passed_tests": result.passed_tests if result else None,
        "total_tests": result.total_tests if result else None,
    }


def _write_zip(out_zip: Path, members: list[tuple[str, Path]], manifest: dict[str, Any]) -> None:
    """Write members, then the manifest listing each one's size and sha256; atomically."""
    out_zip.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out_zip.name}.", suffix=".tmp", dir=out_zip.parent)
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for name, path in members:
                data = path.read_bytes()
                zf.writestr(zipfile.ZipInfo.from_file(path, name), data, zipfile.ZIP_DEFLATED)
                digest = hashlib.sha256(data).hexdigest()
                manifest["files"].append({"path": name, "size": len(data), "sha256": digest})
            zf.writestr(MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
        os.replace(tmp, out_zip)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# ---- open ----------------------------------------------------------------------------------
def open_archive(zip_path: Path, dest_root: Path) -> Path:
    """Extract a trajectory archive below `dest_root` and return the trajectory folder."""
    zip_path, dest_root = Path(zip_path), Path(dest_root)
    if not zip_path.is_file():
        raise StudioError(f"{zip_path}: does not exist")
    try:
        with zipfile.ZipFile(zip_path) as zf:
            return _open(zf, zip_path, dest_root)
    except zipfile.BadZipFile as exc:
        raise StudioError(f"{zip_path}: not a zip archive ({exc})") from None
    except OSError as exc:
        raise StudioError(f"{zip_path}: cannot be extracted ({exc})") from None


def read_manifest(zip_path: Path) -> dict[str, Any]:
    """The manifest of a trajectory archive (checked as `open_archive` checks it)."""
    zip_path = Path(zip_path)
    try:
        with zipfile.ZipFile(zip_path) as zf:
            return _read_manifest(zf, zip_path)
    except (OSError, zipfile.BadZipFile) as exc:
        raise StudioError(f"{zip_path}: not a readable zip archive ({exc})") from None


def _open(zf: zipfile.ZipFile, zip_path: Path, dest_root: Path) -> Path:
    for name in zf.namelist():
        _check_member(zip_path, name)
    manifest = _read_manifest(zf, zip_path)
    files = manifest["files"]
    content_hash = _content_hash(files)
    dest = dest_root / f"{_slug(manifest, zip_path)}-{content_hash[:12]}"
    if _already_extracted(dest, content_hash):
        return dest
    dest_root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".extract-", dir=dest_root))
    try:
        problems = _extract(zf, zip_path, files, tmp)
        (tmp / MANIFEST).write_bytes(zf.read(MANIFEST))
        source_task = _point_run_at_task(tmp, dest, problems)
        info = {
            "source": str(zip_path),
            "content_hash": content_hash,
            "opened_at": datetime.now(UTC).isoformat(),
            "original_task_folder": source_task,
            "problems": problems,
        }
        atomic.write_json(tmp / ARCHIVE_INFO, info)
        return _move_into_place(tmp, dest, content_hash)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _check_member(zip_path: Path, name: str) -> None:
    """Refuse member names that could land outside the extraction folder."""
    path = PurePosixPath(name)
    bad = (
        not name
        or name.startswith(("/", "\\"))
        or "\\" in name
        or re.match(r"^[A-Za-z]:", name) is not None
        or ".." in path.parts
    )
    if bad:
        raise StudioError(f"{zip_path}: member {name!r} has an unsafe path; archive refused")


def _read_manifest(zf: zipfile.ZipFile, zip_path: Path) -> dict[str, Any]:
    try:
        raw = zf.read(MANIFEST)
    except KeyError:
        raise StudioError(
            f"{zip_path}: no {MANIFEST}; not a trajectory archive (use `studio trajectory export`)"
        ) from None
    try:
        manifest: Any = json.loads(raw)
    except ValueError as exc:
        raise StudioError(f"{zip_path}: {MANIFEST} is not valid JSON ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise StudioError(f"{zip_path}: {MANIFEST}: format is not {FORMAT!r}")
    version = manifest.get("version")
    if not isinstance(version, int) or version > VERSION:
        raise StudioError(f"{zip_path}: {MANIFEST}: version {version!r} is not supported")
    files = manifest.get("files")
    if not isinstance(files, list) or not all(_file_ok(f) for f in files):
        raise StudioError(f"{zip_path}: {MANIFEST}: field 'files' is not a list of files")
    for entry in files:
        _check_member(zip_path, entry["path"])
    return manifest


def _file_ok(entry: Any) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("path"), str)
        and isinstance(entry.get("sha256"), str)
        and entry["path"] not in (MANIFEST, ARCHIVE_INFO)
    )


def _content_hash(files: list[dict[str, Any]]) -> str:
    listing = "".join(
        f"{f['path']}\t{f['sha256']}\n" for f in sorted(files, key=lambda f: f["path"])
    )
    return hashlib.sha256(listing.encode("utf-8")).hexdigest()


def _slug(manifest: dict[str, Any], zip_path: Path) -> str:
    run = manifest.get("run")
    name = run.get("task_id") if isinstance(run, dict) else None
    name = name if isinstance(name, str) and name else zip_path.stem
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "trajectory"


def _already_extracted(dest: Path, content_hash: str) -> bool:
    try:
        info = json.loads((dest / ARCHIVE_INFO).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(info, dict) and info.get("content_hash") == content_hash


def _extract(
    zf: zipfile.ZipFile, zip_path: Path, files: list[dict[str, Any]], into: Path
) -> list[str]:
    problems = []
    listed = {f["path"] for f in files}
    for entry in files:
        name = entry["path"]
        try:
            data = zf.read(name)
        except KeyError:
            problems.append(f"{zip_path}: {name} is listed in {MANIFEST} but missing")
            continue
        except (zipfile.BadZipFile, zlib.error, RuntimeError, ValueError) as exc:  # damaged
            problems.append(f"{zip_path}: {name} cannot be read ({exc}); not extracted")
            continue
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            problems.append(f"{zip_path}: {name} does not match its sha256 in {MANIFEST}")
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    for name in zf.namelist():
        if name not in listed and name != MANIFEST and not name.endswith("/"):
            problems.append(f"{zip_path}: {name} is not listed in {MANIFEST}; not extracted")
    return problems


def _point_run_at_task(tmp: Path, dest: Path, problems: list[str]) -> str | None:
    """Make run.json's task_folder the extracted task copy (when there is one)."""
    run_file = tmp / RUN_FILE
    if not (tmp / TASK_DIR).is_dir() or not run_file.is_file():
        return None
    try:
        data: Any = json.loads(run_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # load_view reports the broken header
    if not isinstance(data, dict):
        return None
    original = data.get("task_folder")
    data["task_folder"] = str((dest / TASK_DIR).resolve())
    atomic.write_json(run_file, data)
    return original if isinstance(original, str) else None


def _move_into_place(tmp: Path, dest: Path, content_hash: str) -> Path:
    if dest.exists():
        if _already_extracted(dest, content_hash):  # another process was faster
            return dest
        raise StudioError(f"{dest}: exists but is not an extraction of this archive; move it")
    os.replace(tmp, dest)
    return dest

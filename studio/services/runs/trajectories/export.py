"""Writing a trajectory archive (the layout, limits and task-folder rule are in archive.py).

`export_archive` (`write_archive` with any paths) packs the run folder's own files and
one task folder under `task/`: the one given, else the run folder's own `task/`, never a path
that run.json names. A file that is a symbolic link out of the folder it is packed from is left
out and named in the manifest's problems. The limits are read from archive.py when used.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.errors import StudioError
from studio.models.trajectory import RunInfo
from studio.services.core.names import contained
from studio.services.runs.trajectories import archive
from studio.services.runs.trajectories.view import ARCHIVE_INFO, load_view

__all__ = ["export_archive", "write_archive"]


def export_archive(folder: Path, out_zip: Path, task_folder: Path | None = None) -> Path:
    """Write the trajectory in `folder` and its task folder to `out_zip` (atomically); see
    archive.py's module doc for which task folder."""
    return write_archive(Path(folder), Path(out_zip), task_folder)


def write_archive(folder: Path, out_zip: Path, task_folder: Path | None = None) -> Path:
    """Write the trajectory in `folder` and its task folder to `out_zip` (atomically)."""
    view = load_view(folder)
    own = folder / archive.TASK_DIR
    if task_folder is not None:
        task_note = _task_note(Path(task_folder))
    elif own.is_dir() and not own.is_symlink():  # only what the run folder itself holds
        task_folder = own
        task_note = _task_note(own)
    else:
        named = view.run.task_folder if view.run is not None else None
        opened = (folder / ARCHIVE_INFO).is_file()
        note = archive.NO_TASK_IN_ARCHIVE if opened else archive.NOT_FOLLOWED
        task_note = {"included": False, "source": None if opened else named, "note": note}
    left_out: list[str] = []
    members = _trajectory_files(folder, out_zip, left_out)
    if task_note["included"]:
        assert task_folder is not None
        tree = _tree_files(Path(task_folder), left_out)
        members += [(f"{archive.TASK_DIR}/{rel}", path) for rel, path in tree]
    _check_export_sizes(out_zip, members)
    manifest = {
        "format": archive.FORMAT,
        "version": archive.VERSION,
        "created_at": datetime.now(UTC).isoformat(),
        "run": _run_summary(view.run),
        "task": task_note,
        "problems": view.problems + left_out,
        "files": [],  # filled while writing, from the very bytes written
    }
    try:
        _write_zip(out_zip, members, manifest)
    except OSError as exc:
        raise StudioError(f"{out_zip}: cannot be written ({exc})") from None
    return out_zip


def _packed(path: Path, root: Path, left_out: list[str]) -> bool:
    """Whether `path` is a file to pack: not a link out of `root` (those are noted)."""
    if not path.is_file():
        return False
    if not contained(path, root):
        left_out.append(f"{path}: a symbolic link out of {root}; not packed")
        return False
    return True


def _trajectory_files(folder: Path, out_zip: Path, left_out: list[str]) -> list[tuple[str, Path]]:
    skip = out_zip.resolve()
    return [
        (p.name, p)
        for p in sorted(folder.iterdir())
        if _kept(p.name) and p.resolve() != skip and _packed(p, folder, left_out)
    ]


def _tree_files(root: Path, left_out: list[str]) -> list[tuple[str, Path]]:
    found = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if all(_kept(part) for part in rel.parts) and _packed(path, root, left_out):
            found.append((rel.as_posix(), path))
    return found


def _kept(name: str) -> bool:
    return not name.startswith(".") and name not in archive.SKIPPED_NAMES


def _task_note(task_folder: Path | None) -> dict[str, Any]:
    if task_folder is None:
        return {"included": False, "source": None, "note": "the run names no task folder"}
    if not task_folder.is_dir():
        note = "task folder not found when exporting; not included"
        return {"included": False, "source": str(task_folder), "note": note}
    return {"included": True, "source": str(task_folder), "note": ""}


def _check_export_sizes(out_zip: Path, members: list[tuple[str, Path]]) -> None:
    """Refuse to write an archive that `open_archive` would refuse for its size."""
    if len(members) + 1 > archive.MAX_ARCHIVE_MEMBERS:
        raise StudioError(
            f"{out_zip}: cannot be written: {len(members) + 1} members, more than "
            f"{archive.MAX_ARCHIVE_MEMBERS} allowed in an archive"
        )
    total = 0
    for _name, path in members:
        size = path.stat().st_size
        if size > archive.MAX_ARCHIVE_MEMBER:
            raise StudioError(
                f"{out_zip}: cannot be written: {path} is {size} bytes, more than "
                f"{archive.size_text(archive.MAX_ARCHIVE_MEMBER)} allowed for a member of an "
                "archive"
            )
        total += size
        if total > archive.MAX_ARCHIVE_TOTAL:
            raise StudioError(
                f"{out_zip}: cannot be written: the files up to {path} are {total} bytes, more "
                f"than {archive.size_text(archive.MAX_ARCHIVE_TOTAL)} allowed in an archive"
            )


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
                info = zipfile.ZipInfo.from_file(path, name)
                info.compress_type = zipfile.ZIP_DEFLATED
                digest, size = hashlib.sha256(), 0
                with path.open("rb") as src, zf.open(info, "w") as dst:
                    while chunk := src.read(archive.CHUNK):
                        digest.update(chunk)
                        dst.write(chunk)
                        size += len(chunk)
                entry = {"path": name, "size": size, "sha256": digest.hexdigest()}
                manifest["files"].append(entry)
            zf.writestr(archive.MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
        os.replace(tmp, out_zip)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise

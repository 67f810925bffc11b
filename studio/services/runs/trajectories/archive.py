"""One run (or human session) as one self-contained zip, and opening such a zip elsewhere.

Layout of the zip: the trajectory's own files at the top (run.json, steps.jsonl, step_NNNN.png,
obs_NNNN.json, final.png, final.sb3), the task folder's files under `task/` (task.json, the
projects, the evaluation script) so the run can be evaluated or re-run on another machine, and
`manifest.json`: format name and version, creation time, a run summary, and every file with its
size and sha256.

Export (`export.export_archive`) packs the task folder given explicitly (`task_folder`, the
CLI's `--task DIR`). Without one it packs only what the run folder itself holds: its `task/`
folder (an archive opened by `open_archive` has one when the archive had one). A path that
run.json names is never followed by export itself: a run folder may come from elsewhere, and
its run.json could name any folder (the manifest's task note says to pass --task).
`recorded_task_folder` gives the task folder run.json names for a run the studio recorded
itself (a run folder inside one of the studio's own record folders, naming a task folder),
which the window passes explicitly. Files that are
symbolic links out of the folder they are packed from are left out (and named in the
manifest's problems).

Archives are bounded, counted uncompressed: at most `MAX_ARCHIVE_MEMBERS` (50 000) members,
`MAX_MANIFEST` (16 MB) for manifest.json, `MAX_ARCHIVE_MEMBER` (512 MB) for any other member,
and `MAX_ARCHIVE_TOTAL` (2 GB) for all members together. `open_archive` and `read_manifest`
check the sizes the zip's directory declares before reading anything, and members are inflated
in chunks that stop once the bytes actually read pass the limit (a header that understates a
size does not get a member read past the limit); members are written to disk as they are
inflated, never held whole in memory. Export refuses to write an archive past these limits.

`open_archive` refuses what is not such an archive (not a zip, no manifest, members with
absolute or `..` paths, members or a total past the limits) with a StudioError naming the file
(and the member and the limit); content that does not match the manifest (changed, missing or
unreadable files) only becomes a problem line, stored in `archive.json` beside the extracted run
and shown by `load_view`. run.json of the extracted run names the extracted `task/` folder, or
no task folder when the archive has none (the original path is only recorded in
`archive.json`). An archive opened twice is extracted once: the extraction folder is keyed by
the sha256 of the archive file's own bytes (never by hashes the archive states about itself),
so archives that differ in any byte never share an extraction. The extraction is verified
against the archive in hand when it is reused: `archive.json` lists the files extracted, and the
folder must hold those and no others, manifest.json as read, run.json as extraction rewrites it
and every other file with the size and CRC-32 its member has in the archive; an extraction
changed since (a file edited, added or removed) is removed and extracted again.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import tempfile
import zipfile
import zlib
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import IO, Any

from studio.models.errors import StudioError
from studio.models.task import TASK_FILE
from studio.models.trajectory import RUN_FILE
from studio.services.core import atomic
from studio.services.core.names import contained
from studio.services.core.untrusted_json import JsonInputError, loads, read_json
from studio.services.runs.trajectories.view import ARCHIVE_INFO, load_view

__all__ = [
    "CHUNK", "FORMAT", "HASH_CHARS", "MANIFEST", "MAX_ARCHIVE_MEMBER", "MAX_ARCHIVE_MEMBERS",
    "MAX_ARCHIVE_TOTAL", "MAX_MANIFEST", "MB", "NOT_FOLLOWED", "NO_TASK_IN_ARCHIVE",
    "SKIPPED_NAMES", "TASK_DIR", "VERSION", "open_archive", "read_manifest",
    "recorded_task_folder", "size_text",
]  # fmt: skip

FORMAT = "scratch-bench-trajectory"
VERSION = 1
MANIFEST = "manifest.json"
TASK_DIR = "task"
SKIPPED_NAMES = {MANIFEST, ARCHIVE_INFO, "__pycache__"}
MB = 1024 * 1024
MAX_ARCHIVE_MEMBERS = 50_000
MAX_MANIFEST = 16 * MB  # bytes of manifest.json, uncompressed
MAX_ARCHIVE_MEMBER = 512 * MB  # bytes of any other member (an .sb3 at its own limit fits)
MAX_ARCHIVE_TOTAL = 2048 * MB  # bytes of all members together, uncompressed
CHUNK = 64 * 1024  # bytes inflated (or copied) at a time
HASH_CHARS = 32  # hex digits of the archive's sha256 in the extraction folder's name
NO_TASK_IN_ARCHIVE = (
    "the run was opened from an archive without a task folder, and a path named inside an "
    "archive is not followed; pass --task DIR to include one"
)
NOT_FOLLOWED = (
    "the run folder holds no task folder, and the task folder its run.json names is not "
    "followed (a run folder may come from elsewhere); pass --task DIR to include one"
)
# What inflating a member raises when its data is damaged, encrypted or compressed oddly.
_READ_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    NotImplementedError,
    RuntimeError,
    ValueError,
)


# ---- export (the writing is export.py's: `export.export_archive`) -------------------------
def recorded_task_folder(folder: Path, stores: list[Path]) -> Path | None:
    """The task folder run.json names, for a run the studio recorded itself: the run folder is
    inside one of `stores` (the studio's own record folders) and the folder named is a task
    folder (holds task.json). None otherwise."""
    if not any(contained(folder, store) for store in stores if store.is_dir()):
        return None
    run = load_view(folder).run
    named = Path(run.task_folder) if run is not None and run.task_folder else None
    return named if named is not None and (named / TASK_FILE).is_file() else None


# ---- open ----------------------------------------------------------------------------------
def open_archive(zip_path: Path, dest_root: Path) -> Path:
    """Extract a trajectory archive below `dest_root` and return the trajectory folder."""
    zip_path, dest_root = Path(zip_path), Path(dest_root)
    if not zip_path.is_file():
        raise StudioError(f"{zip_path}: does not exist")
    try:
        with zip_path.open("rb") as fh:  # hashed and extracted from the very same open file
            archive_hash = _sha256(fh)
            fh.seek(0)
            with zipfile.ZipFile(fh) as zf:
                return _open(zf, zip_path, dest_root, archive_hash)
    except zipfile.BadZipFile as exc:
        raise StudioError(f"{zip_path}: not a zip archive ({exc})") from None
    except OSError as exc:
        raise StudioError(f"{zip_path}: cannot be extracted ({exc})") from None


def read_manifest(zip_path: Path) -> dict[str, Any]:
    """The manifest of a trajectory archive (checked as `open_archive` checks it)."""
    zip_path = Path(zip_path)
    try:
        with zipfile.ZipFile(zip_path) as zf:
            _check_members(zf, zip_path)
            return _read_manifest(zf, zip_path)[0]
    except (OSError, zipfile.BadZipFile) as exc:
        raise StudioError(f"{zip_path}: not a readable zip archive ({exc})") from None


def _sha256(fh: IO[bytes]) -> str:
    digest = hashlib.sha256()
    while chunk := fh.read(1024 * 1024):
        digest.update(chunk)
    return digest.hexdigest()


def _open(zf: zipfile.ZipFile, zip_path: Path, dest_root: Path, archive_hash: str) -> Path:
    _check_members(zf, zip_path)
    manifest, raw_manifest = _read_manifest(zf, zip_path)
    files = manifest["files"]
    dest = dest_root / f"{_slug(manifest, zip_path)}-{archive_hash[:HASH_CHARS]}"
    if _already_extracted(dest, archive_hash):
        if _still_as_extracted(dest, zf, raw_manifest):
            return dest
        shutil.rmtree(dest)  # changed since it was extracted: extracted again
    dest_root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".extract-", dir=dest_root))
    try:
        problems = _extract(zf, zip_path, files, tmp)
        (tmp / MANIFEST).write_bytes(raw_manifest)
        source_task = _point_run_at_task(tmp, dest)
        info = {
            "source": str(zip_path),
            "archive_sha256": archive_hash,
            "opened_at": datetime.now(UTC).isoformat(),
            "original_task_folder": source_task,
            "problems": problems,
            "extracted": sorted(_files_in(tmp)),
        }
        atomic.write_json(tmp / ARCHIVE_INFO, info)
        return _move_into_place(tmp, dest, archive_hash)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _check_members(zf: zipfile.ZipFile, zip_path: Path) -> None:
    """Refuse unsafe member names, then a directory past the limits (on the declared sizes)."""
    for name in zf.namelist():
        _check_member(zip_path, name)
    _check_directory(zf, zip_path)


def _check_directory(zf: zipfile.ZipFile, zip_path: Path) -> None:
    infos = zf.infolist()
    if len(infos) > MAX_ARCHIVE_MEMBERS:
        raise StudioError(
            f"{zip_path}: has {len(infos)} members, more than {MAX_ARCHIVE_MEMBERS} allowed; "
            "archive refused"
        )
    total = 0
    for info in infos:
        limit = _member_limit(info.filename)
        if info.file_size > limit:
            raise StudioError(
                f"{zip_path}: member {info.filename!r} is {info.file_size} bytes uncompressed, "
                f"more than {size_text(limit)} allowed; archive refused"
            )
        total += info.file_size
        if total > MAX_ARCHIVE_TOTAL:
            raise StudioError(
                f"{zip_path}: the members up to {info.filename!r} are {total} bytes "
                f"uncompressed, more than {size_text(MAX_ARCHIVE_TOTAL)} allowed in all; "
                "archive refused"
            )


def _member_limit(name: str) -> int:
    return MAX_MANIFEST if name == MANIFEST else MAX_ARCHIVE_MEMBER


def size_text(limit: int) -> str:
    return f"{limit} ({limit / MB:g} MB)" if limit >= MB else str(limit)


def _copy_capped(
    zf: zipfile.ZipFile, info: zipfile.ZipInfo, sink: IO[bytes], cap: int
) -> tuple[str, int] | None:
    """Inflate a member into `sink` in chunks: its sha256 and size, or None once it passes `cap`.

    At most `cap` + 1 bytes are inflated, whatever size the member declares; reading errors
    (`_READ_ERRORS`) pass through.
    """
    digest, got = hashlib.sha256(), 0
    with zf.open(info) as fh:
        while chunk := fh.read(min(CHUNK, cap + 1 - got)):
            got += len(chunk)
            if got > cap:
                return None
            digest.update(chunk)
            sink.write(chunk)
    return digest.hexdigest(), got


def _too_big(zip_path: Path, name: str, allowed: str) -> StudioError:
    return StudioError(f"{zip_path}: member {name!r} holds more than {allowed}; archive refused")


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


def _read_manifest(zf: zipfile.ZipFile, zip_path: Path) -> tuple[dict[str, Any], bytes]:
    """The checked manifest, and its bytes as read."""
    try:
        info = zf.getinfo(MANIFEST)
    except KeyError:
        raise StudioError(
            f"{zip_path}: no {MANIFEST}; not a trajectory archive (use `studio trajectory export`)"
        ) from None
    buf = io.BytesIO()
    try:
        copied = _copy_capped(zf, info, buf, MAX_MANIFEST)
    except _READ_ERRORS as exc:
        raise StudioError(f"{zip_path}: {MANIFEST} cannot be read ({exc})") from None
    if copied is None:
        raise _too_big(zip_path, MANIFEST, f"the {size_text(MAX_MANIFEST)} bytes allowed")
    raw = buf.getvalue()
    try:
        manifest: Any = loads(raw, f"{zip_path}: {MANIFEST}", max_bytes=MAX_MANIFEST)
    except JsonInputError as exc:
        raise StudioError(f"{zip_path}: {MANIFEST} is not valid JSON ({exc.problem})") from None
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
    return manifest, raw


def _file_ok(entry: Any) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("path"), str)
        and isinstance(entry.get("sha256"), str)
        and entry["path"] not in (MANIFEST, ARCHIVE_INFO)
    )


def _slug(manifest: dict[str, Any], zip_path: Path) -> str:
    run = manifest.get("run")
    name = run.get("task_id") if isinstance(run, dict) else None
    name = name if isinstance(name, str) and name else zip_path.stem
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._") or "trajectory"


def _already_extracted(dest: Path, archive_hash: str) -> bool:
    try:
        info = read_json(dest / ARCHIVE_INFO, max_bytes=MAX_MANIFEST)
    except JsonInputError:
        return False
    return isinstance(info, dict) and info.get("archive_sha256") == archive_hash


def _files_in(folder: Path) -> set[str]:
    """Every file below `folder` (links too), as a path relative to it; not archive.json."""
    found = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if not p.is_dir()}
    return found - {ARCHIVE_INFO}


def _still_as_extracted(dest: Path, zf: zipfile.ZipFile, raw_manifest: bytes) -> bool:
    """Whether the extraction `dest` holds what extracting `zf` gave, and nothing else."""
    try:
        listed = read_json(dest / ARCHIVE_INFO, max_bytes=MAX_MANIFEST).get("extracted")
        if not isinstance(listed, list) or set(listed) != _files_in(dest):
            return False
        for name in listed:
            path = dest / name
            if path.is_symlink() or not path.is_file():
                return False
            if name == MANIFEST:
                same = path.read_bytes() == raw_manifest
            elif name == RUN_FILE:
                has_task = any(str(n).startswith(f"{TASK_DIR}/") for n in listed)
                same = path.read_bytes() == _run_json_as_extracted(zf, dest, has_task)
            else:
                same = _crc_matches(path, zf.getinfo(name))
            if not same:
                return False
    except (OSError, KeyError, JsonInputError, *_READ_ERRORS):
        return False
    return True


def _crc_matches(path: Path, info: zipfile.ZipInfo) -> bool:
    crc, size = 0, 0
    with path.open("rb") as fh:
        while chunk := fh.read(CHUNK):
            crc, size = zlib.crc32(chunk, crc), size + len(chunk)
    return size == info.file_size and crc == info.CRC


def _run_json_as_extracted(zf: zipfile.ZipFile, dest: Path, has_task: bool) -> bytes | None:
    """The bytes run.json has after extraction into `dest` (see `_point_run_at_task`)."""
    buf = io.BytesIO()
    if _copy_capped(zf, zf.getinfo(RUN_FILE), buf, MAX_MANIFEST) is None:
        return None
    rewritten, _ = _run_json_for(buf.getvalue(), dest, has_task)
    return buf.getvalue() if rewritten is None else rewritten


def _extract(
    zf: zipfile.ZipFile, zip_path: Path, files: list[dict[str, Any]], into: Path
) -> list[str]:
    problems = []
    listed = {f["path"] for f in files}
    left = MAX_ARCHIVE_TOTAL
    for entry in files:
        name = entry["path"]
        try:
            info = zf.getinfo(name)
        except KeyError:
            problems.append(f"{zip_path}: {name} is listed in {MANIFEST} but missing")
            continue
        cap = min(MAX_ARCHIVE_MEMBER, left)
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            with target.open("wb") as out:
                copied = _copy_capped(zf, info, out, cap)
        except _READ_ERRORS as exc:  # damaged
            target.unlink(missing_ok=True)
            problems.append(f"{zip_path}: {name} cannot be read ({exc}); not extracted")
            continue
        if copied is None:
            if cap < MAX_ARCHIVE_MEMBER:
                allowed = (
                    f"the {cap} bytes left of the {size_text(MAX_ARCHIVE_TOTAL)} allowed in all"
                )
            else:
                allowed = f"the {size_text(cap)} bytes allowed"
            raise _too_big(zip_path, name, allowed)
        digest, size = copied
        left -= size
        if digest != entry["sha256"]:
            problems.append(f"{zip_path}: {name} does not match its sha256 in {MANIFEST}")
    for name in zf.namelist():
        if name not in listed and name != MANIFEST and not name.endswith("/"):
            problems.append(f"{zip_path}: {name} is not listed in {MANIFEST}; not extracted")
    return problems


def _point_run_at_task(tmp: Path, dest: Path) -> str | None:
    """Make run.json's task_folder the extracted task copy, or none when there is no copy.

    A path run.json names is never kept: it came from the archive. Returns that path.
    """
    run_file = tmp / RUN_FILE
    if not run_file.is_file():
        return None
    rewritten, original = _run_json_for(run_file.read_bytes(), dest, (tmp / TASK_DIR).is_dir())
    if rewritten is not None:
        atomic.write_bytes(run_file, rewritten)
    return original


def _run_json_for(raw: bytes, dest: Path, has_task: bool) -> tuple[bytes | None, str | None]:
    """run.json pointed at the task copy in `dest` (None: left as it is), and the path it
    named."""
    try:
        data: Any = loads(raw, RUN_FILE)
    except JsonInputError:
        return None, None  # load_view reports the broken header
    if not isinstance(data, dict):
        return None, None
    original = data.get("task_folder")
    named = original if isinstance(original, str) else None
    if not has_task and original is None:
        return None, named
    data["task_folder"] = str((dest / TASK_DIR).resolve()) if has_task else None
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"), named


def _move_into_place(tmp: Path, dest: Path, archive_hash: str) -> Path:
    if dest.exists():
        if _already_extracted(dest, archive_hash):  # another process was faster
            return dest
        raise StudioError(f"{dest}: exists but is not an extraction of this archive; move it")
    os.replace(tmp, dest)
    return dest

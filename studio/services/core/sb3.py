"""Reading and checking .sb3 files (a zip holding project.json and the assets).

An .sb3 is read within limits, so that a small file cannot make the studio inflate gigabytes:

- `MAX_SB3_MEMBERS` (10 000) members at most;
- `MAX_PROJECT_JSON` (64 MB) for project.json, `MAX_ASSET` (50 MB) for any other member, and
  `MAX_SB3_TOTAL` (300 MB) for all members together, all counted uncompressed.

`open_sb3` (used by `read_project_json`, `missing_assets` and `check_sb3`, and by
`mutation.engine.mutant_sb3`) checks the zip's directory against these limits, on the sizes the
archive declares, before any member is read. Members the studio reads (project.json; every
asset when packing a mutant, through `read_members`) are then inflated by `read_member` in
chunks that stop as soon as the bytes actually read pass the member's limit or what is left of
the total, so a member whose header understates its size is not read past the limit either.
Assets the studio only passes on to the VM are checked on their declared sizes.

A refused file raises ProjectFileError naming the file, the member and the limit; a member that
cannot be inflated (damaged, encrypted, a wrong CRC) raises ProjectFileError naming the member.
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from pathlib import Path
from typing import Any

from studio.services.core.errors import ProjectFileError
from studio.services.core.untrusted_json import JsonInputError, loads

__all__ = [
    "BUILTIN_EXTENSIONS", "CHUNK", "CORE_CATEGORIES", "MAX_ASSET", "MAX_PROJECT_JSON",
    "MAX_SB3_MEMBERS", "MAX_SB3_TOTAL", "MB", "PROJECT_JSON", "READ_ERRORS", "build_sb3",
    "check_sb3", "load_sb3", "member_limit", "missing_assets", "open_sb3", "read_capped",
    "read_member", "read_members", "read_project_json", "unknown_extensions",
]  # fmt: skip

MB = 1024 * 1024
MAX_PROJECT_JSON = 64 * MB  # bytes of project.json, uncompressed
MAX_ASSET = 50 * MB  # bytes of any other member (costume, sound), uncompressed
MAX_SB3_TOTAL = 300 * MB  # bytes of all members together, uncompressed
MAX_SB3_MEMBERS = 10_000
PROJECT_JSON = "project.json"
CHUNK = 64 * 1024  # bytes inflated at a time when reading a member
# What reading a member raises when its data is damaged, encrypted or compressed oddly.
READ_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    NotImplementedError,
    RuntimeError,
    ValueError,
)
# Block categories of the VM itself, and the extensions built into Scratch 3 (the only ones a
# project can load offline: any other is fetched from a URL).
CORE_CATEGORIES = frozenset(
    {"argument", "colour", "control", "data", "event", "looks", "math", "motion", "note"}
    | {"operator", "procedures", "sensing", "sound", "text"}
)
BUILTIN_EXTENSIONS = frozenset(
    {"coreExample", "pen", "wedo2", "music", "microbit", "text2speech", "translate"}
    | {"videoSensing", "ev3", "makeymakey", "boost", "gdxfor", "faceSensing"}
)


def open_sb3(data: bytes, name: str | Path = "project.sb3") -> zipfile.ZipFile:
    """The .sb3 bytes as an open zip whose directory is within the limits (close it after)."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, EOFError):
        raise ProjectFileError(
            name, "not a Scratch 3 project: the file is not a zip archive"
        ) from None
    try:
        _check_directory(zf, name)
    except BaseException:
        zf.close()
        raise
    return zf


def _check_directory(zf: zipfile.ZipFile, name: str | Path) -> None:
    infos = zf.infolist()
    if len(infos) > MAX_SB3_MEMBERS:
        raise ProjectFileError(
            name, f"the archive has {len(infos)} members, more than {MAX_SB3_MEMBERS} allowed"
        )
    total = 0
    for info in infos:
        limit = member_limit(info.filename)
        if info.file_size > limit:
            raise ProjectFileError(
                name,
                f"member {info.filename!r} is {info.file_size} bytes uncompressed, "
                f"more than {_limit(limit)} allowed",
            )
        total += info.file_size
        if total > MAX_SB3_TOTAL:
            raise ProjectFileError(
                name,
                f"the members up to {info.filename!r} are {total} bytes uncompressed, more than "
                f"{_limit(MAX_SB3_TOTAL)} allowed for the whole project",
            )


def member_limit(member: str) -> int:
    """The most bytes (uncompressed) a member of this name may hold."""
    return MAX_PROJECT_JSON if member == PROJECT_JSON else MAX_ASSET


def _limit(limit: int) -> str:
    return f"{limit} ({limit / MB:g} MB)" if limit >= MB else str(limit)


def read_capped(zf: zipfile.ZipFile, info: zipfile.ZipInfo, cap: int) -> bytes | None:
    """The member's bytes, or None when it holds more than `cap` (then at most cap+1 are read).

    Inflates in chunks whatever size the member declares; reading errors pass through.
    """
    parts: list[bytes] = []
    got = 0
    with zf.open(info) as fh:
        while chunk := fh.read(min(CHUNK, cap + 1 - got)):
            got += len(chunk)
            if got > cap:
                return None
            parts.append(chunk)
    return b"".join(parts)


def read_member(
    zf: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    name: str | Path,
    cap: int | None = None,
    allowed: str = "",
) -> bytes:
    """A member of the .sb3 `name`, read within `cap` bytes (default: its `member_limit`).

    `allowed` says what the cap is, for the message (default: "the CAP bytes allowed").
    """
    cap = member_limit(info.filename) if cap is None else cap
    try:
        data = read_capped(zf, info, cap)
    except READ_ERRORS as exc:
        raise ProjectFileError(name, f"member {info.filename!r} cannot be read ({exc})") from None
    if data is None:
        allowed = allowed or f"the {_limit(cap)} bytes allowed"
        raise ProjectFileError(
            name,
            f"member {info.filename!r} holds more than {allowed} "
            f"(its header says {info.file_size})",
        )
    return data


def read_members(
    zf: zipfile.ZipFile, name: str | Path, skip: frozenset[str] = frozenset()
) -> list[tuple[zipfile.ZipInfo, bytes]]:
    """Every member but those named in `skip`, each within its limit and all within the total."""
    found = []
    left = MAX_SB3_TOTAL
    for info in zf.infolist():
        if info.filename in skip:
            continue
        cap = member_limit(info.filename)
        if left < cap:
            allowed = f"the {left} bytes left of the {_limit(MAX_SB3_TOTAL)} allowed in all"
            data = read_member(zf, info, name, left, allowed)
        else:
            data = read_member(zf, info, name, cap)
        left -= len(data)
        found.append((info, data))
    return found


def read_project_json(data: bytes, name: str | Path = "project.sb3") -> dict[str, Any]:
    """Return the parsed project.json of an .sb3, or raise ProjectFileError naming `name`."""
    with open_sb3(data, name) as zf:
        try:
            info = zf.getinfo(PROJECT_JSON)
        except KeyError:
            raise ProjectFileError(
                name, "not a Scratch 3 project: project.json is missing"
            ) from None
        raw = read_member(zf, info, name)
    try:
        project = loads(raw, f"{name}: {PROJECT_JSON}", max_bytes=MAX_PROJECT_JSON)
    except JsonInputError as exc:
        raise ProjectFileError(name, f"project.json is not valid JSON ({exc.problem})") from None
    if not isinstance(project, dict) or not isinstance(project.get("targets"), list):
        raise ProjectFileError(name, "project.json has no list of targets (not Scratch 3?)")
    if not any(isinstance(t, dict) and t.get("isStage") for t in project["targets"]):
        raise ProjectFileError(name, "project.json has no stage target")
    return project


def missing_assets(
    data: bytes, project: dict[str, Any], name: str | Path = "project.sb3"
) -> list[str]:
    """Asset files referenced by costumes and sounds that the archive does not carry."""
    with open_sb3(data, name) as zf:
        present = set(zf.namelist())
    missing = []
    for target in project["targets"]:
        for asset in [*target.get("costumes", []), *target.get("sounds", [])]:
            fname = asset.get("md5ext") or f"{asset.get('assetId')}.{asset.get('dataFormat')}"
            if fname not in present:
                missing.append(fname)
    return sorted(set(missing))


def unknown_extensions(project: dict[str, Any]) -> list[str]:
    """Extensions the project names or uses blocks of that are not built into Scratch 3."""
    found = {e for e in project.get("extensions") or [] if isinstance(e, str)}
    for target in project["targets"]:
        blocks = target.get("blocks") if isinstance(target, dict) else None
        if not isinstance(blocks, dict):
            continue  # malformed; the VM names that problem when it refuses the project
        for blk in blocks.values():
            opcode = blk.get("opcode") if isinstance(blk, dict) else None
            if isinstance(opcode, str) and "_" in opcode:
                found.add(opcode.split("_", 1)[0])
    return sorted(found - CORE_CATEGORIES - BUILTIN_EXTENSIONS)


def check_sb3(data: bytes, name: str | Path) -> dict[str, Any]:
    """Validate an .sb3 well enough that the VM will load it offline; return project.json."""
    project = read_project_json(data, name)
    absent = missing_assets(data, project, name)
    if absent:
        shown = ", ".join(absent[:3]) + (" ..." if len(absent) > 3 else "")
        raise ProjectFileError(name, f"the project does not carry its assets: {shown}")
    unknown = unknown_extensions(project)
    if unknown:
        raise ProjectFileError(
            name,
            f"the project uses the extension {', '.join(map(repr, unknown))}, which is not "
            "built into Scratch 3 (only built-in extensions load offline)",
        )
    return project


def load_sb3(path: Path) -> tuple[bytes, dict[str, Any]]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ProjectFileError(path, f"cannot be read ({exc.strerror or exc})") from None
    return data, check_sb3(data, path)


def build_sb3(project: dict[str, Any], assets: dict[str, bytes]) -> bytes:
    """Pack project.json and assets (keyed by md5ext) into .sb3 bytes."""
    buf = io.BytesIO()
    members = [("project.json", json.dumps(project, separators=(",", ":")).encode("utf-8"))]
    members += sorted(assets.items())
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, blob in members:
            zf.writestr(_fixed_info(name), blob)
    return buf.getvalue()


def _fixed_info(name: str) -> zipfile.ZipInfo:
    """A zip entry without the current time in it, so rebuilding gives identical bytes."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info

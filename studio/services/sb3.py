"""Reading and checking .sb3 files (a zip holding project.json and the assets)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from studio.services.errors import ProjectFileError

MAX_PROJECT_JSON = 64 * 1024 * 1024  # bytes of project.json, as the archive declares them
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


def read_project_json(data: bytes, name: str | Path = "project.sb3") -> dict[str, Any]:
    """Return the parsed project.json of an .sb3, or raise ProjectFileError naming `name`."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            size = zf.getinfo("project.json").file_size
            if size > MAX_PROJECT_JSON:
                raise ProjectFileError(
                    name, f"project.json is {size} bytes, more than {MAX_PROJECT_JSON} allowed"
                )
            raw = zf.read("project.json")
    except zipfile.BadZipFile:
        raise ProjectFileError(
            name, "not a Scratch 3 project: the file is not a zip archive"
        ) from None
    except KeyError:
        raise ProjectFileError(name, "not a Scratch 3 project: project.json is missing") from None
    try:
        project = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProjectFileError(name, f"project.json is not valid JSON ({exc})") from None
    if not isinstance(project, dict) or not isinstance(project.get("targets"), list):
        raise ProjectFileError(name, "project.json has no list of targets (not Scratch 3?)")
    if not any(isinstance(t, dict) and t.get("isStage") for t in project["targets"]):
        raise ProjectFileError(name, "project.json has no stage target")
    return project


def missing_assets(data: bytes, project: dict[str, Any]) -> list[str]:
    """Asset files referenced by costumes and sounds that the archive does not carry."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
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
    absent = missing_assets(data, project)
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

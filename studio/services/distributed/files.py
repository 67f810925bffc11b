"""Folders carried between machines as `{relative path: bytes}`: a task folder to a worker,
an episode's trajectory back to the driver.

Packing reads regular files only (a symlink is refused, so nothing outside the folder
travels) and stops at `MAX_BYTES`. Unpacking treats the mapping as untrusted: every path must
be relative, made of plain names (no `..`, no absolute path, no empty part), or the whole
mapping is refused with an error naming the folder and the path. Files are written atomically.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from studio.models.errors import StudioError
from studio.services.core import atomic

__all__ = ["MAX_BYTES", "Files", "pack", "safe_path", "unpack"]

MAX_BYTES = 256 * 1024 * 1024

Files = dict[str, bytes]


def pack(folder: Path, limit: int = MAX_BYTES) -> Files:
    """Every regular file below `folder`, by its path relative to it (with `/`)."""
    files: Files = {}
    total = 0
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            raise StudioError(f"{folder}: {rel} is a symbolic link; it cannot be sent to a node")
        if not path.is_file():
            continue
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise StudioError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        total += len(data)
        if total > limit:
            raise StudioError(f"{folder}: more than {limit // 2**20} MB to send to a node")
        files[rel] = data
    return files


def unpack(files: Files, folder: Path) -> None:
    """Write `files` below `folder` (created); refuse the lot if a path leaves it."""
    checked = {safe_path(folder, rel): data for rel, data in files.items()}
    folder.mkdir(parents=True, exist_ok=True)
    for path, data in checked.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_bytes(path, data)


def safe_path(folder: Path, rel: str) -> Path:
    """`folder / rel` when `rel` is a plain relative path, else a StudioError."""
    parts = PurePosixPath(rel).parts
    if (
        not isinstance(rel, str)
        or not parts
        or rel.startswith("/")
        or "\\" in rel
        or any(p in ("", ".", "..") for p in parts)
        or rel != "/".join(parts)
    ):
        raise StudioError(f"{folder}: refused a file path from a worker: {rel!r}")
    return folder.joinpath(*parts)

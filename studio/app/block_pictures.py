"""Pictures of a project's blocks written to disk (`studio blocks picture`).

`write_pictures(project, out, sprite)` draws every script of the project (or of one sprite)
with the scratchblocks package (`services.core.blocktext.pictures`) in one renderer run and
writes, by the form of `out`:

- `FILE.html`: one page, a heading per target, each script's picture with its text under a
  click (<details>);
- `FILE.svg`: one picture of all the scripts of one target (the sprite named, or the only
  target that has scripts; BlockPictureError otherwise);
- anything else, a folder: one `TARGET-N.svg` per script (N from 1, in the order `studio
  blocks text` writes them) and an `index.html` page of them all.

Every file is written atomically; nothing is written when a script cannot be drawn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from studio.models.errors import StudioError
from studio.services.core import atomic
from studio.services.core.blocktext.pictures import (
    TargetPictures,
    pictures_page,
    project_pictures,
    render_svgs,
)
from studio.services.core.sb3 import load_sb3

__all__ = ["BlockPictureError", "PicturesWritten", "write_pictures"]


class BlockPictureError(StudioError, ValueError):
    """Pictures that cannot be made as asked (which project, and why)."""


@dataclass
class PicturesWritten:
    """What `write_pictures` wrote: the files, and how many scripts they show."""

    files: list[Path] = field(default_factory=list)
    scripts: int = 0


def _file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "target"


def write_pictures(project_path: Path, out: Path, sprite: str | None = None) -> PicturesWritten:
    """Draw the project's scripts and write them to `out` (see the module doc)."""
    _data, project = load_sb3(project_path)
    targets = project_pictures(project, sprite, str(project_path))
    failed = [
        f"{t.name} script {n}: {p.error}"
        for t in targets
        for n, p in enumerate(t.pictures, 1)
        if p.error is not None
    ]
    if failed:
        raise BlockPictureError(f"{project_path}: cannot draw " + "; ".join(failed))
    written = PicturesWritten(scripts=sum(len(t.pictures) for t in targets))
    suffix = out.suffix.lower()
    if suffix == ".html":
        atomic.write_text(out, pictures_page(targets, project_path.name))
        written.files.append(out)
    elif suffix == ".svg":
        _write_one_svg(project_path, out, targets)
        written.files.append(out)
    else:
        out.mkdir(parents=True, exist_ok=True)
        for target in targets:
            for number, picture in enumerate(target.pictures, 1):
                path = out / f"{_file_name(target.name)}-{number}.svg"
                atomic.write_text(path, picture.svg + "\n")
                written.files.append(path)
        index = out / "index.html"
        atomic.write_text(index, pictures_page(targets, project_path.name))
        written.files.append(index)
    return written


def _write_one_svg(project_path: Path, out: Path, targets: list[TargetPictures]) -> None:
    scripted = [t for t in targets if t.pictures]
    if len(scripted) != 1:
        names = ", ".join(t.name for t in scripted) or "none"
        raise BlockPictureError(
            f"{project_path}: one .svg shows one target's scripts; targets with scripts: "
            f"{names} (name one with --sprite, or write a folder or an .html page)"
        )
    text = "\n\n".join(p.text for p in scripted[0].pictures)
    (picture,) = render_svgs([text])
    if picture.error is not None:
        raise BlockPictureError(f"{project_path}: cannot draw {scripted[0].name}: {picture.error}")
    atomic.write_text(out, picture.svg + "\n")

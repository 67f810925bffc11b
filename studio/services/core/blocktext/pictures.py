"""Pictures of blocks: scripts as SVG in Scratch 3 style, drawn by the scratchblocks package.

The npm `scratchblocks` package (the one that reads block text, `blocktext.scratchblocks`)
draws the pictures: resources/node/scratchblocks-render.mjs runs its Scratch 3 renderer in
Node over a small DOM of our own (resources/node/svg-dom.mjs), one process for any number of
texts. The renderer sizes each label with a canvas's measureText; in Node that measure is the
advance widths of the TrueType font a browser here draws "Helvetica" with (fontconfig's
metric-compatible Liberation Sans: `fc-match Helvetica`), so the shapes fit the text as they do
when the package runs in Chromium on this machine (kerning aside: a few tenths of a pixel on a
long line). `STUDIO_BLOCK_FONT` names another .ttf/.otf file.

Each picture is a standalone SVG document with its style sheet and only the icons it links
to; `Picture.text` is the text it was drawn from, so every picture has its text a click away
(`picture_html`: the SVG inline and the text in a <details>).
"""

from __future__ import annotations

import html
import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.services.core.blocks import target_name
from studio.services.core.blocktext.project_text import NoSuchTarget
from studio.services.core.blocktext.scratchblocks import package_dir
from studio.services.core.blocktext.writing import render_script, top_ids
from studio.services.core.paths import RESOURCES, SetupError

__all__ = [
    "FONT_CANDIDATES", "RENDER_SCRIPT", "Picture", "TargetPictures", "font_file",
    "many_pictures", "picture_html", "pictures_page", "project_pictures", "render_svgs",
]  # fmt: skip

RENDER_SCRIPT = RESOURCES / "node" / "scratchblocks-render.mjs"
TIMEOUT = 120.0  # seconds for one batch
FONT_CANDIDATES = (
    Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"),
    Path("/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
)
FONT_SUFFIXES = (".ttf", ".otf")


@dataclass(frozen=True)
class Picture:
    """One script's picture: the text drawn, the SVG document and its size in pixels; `error`
    (and no SVG) when the renderer refused the text."""

    text: str
    svg: str
    width: float
    height: float
    error: str | None = None


@dataclass
class TargetPictures:
    """The pictures of one target's scripts, in the order `blocks text` writes them."""

    name: str
    is_stage: bool
    pictures: list[Picture] = field(default_factory=list)


def font_file() -> Path:
    """The font whose advance widths measure labels (see the module doc), or SetupError."""
    override = os.environ.get("STUDIO_BLOCK_FONT")
    if override:
        path = Path(override)
        if not path.is_file() or path.suffix.lower() not in FONT_SUFFIXES:
            raise SetupError(f"STUDIO_BLOCK_FONT={override}: not a .ttf or .otf file")
        return path
    matcher = shutil.which("fc-match")
    if matcher:
        done = subprocess.run(
            [matcher, "-f", "%{file}", "Helvetica"], capture_output=True, timeout=20, check=False
        )
        found = Path(done.stdout.decode("utf-8", "replace").strip())
        if done.returncode == 0 and found.suffix.lower() in FONT_SUFFIXES and found.is_file():
            return found
    for path in FONT_CANDIDATES:
        if path.is_file():
            return path
    raise SetupError(
        "no font to measure block labels with: install fonts-liberation (`make setup` does) "
        "or name a .ttf file in STUDIO_BLOCK_FONT"
    )


def _node() -> str:
    found = shutil.which("node")
    if not found:
        raise SetupError("Node.js (`node`) is needed to draw block pictures; install nodejs")
    return found


def render_svgs(texts: list[str], scale: float = 1.0) -> list[Picture]:
    """One picture per text (all of them in one Node run); SetupError when the renderer
    cannot run. A text may hold several scripts (blank lines between): one picture of all."""
    if not texts:
        return []
    command = [
        _node(),
        "--stack-size=4000",
        str(RENDER_SCRIPT),
        str(package_dir()),
        str(font_file()),
    ]
    request = json.dumps({"texts": texts, "scale": scale}).encode("utf-8")
    try:
        done = subprocess.run(
            command, input=request, capture_output=True, timeout=TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        raise SetupError(f"the scratchblocks renderer took more than {TIMEOUT:g} s") from None
    if done.returncode != 0:
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        raise SetupError(f"the scratchblocks renderer failed: {' / '.join(tail)}")
    answers = json.loads(done.stdout)
    if not isinstance(answers, list) or len(answers) != len(texts):
        raise SetupError("the scratchblocks renderer gave an answer of the wrong shape")
    return [_picture(text, answer) for text, answer in zip(texts, answers, strict=True)]


def _picture(text: str, answer: dict[str, Any]) -> Picture:
    if "error" in answer:
        return Picture(text, "", 0.0, 0.0, str(answer["error"]))
    return Picture(text, str(answer["svg"]), float(answer["width"]), float(answer["height"]))


def project_pictures(
    project: dict[str, Any], sprite: str | None = None, source: str = "project", scale: float = 1.0
) -> list[TargetPictures]:
    """A picture per script of every target (or of the sprite named; NoSuchTarget when the
    project has none such), drawn in one renderer run. Targets without scripts are kept with
    no pictures, so a caller can say so."""
    targets = project["targets"]
    if sprite is not None:
        targets = [t for t in targets if target_name(t) == sprite]
        if not targets:
            raise NoSuchTarget(f"{source}: the project has no sprite named {sprite!r}")
    return many_pictures([targets], scale)[0]


def many_pictures(
    projects: list[list[dict[str, Any]]], scale: float = 1.0
) -> list[list[TargetPictures]]:
    """The pictures of the targets of many projects (each a list of targets), all drawn in one
    renderer run: the way to draw a bundle's or a set's programs."""
    texts: list[str] = []
    shapes: list[list[tuple[dict[str, Any], int]]] = []
    for targets in projects:
        shape = []
        for target in targets:
            blocks = target.get("blocks", {})
            scripts = [render_script(blocks, top) for top in top_ids(blocks)]
            texts += scripts
            shape.append((target, len(scripts)))
        shapes.append(shape)
    drawn = iter(render_svgs(texts, scale))
    return [
        [
            TargetPictures(
                target_name(target), bool(target.get("isStage")), [next(drawn) for _ in range(n)]
            )
            for target, n in shape
        ]
        for shape in shapes
    ]


def picture_html(picture: Picture, open_text: bool = False) -> str:
    """The picture inline with its text a click away (a <details> under it); a picture the
    renderer refused shows its error and the text open."""
    text = html.escape(picture.text)
    if picture.error is not None:
        return (
            f'<div class="blocks blocks-error"><p>cannot draw: {html.escape(picture.error)}</p>'
            f"<pre>{text}</pre></div>"
        )
    opened = " open" if open_text else ""
    return (
        f'<div class="blocks">{picture.svg}'
        f"<details{opened}><summary>text</summary><pre>{text}</pre></details></div>"
    )


PAGE_STYLE = (
    "body{font-family:sans-serif;margin:16px;background:#fff}"
    ".blocks{margin:12px 0 20px}.blocks details{margin-top:4px;color:#555}"
    ".blocks pre{background:#f6f6f6;padding:6px;margin:4px 0}"
    ".blocks-error p{color:#b00}"
)


def pictures_page(targets: list[TargetPictures], title: str) -> str:
    """A standalone HTML page: a heading per target and each script's picture with its text."""
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{PAGE_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
    ]
    for target in targets:
        parts.append(f"<h2>{html.escape(target.name)}</h2>")
        if not target.pictures:
            parts.append("<p>no scripts</p>")
        parts += [picture_html(p) for p in target.pictures]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"

"""The screen a perception QA screenshot shows: prepared on the set's editor edition, kept, and
taken again.

A screen is a project in an editor page at 1280x720, prepared in this order: load the project;
optionally switch to small stage mode (`stage: "small"`, as the published benchmark's screens
are); lay the editor out and put it in the studio's view (`workspace_state`: editing target,
palette category and scroll, zoom, scroll); optionally take a block out of its place; then,
for a published-style screen, restore the published workspace state (`published_state`:
`scale`, `scrollX`, `scrollY`), as the page's edition restores published items (on classic, the
published drag runner's forced canvas transform; `edition-<name>.js`, `restorePublished`).
Whatever moves afterwards (a palette scroll animated by a category click) is waited for, and
the stage is drawn once (the VM's frame loop is paused while the screen is prepared), and the
page's images (the code area's sprite watermark, sprite tiles) are waited for (5 s at most).

A QA set keeps, for each screenshot, the project as it is on screen:
`projects/<screenshot stem>.sb3` (a block taken out is stored out). With it and an item's
`capture` record (area, clip, stage, workspace_state, published_state), `recapture` makes the
screen again, takes the picture and renews every item of that screenshot: its clip, the box of
the block asked about (`subject_box`) and the answer the VM suggests. A labeler's work is kept:
ground truth, answers and review do not change; an item whose truth the VM no longer suggests
is reported (`Recaptured.disagree`). A screenshot without a kept project needs one given
(`project`), which is kept from then on.
"""

from __future__ import annotations

import base64
import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.models.errors import StudioError
from studio.models.qa_item import QaItem
from studio.services.core.atomic import write_bytes
from studio.services.diagnostics.qa.capture import capture, subject_box, suggest
from studio.services.diagnostics.qa.item import QaSet
from studio.services.runtime import page_scripts
from studio.services.runtime.page_scripts import COMPOSITE, DRAG, EDITOR, HELPERS
from studio.services.runtime.page_seam import EditorPage

__all__ = [
    "PROJECTS_DIR", "PUBLISHED_KEYS", "STILL_TIMEOUT_MS", "Recaptured", "Screen", "keep_project",
    "prepare", "project_path", "published_state", "recapture", "shown_project",
]  # fmt: skip

PROJECTS_DIR = "projects"
STILL_TIMEOUT_MS = 5_000
PUBLISHED_KEYS = ("scale", "scrollX", "scrollY")


@dataclass
class Screen:
    """How to prepare a screen (see the module doc); what `capture` records of it."""

    target: str | None = None
    category: str | None = None
    detach: str | None = None
    offset: tuple[float, float] = (0.0, 0.0)
    small_stage: bool = False
    published: dict[str, float] | None = None  # {scale, scrollX, scrollY}
    view: dict[str, Any] | None = None  # a recorded studio view (workspace_state) to restore

    @classmethod
    def of_item(cls, item: QaItem) -> Screen:
        """The screen an item's capture record says it showed (the project is kept apart)."""
        cap = item.capture
        view = cap.get("workspace_state")
        published = cap.get("published_state")
        return cls(
            small_stage=cap.get("stage") == "small",
            view=dict(view) if isinstance(view, dict) else None,
            published=published_state(published) if published is not None else None,
        )

    def record(self) -> dict[str, Any]:
        """What an item's `capture` keeps of the screen besides the view read afterwards."""
        out: dict[str, Any] = {}
        if self.small_stage:
            out["stage"] = "small"
        if self.published is not None:
            out["published_state"] = dict(self.published)
        return out


def published_state(raw: Any) -> dict[str, float]:
    """A published workspace state: `scale`, `scrollX`, `scrollY`, finite numbers."""
    if not isinstance(raw, dict):
        raise StudioError("a published workspace state is an object {scale, scrollX, scrollY}")
    out: dict[str, float] = {}
    for key in PUBLISHED_KEYS:
        value = raw.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
            raise StudioError(f"published workspace state: {key} must be a number, got {value!r}")
        out[key] = float(value)
    if out["scale"] <= 0:
        raise StudioError("published workspace state: scale must be above 0")
    return out


async def prepare(page: EditorPage, project: bytes, name: str, screen: Screen) -> dict[str, Any]:
    """Load `project` in the editor page and prepare the screen; the view read afterwards."""
    data = base64.b64encode(project).decode("ascii")
    await page_scripts.bridge(page, "loadProjectBase64", data, name, name)
    if screen.small_stage and not (
        await page_scripts.call(page, HELPERS, "clickSmallStage")
        and await page_scripts.call(page, HELPERS, "smallStageShown", 2)
    ):
        raise StudioError("the editor did not switch to small stage mode")
    await page_scripts.call(page, COMPOSITE, "layout")
    await page_scripts.call(page, EDITOR, "pauseVm")
    view: dict[str, Any] = dict(screen.view or await page_scripts.call(page, DRAG, "viewState"))
    if screen.target:
        view["target"] = screen.target
    if screen.category:
        view["category"] = screen.category
    await page_scripts.call(page, DRAG, "view", view)
    if screen.detach:
        await page_scripts.call(page, DRAG, "detach", screen.detach, *screen.offset)
    if screen.published is not None:
        await page_scripts.call(page, DRAG, "view", screen.published)
    await page_scripts.call(page, DRAG, "still", STILL_TIMEOUT_MS)
    # the paused VM no longer draws the stage by itself
    await page_scripts.call(page, EDITOR, "drawStage")
    with contextlib.suppress(Exception):  # a sprite's watermark, a tile: loaded, or shown as is
        await page_scripts.wait(page, EDITOR, "imagesLoaded", timeout_ms=STILL_TIMEOUT_MS)
    result: dict[str, Any] = await page_scripts.call(page, DRAG, "viewState")
    return result


async def shown_project(page: EditorPage) -> bytes:
    """The project as the editor holds it now (a detached block stays where it was put)."""
    data = await page_scripts.bridge(page, "saveProjectBase64")
    return base64.b64decode(data)


def project_path(qa: QaSet, screenshot: str) -> Path:
    return qa.root / PROJECTS_DIR / f"{Path(screenshot).stem}.sb3"


def keep_project(qa: QaSet, screenshot: str, project: bytes) -> Path:
    path = project_path(qa, screenshot)
    write_bytes(path, project)
    return path


@dataclass
class Recaptured:
    """What `recapture` did to one screenshot's items."""

    screenshot: str
    items: list[QaItem] = field(default_factory=list)
    disagree: list[str] = field(default_factory=list)  # "id: truth X, the VM suggests Y"


async def recapture(
    page: EditorPage,
    qa: QaSet,
    screenshot: str,
    items: list[QaItem],
    project: Path | None = None,
    detach: str | None = None,
    offset: tuple[float, float] = (0.0, 0.0),
) -> Recaptured:
    """Take screenshot `screenshot` again for `items` (all of them show it) and renew them; the
    items and the picture are written. A `project` given (with a block to take out first,
    `detach` by `offset`) replaces the kept project: the project as then shown is kept."""
    if not items:
        raise StudioError(f"no QA item shows {screenshot}")
    kept = project_path(qa, screenshot)
    source = project or kept
    try:
        data = source.read_bytes()
    except OSError as exc:
        hint = "" if project else " (give the project it shows with --project)"
        raise StudioError(
            f"{source}: cannot read the project of screenshot {screenshot} ({exc.strerror}){hint}"
        ) from None
    first = items[0]
    screen = Screen.of_item(first)
    if project is not None and detach:
        screen.detach, screen.offset = detach, offset
    await prepare(page, data, source.name, screen)
    png, info = await capture(page, str(first.capture.get("area", "window")))
    view = await page_scripts.call(page, DRAG, "viewState")
    out = Recaptured(screenshot)
    for item in items:
        suggestion = await suggest(page, item.task_type, item.subject)
        cap = {**item.capture, **info, **screen.record()}
        cap.pop("subject_box", None)
        if view:
            cap["workspace_state"] = view
        box = await subject_box(page, item.subject, info.get("clip"))
        if box is not None:
            cap["subject_box"] = box
        renewed = item.model_copy(update={"capture": cap, "suggestion": suggestion})
        if suggestion.answer.strip().casefold() != item.ground_truth.strip().casefold():
            out.disagree.append(
                f"{item.task_id}: truth {item.ground_truth!r}, the VM suggests "
                f"{suggestion.answer!r} ({suggestion.why})"
            )
        out.items.append(renewed)
    if project is not None:
        keep_project(qa, screenshot, await shown_project(page))
    write_bytes(qa.screenshot_path(screenshot), png)
    for item in out.items:
        qa.save(item)
    return out

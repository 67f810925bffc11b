"""The item's screenshot with its regions drawn on it (start points green, end points red).

Drawn by the browser (an HTML page with the screenshot and one dot per grid point), so the
core needs no image library; the GUI shows the same picture and lets a labeler brush it.
"""

from __future__ import annotations

import base64
import contextlib
from typing import Any

from studio.services.diagnostics.drag.item import DragItemError, ItemFolder
from studio.services.runtime.windows import open_page

__all__ = ["DRAG_START_COLOUR", "END_COLOUR", "START_COLOUR", "overlay_html", "overlay_png"]

START_COLOUR = "rgba(0, 170, 60, 0.55)"
END_COLOUR = "rgba(220, 30, 30, 0.55)"
DRAG_START_COLOUR = "rgba(0, 90, 255, 0.9)"


def overlay_html(png: bytes, item: Any, width: int, height: int) -> str:
    cfg = item.evaluation_config
    half = max(1, cfg.grid // 2)
    dots: list[str] = []
    for pts, colour in (
        (cfg.feasible_start_points, START_COLOUR),
        (cfg.feasible_points, END_COLOUR),
    ):
        for x, y in pts:
            dots.append(
                f'<rect x="{x - half}" y="{y - half}" width="{2 * half}" height="{2 * half}" '
                f'fill="{colour}"/>'
            )
    if cfg.drag_start_point:
        x, y = cfg.drag_start_point
        dots.append(f'<circle cx="{x}" cy="{y}" r="4" fill="{DRAG_START_COLOUR}"/>')
    img = base64.b64encode(png).decode("ascii")
    return (
        f'<html><body style="margin:0"><svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}"><image href="data:image/png;base64,{img}" width="{width}" '
        f'height="{height}"/>{"".join(dots)}</svg></body></html>'
    )


async def overlay_png(context: Any, entry: ItemFolder) -> bytes:
    """A PNG of the item's screenshot with both regions and the drag start drawn on it."""
    if not entry.screenshot_path.is_file():
        raise DragItemError(f"item {entry.item.id}: no screenshot to draw on")
    view = entry.item.evaluation_config.workspace_state.viewport
    width, height = int(view.get("width", 1280)), int(view.get("height", 720))
    page = await open_page(context)
    try:
        await page.set_viewport_size({"width": width, "height": height})
        html = overlay_html(entry.screenshot_path.read_bytes(), entry.item, width, height)
        await page.set_content(html)
        png: bytes = await page.screenshot(type="png")
        return png
    finally:
        with contextlib.suppress(Exception):
            await page.close()

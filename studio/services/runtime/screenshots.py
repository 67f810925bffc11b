"""One screenshot of an editor page as an agent sees it: the same pixels as Playwright's
`page.screenshot(type="png")`, for less CPU.

`shot_png(page, full_page=False)` is what every episode and ScratchWorld session path calls to
show an agent (or its trajectory) the editor:

- On a Playwright page of the headless Chromium it asks the browser directly
  (`Page.captureScreenshot` through a CDP session kept per page: PNG, the viewport as
  Playwright clips it, `optimizeForSpeed`: a quicker PNG encoder, lossless, so the same
  pixels in a larger file) after readying the page as Playwright does
  (resources/js/screenshot-prep.js: the document's fonts awaited, the caret of every text
  field hidden the way Playwright hides it, which also makes Chromium paint those fields as
  it does for Playwright's shot), then putting it back.
  Playwright's own screenshot adds per shot its in-page preparation of every frame and its
  own waits; on an editor page that was most of a shot's cost (bench/bench_screenshot.py).
- A full-page shot of a document larger than the viewport, or scrolled, is Playwright's own
  (`page.screenshot(full_page=True)`): it lays the page out beyond the viewport.
- Any other page (the window's own editor page, a test's stand-in) is shot by its own
  `screenshot(type="png", full_page=...)`.

Errors are the page's own (Playwright's `Error` for a closed page or a lost target); callers
put their deadline around the call (episodes.page_loss.bounded).
"""

from __future__ import annotations

import base64
import weakref
from typing import TYPE_CHECKING, Any

from studio.services.runtime import page_scripts
from studio.services.runtime.page_seam import EditorPage

if TYPE_CHECKING:
    from playwright.async_api import CDPSession, Page

__all__ = ["CAPTURE", "shot_png"]

# What the browser is asked for: a PNG with its fast lossless encoder (`_params` adds where).
CAPTURE: dict[str, Any] = {"format": "png", "optimizeForSpeed": True}

_sessions: weakref.WeakKeyDictionary[Any, CDPSession] = weakref.WeakKeyDictionary()


def _playwright_page(page: EditorPage) -> Page | None:
    """`page` as a Playwright page of a Chromium browser, or None for any other page."""
    from playwright.async_api import Page

    if not isinstance(page, Page):
        return None
    browser = page.context.browser
    if browser is not None and browser.browser_type.name != "chromium":
        return None
    return page


async def _session(page: Page) -> CDPSession:
    """The page's CDP session (one per page, made at its first shot)."""
    session = _sessions.get(page)
    if session is None:
        session = await page.context.new_cdp_session(page)
        _sessions[page] = session
    return session


def _params(page: Page, ready: dict[str, Any]) -> dict[str, Any]:
    """The capture's parameters: the viewport where it is in the document, at scale 1, as
    Playwright asks for it (the page's whole window when it has no fixed viewport)."""
    size = page.viewport_size
    if size is None:
        return dict(CAPTURE)
    clip = {"x": ready["x"], "y": ready["y"], **size, "scale": 1}
    return {**CAPTURE, "clip": clip, "captureBeyondViewport": False}


async def shot_png(page: EditorPage, full_page: bool = False) -> bytes:
    """A PNG of the page as shown (the viewport; the whole document when `full_page`),
    pixel for pixel what `page.screenshot(type="png", full_page=full_page)` gives."""
    chromium = _playwright_page(page)
    if chromium is None:
        png: bytes = await page.screenshot(type="png", full_page=full_page)
        return png
    ready = await page_scripts.call(chromium, page_scripts.SHOT, "prepare", full_page)
    try:
        if not ready["fits"]:
            png = await chromium.screenshot(type="png", full_page=True)
            return png
        session = await _session(chromium)
        answer = await session.send("Page.captureScreenshot", _params(chromium, ready))
        return base64.b64decode(answer["data"])
    finally:
        if ready["hid"]:
            await page_scripts.call(chromium, page_scripts.SHOT, "restore")

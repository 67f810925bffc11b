"""Attach Playwright to the studio's embedded editor through QtWebEngine's remote debugging.

The window starts QtWebEngine with `QTWEBENGINE_REMOTE_DEBUGGING=127.0.0.1:<port>`;
`connect_over_cdp(..., no_defaults=True)` then sees the embedded page as an ordinary
Playwright page (ENVIRONMENT.md). Episodes expect the 1280x720 screen of the benchmark, so
the page's metrics are overridden to that size while attached and restored on release.
Disconnecting leaves the page and the window running.
"""

from __future__ import annotations

import contextlib
import os
import socket
from typing import Any

from studio.services.env.modes import VIEWPORT
from studio.services.errors import StudioError

DEBUG_ENV = "QTWEBENGINE_REMOTE_DEBUGGING"
OPT_OUT_ENV = "STUDIO_REMOTE_DEBUGGING"  # "off" keeps the endpoint closed (no live runs)


class AttachError(StudioError):
    """The embedded editor cannot be reached (no debugging endpoint, no such page)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def enable_remote_debugging() -> str | None:
    """Open the endpoint on a free loopback port (call before QtWebEngine starts).

    Returns the endpoint ("127.0.0.1:PORT"), or None when the user turned it off.
    An endpoint already set in the environment is kept.
    """
    if os.environ.get(OPT_OUT_ENV, "").lower() in {"off", "0", "no"}:
        return None
    endpoint = os.environ.get(DEBUG_ENV)
    if not endpoint:
        endpoint = f"127.0.0.1:{free_port()}"
        os.environ[DEBUG_ENV] = endpoint
    return endpoint


def debugging_url() -> str:
    """The http URL of the endpoint this process opened; AttachError if there is none."""
    endpoint = os.environ.get(DEBUG_ENV, "")
    if not endpoint:
        raise AttachError(
            "live runs need QtWebEngine's remote debugging, which is off in this window "
            f"({OPT_OUT_ENV}=off, or {DEBUG_ENV} was not set before the editor started)"
        )
    host_port = endpoint if ":" in endpoint else f"127.0.0.1:{endpoint}"
    return f"http://{host_port}"


class AttachedPage:
    """The embedded editor page as a Playwright page, at the benchmark's screen size."""

    def __init__(self, playwright: Any, browser: Any, page: Any, cdp: Any) -> None:
        self.playwright = playwright
        self.browser = browser
        self.page = page
        self._cdp = cdp

    async def emulate_screen(self, size: dict[str, int] = VIEWPORT) -> None:
        await self._cdp.send(
            "Emulation.setDeviceMetricsOverride",
            {
                "width": size["width"],
                "height": size["height"],
                "deviceScaleFactor": 1,
                "mobile": False,
            },
        )

    async def ensure_screen(self, size: dict[str, int] = VIEWPORT) -> None:
        """Set the screen size again if it was lost (QtWebEngine drops the override when
        the view is resized)."""
        shown = await self.page.evaluate("() => [window.innerWidth, window.innerHeight]")
        if shown != [size["width"], size["height"]]:
            await self.emulate_screen(size)

    async def release(self) -> None:
        """Restore the page's own size and disconnect (the page keeps running)."""
        with contextlib.suppress(Exception):
            await self._cdp.send("Emulation.clearDeviceMetricsOverride")
        with contextlib.suppress(Exception):
            await self.browser.close()
        with contextlib.suppress(Exception):
            await self.playwright.stop()


async def attach(url_part: str, endpoint_url: str | None = None) -> AttachedPage:
    """Connect to the endpoint and find the page whose URL contains `url_part`."""
    from playwright.async_api import async_playwright

    url = endpoint_url or debugging_url()
    playwright = await async_playwright().start()
    try:
        browser = await playwright.chromium.connect_over_cdp(url, no_defaults=True)
    except Exception as exc:
        await playwright.stop()
        raise AttachError(f"cannot reach the editor's debugging endpoint {url}: {exc}") from None
    pages = [p for context in browser.contexts for p in context.pages if url_part in p.url]
    if not pages:
        seen = ", ".join(p.url for c in browser.contexts for p in c.pages) or "none"
        with contextlib.suppress(Exception):
            await browser.close()
        await playwright.stop()
        raise AttachError(f"no page showing {url_part} at {url} (pages: {seen})")
    page = pages[0]
    cdp = await page.context.new_cdp_session(page)
    return AttachedPage(playwright, browser, page, cdp)

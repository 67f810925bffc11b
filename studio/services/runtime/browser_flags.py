"""The command line the studio's headless Chromium starts with (`browser.BrowserPool`).

Each flag keeps the browser to what evaluations and episodes need: no GPU, no background
network, sync, first-run pages or default apps, muted audio that still plays without a
gesture, WebRTC kept off the network, a sideways wheel that never navigates "back"
(`page_guard.OVERSCROLL_FLAG`), and no browser UI a headless window never shows
(`UNSHOWN_UI_FEATURES`).
"""

from __future__ import annotations

from studio.services.runtime.page_guard import OVERSCROLL_FLAG

__all__ = ["CHROMIUM_ARGS", "UNSHOWN_UI_FEATURES"]

# Browser UI the headless browser makes for every window and never shows: the omnibox's popups
# are WebUI pages (chrome://omnibox-popup.top-chrome/), loaded in a renderer of their own when a
# window opens, about 0.6 s of CPU a window (runtime.windows opens a window per page).
UNSHOWN_UI_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--mute-audio",
    "--autoplay-policy=no-user-gesture-required",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    # a sideways wheel never goes "back" (runtime.page_guard); no unshown UI (one flag: Chromium
    # reads one --disable-features)
    ",".join([OVERSCROLL_FLAG, *UNSHOWN_UI_FEATURES]),
]

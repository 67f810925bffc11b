"""The browser profile's network preferences: WebRTC kept off the network and no guessed
connections (no preconnect or DNS prefetch to a host a page merely names), merged into the
profile the evaluation browser keeps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from studio.services.core import atomic

__all__ = ["NETWORK_PREFERENCES", "close_network_preferences"]

# Profile preferences that keep WebRTC off the network and stop the browser from guessing
# connections: no preconnect or DNS prefetch to a host a page merely names.
NETWORK_PREFERENCES: dict[str, dict[str, Any]] = {
    "webrtc": {
        "ip_handling_policy": "disable_non_proxied_udp",
        "multiple_routes_enabled": False,
        "nonproxied_udp_enabled": False,
    },
    "net": {"network_prediction_options": 2},  # never predict
}


def close_network_preferences(profile: Path) -> None:
    """Merge NETWORK_PREFERENCES into the profile's Preferences (kept otherwise: code caches
    and the browser's own state stay warm); an unreadable file is replaced."""
    path = profile / "Default" / "Preferences"
    try:
        prefs = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        prefs = {}
    if not isinstance(prefs, dict):
        prefs = {}
    for section, values in NETWORK_PREFERENCES.items():
        current = prefs.get(section)
        prefs[section] = {**(current if isinstance(current, dict) else {}), **values}
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_json(path, prefs)

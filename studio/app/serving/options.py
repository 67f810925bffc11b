"""What a served agent API is asked to be, and the one set of checks it must pass.

`ServeOptions` holds every setting of a served API (the command line's `studio serve` flags,
the window's "Serve agent API here…" choices). `check_options(options, names)` refuses, with
a StudioError naming the setting as the front end calls it (`names`: `CLI_FLAGS` by default,
`WINDOW_SETTINGS` for the window), before anything is started:

- a port outside 0-65535 (0: a free one);
- a host other machines can reach, unless `allow_remote` (the text names `--allow-remote`);
- at most `max_sessions` ScratchWorld sessions and `max_episodes` episodes: 1 or more;
- a step limit below 1;
- `allow_custom_js` without the ScratchWorld routes (it is about their sessions), or above
  600 seconds a call (0 means the handler's own 20 s);
- the ScratchWorld routes (no token) on a host that is not loopback, even with
  `allow_remote`.

`serve_edition(...)` is the editor edition served: the one asked for, else classic for a
ScratchWorld checkout (the published server's editor), else the library's.
`recording_folder(out)` is where a served API records: `out/api-YYYYmmdd-HHMMSS` (UTC).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from studio.models.errors import StudioError
from studio.services.api.app import MAX_EPISODES
from studio.services.api.server import check_host, is_loopback
from studio.services.formats.scratchworld.server.sessions import MAX_SESSIONS
from studio.services.runtime import editions
from studio.services.runtime.editions import Edition

__all__ = [
    "CLI_FLAGS", "MAX_CUSTOM_JS_S", "WINDOW_SETTINGS", "ServeOptions", "check_options",
    "check_port", "recording_folder", "serve_edition",
]  # fmt: skip

MAX_CUSTOM_JS_S = 600.0

# How each front end names the settings in its messages.
CLI_FLAGS: Mapping[str, str] = {
    "port": "--port",
    "max_sessions": "--max-sessions",
    "max_episodes": "--max-episodes",
    "steps": "--steps",
    "allow_custom_js": "--allow-custom-js",
    "scratchworld": "--scratchworld",
}
WINDOW_SETTINGS: Mapping[str, str] = {
    "port": "the port",
    "max_sessions": "the most ScratchWorld sessions",
    "max_episodes": "the most episodes",
    "steps": "the step limit",
    "allow_custom_js": "custom_js",
    "scratchworld": "the ScratchWorld routes",
}


@dataclass(frozen=True)
class ServeOptions:
    """The settings of one served agent API (see the module doc for what each may be).

    `library` (None: the bundled tasks) holds the tasks episodes may name; `record_to` is the
    folder episodes and sessions are recorded in (None: not recorded); `scratchworld` is the
    checkout whose projects and task scripts the ScratchWorld routes serve (None: no such
    routes); `allow_custom_js` lets those sessions run agent JavaScript for that many seconds
    a call (0: the handler's own limit; None: not at all); `edition` is an edition's name
    (None: `serve_edition` decides)."""

    host: str = "127.0.0.1"
    port: int = 0
    token: str | None = None
    token_file: Path | None = None
    library: Path | None = None
    record_to: Path | None = None
    steps: int | None = None
    allow_remote: bool = False
    scratchworld: Path | None = None
    allow_custom_js: float | None = None
    max_sessions: int = MAX_SESSIONS
    max_episodes: int = MAX_EPISODES
    edition: str | None = None


def check_port(port: int, name: str = "--port") -> None:
    """Refuse a port outside 0-65535, naming the setting."""
    if not 0 <= port <= 65535:
        raise StudioError(f"{name}: must be a whole number from 0 to 65535, not {port}")


def check_options(options: ServeOptions, names: Mapping[str, str] = CLI_FLAGS) -> None:
    """Refuse options that cannot be served (see the module doc), naming the setting."""
    check_port(options.port, names["port"])
    check_host(options.host, options.allow_remote)
    for field in ("max_sessions", "max_episodes"):
        if getattr(options, field) < 1:
            raise StudioError(f"{names[field]} takes a number of 1 or more")
    if options.steps is not None and options.steps < 1:
        raise StudioError(f"{names['steps']} takes a number of 1 or more")
    if options.allow_custom_js is not None:
        if options.scratchworld is None:
            raise StudioError(
                f"{names['allow_custom_js']} is about ScratchWorld sessions: "
                f"give {names['scratchworld']}"
            )
        if not 0 <= options.allow_custom_js <= MAX_CUSTOM_JS_S:
            raise StudioError(
                f"{names['allow_custom_js']} SECONDS: at most {MAX_CUSTOM_JS_S:g} (0 or none: 20 s)"
            )
    if options.scratchworld is not None and not is_loopback(options.host):
        raise StudioError(
            f"{names['scratchworld']} serves routes without a token: listen on 127.0.0.1, "
            f"not {options.host}"
        )


def serve_edition(explicit: str | None, scratchworld: Path | None, library: Path) -> Edition:
    """The edition served: `explicit`, else classic for a ScratchWorld checkout (the
    published server's editor), else the library's."""
    if explicit:
        return Edition.parse(explicit, "--edition")
    if scratchworld is not None:
        return Edition.CLASSIC
    return editions.edition_for(library)


def recording_folder(out: Path) -> Path:
    """The folder a served API records in under `out`: `api-` and the UTC time."""
    return Path(out) / f"api-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S')}"

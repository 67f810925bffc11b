"""Serve the agent API, and when asked the ScratchWorld-compatible routes: one assembly.

`start_serving(options, manager=None, names=CLI_FLAGS)` is how both front ends serve:

1. the options pass `check_options` (a StudioError naming the setting as `names` calls it);
2. the token is the one given (`token_file`, `token`, STUDIO_TOKEN, STUDIO_TOKEN_FILE), else a
   new one (`Serving.generated` is then True, for the front end to show it);
3. episodes play in `manager` when one is given (the window's, lending its own editor: it is
   neither started nor closed here), else in a new `EpisodeManager` of its own on
   `serve_edition(...)`, which must be installed, recording to `options.record_to` with the
   step limit `options.steps`; its browser starts before the server answers, so the first
   request does not wait for it;
4. with `options.scratchworld`, the checkout's projects and tasks (`SwCheckout`, a
   StudioError naming the folder when it is no checkout) and the sessions over the same
   manager (`SwSessions`: at most `max_sessions`, custom_js as `allow_custom_js` says,
   recorded to `record_to`);
5. the server listens on host:port (`ApiServer`); an address that cannot be listened on is a
   StudioError "cannot listen on HOST:PORT: why", and whatever was started is closed again.

The `Serving` handle gives the URL (with the port bound, when 0 was asked) and `close()`,
which stops the server, closes the open ScratchWorld sessions, then the manager it made and
the checkout's imported tasks. Closing twice does nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from studio.app.serving.options import CLI_FLAGS, ServeOptions, check_options, serve_edition
from studio.models.errors import StudioError
from studio.services.api.app import EpisodeManagerLike
from studio.services.api.server import ApiServer, resolve_token
from studio.services.core import paths
from studio.services.episodes.episode import DEFAULT_STEP_LIMIT
from studio.services.episodes.manager import EpisodeManager
from studio.services.formats.scratchworld.server.checkout import SwCheckout
from studio.services.formats.scratchworld.server.routes import SwRoutes
from studio.services.formats.scratchworld.server.seal import CUSTOM_JS_TIMEOUT_S
from studio.services.formats.scratchworld.server.sessions import SwSessions
from studio.services.runtime import editions
from studio.services.runtime.editions import Edition

__all__ = ["Serving", "start_serving"]


@dataclass
class Serving:
    """A served agent API (see the module doc). `checkout` and `sessions` are None without
    the ScratchWorld routes."""

    server: ApiServer
    manager: EpisodeManagerLike
    token: str
    generated: bool
    library: Path
    options: ServeOptions
    checkout: SwCheckout | None = None
    sessions: SwSessions | None = None
    owned: EpisodeManager | None = None  # the manager made here (closed with the server)
    closed: bool = field(default=False, init=False)

    @property
    def edition(self) -> Edition | None:
        """The editor edition of the manager made here; None when the caller's serves."""
        return self.owned.edition if self.owned is not None else None

    @property
    def url(self) -> str:
        """http://HOST:PORT, the port the server listens on."""
        return self.server.url

    @property
    def sessions_url(self) -> str | None:
        """Where the ScratchWorld routes answer (no token), or None without them."""
        return f"{self.url}/sessions" if self.sessions is not None else None

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            await self.server.close()
            if self.sessions is not None:
                await self.sessions.close_all()
            if self.owned is not None:
                await self.owned.close()
        finally:
            if self.checkout is not None:
                self.checkout.close()


async def start_serving(
    options: ServeOptions,
    manager: EpisodeManagerLike | None = None,
    names: Mapping[str, str] = CLI_FLAGS,
) -> Serving:
    """Check `options`, assemble and start the API (see the module doc)."""
    check_options(options, names)
    token, generated = resolve_token(options.token, options.token_file)
    library = Path(options.library) if options.library else paths.BUNDLED_TASKS
    owned = None
    if manager is None:
        edition = serve_edition(options.edition, options.scratchworld, library)
        editions.require_installed(edition, "The served set")
        limit = options.steps or DEFAULT_STEP_LIMIT
        manager = owned = EpisodeManager(
            out_dir=options.record_to, edition=edition, step_limit=limit
        )
    checkout = SwCheckout(options.scratchworld, library=library) if options.scratchworld else None
    serving: Serving | None = None
    try:
        sessions = None
        if checkout is not None:
            sessions = SwSessions(
                manager,
                checkout,
                out_dir=options.record_to,
                max_sessions=options.max_sessions,
                allow_custom_js=options.allow_custom_js is not None,
                custom_js_timeout_s=options.allow_custom_js or CUSTOM_JS_TIMEOUT_S,
            )
        server = ApiServer(
            manager,
            token,
            host=options.host,
            port=options.port,
            library=library,
            open_routes=SwRoutes(sessions) if sessions is not None else None,
            max_episodes=options.max_episodes,
        )
        serving = Serving(
            server, manager, token, generated, library, options, checkout, sessions, owned
        )
        if owned is not None:
            await owned.start()  # the browser, before the first request needs it
        try:
            await server.start()
        except OSError as exc:
            why = exc.strerror or str(exc)
            raise StudioError(f"cannot listen on {options.host}:{options.port}: {why}") from None
    except BaseException:
        if serving is not None:
            with contextlib.suppress(Exception):
                await serving.close()
        elif checkout is not None:
            checkout.close()
        raise
    return serving

"""`studio serve`: the agent HTTP API (episodes over JSON), and with --scratchworld ROOT the
published ScratchWorld server's routes too.

Every call needs 'Authorization: Bearer TOKEN' (the token: --token-file, STUDIO_TOKEN or
--token, else a new one printed at start). The server listens on loopback unless
--allow-remote; it runs until SIGINT or SIGTERM and prints `stopped`. Exit codes: 0 stopped;
2 unusable input (bad flags, a host that is not loopback without --allow-remote, a port that
cannot be listened on, an edition that is not installed).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.app.editor import Edition, editions
from studio.app.files import paths
from studio.cli.common import EXIT_OK
from studio.cli.ranges import PORT, integer
from studio.models.errors import StudioError

DEFAULT_PORT = 8765


def register(subparsers: Any) -> None:
    """Add `serve` to the studio's sub-commands."""
    sv = subparsers.add_parser(
        "serve",
        help="serve the agent HTTP API (episodes over JSON)",
        description="Serve the agent API; every call needs 'Authorization: Bearer TOKEN'.",
    )
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (loopback)")
    sv.add_argument("--port", type=PORT, default=DEFAULT_PORT, help="port, 0-65535 (0: a free one)")
    sv.add_argument(
        "--token",
        help="bearer token (visible to other local users in `ps`: prefer --token-file or "
        "STUDIO_TOKEN; default: STUDIO_TOKEN, STUDIO_TOKEN_FILE, else a new one)",
    )
    sv.add_argument("--token-file", type=Path, help="read the bearer token from this file")
    sv.add_argument(
        "--library", dest="serve_library", type=Path, help="library for task ids (default: bundled)"
    )
    sv.add_argument("--out", type=Path, default=Path("runs"), help="where episodes are recorded")
    sv.add_argument("--no-record", action="store_true", help="record no trajectories")
    sv.add_argument("--steps", type=integer(1), help="default step limit of an episode (1 or more)")
    sv.add_argument(
        "--allow-remote", action="store_true", help="allow a host other machines can reach"
    )
    sv.add_argument(
        "--scratchworld",
        type=Path,
        metavar="ROOT",
        help="also serve the published ScratchWorld server's routes (/sessions/...), with "
        "projects and task scripts of the checkout ROOT (loopback only, no token); pages are "
        "then the classic editor edition's, as the published server's",
    )
    sv.add_argument(
        "--allow-custom-js",
        nargs="?",
        const=0.0,  # the handler's own limit
        type=float,
        metavar="SECONDS",
        help="let ScratchWorld sessions run custom_js (agent JavaScript in the page) for SECONDS "
        "a call (default 20; a page then stuck ends its session); sessions are marked 'unsealed'",
    )
    sv.add_argument(
        "--max-sessions",
        type=int,
        default=100,
        metavar="N",
        help="open ScratchWorld sessions at most (more: 429; default 100)",
    )
    sv.add_argument(
        "--max-episodes",
        type=int,
        default=16,
        metavar="N",
        help="open /episodes at most (more: 429; default 16)",
    )
    editions.add_argument(sv, "classic with --scratchworld, else the library's")
    sv.set_defaults(handler=serve)


def serve(args: argparse.Namespace) -> int:
    """`studio serve`: serve until stopped; the exit code (see the module doc)."""
    return asyncio.run(_serve(args))


async def _serve(args: argparse.Namespace) -> int:
    from studio.app.api import ApiServer, check_host, resolve_token
    from studio.app.episodes import EpisodeManager

    check_host(args.host, args.allow_remote)
    if args.max_sessions < 1 or args.max_episodes < 1:
        raise StudioError("--max-sessions and --max-episodes take a number of 1 or more")
    if args.allow_custom_js is not None and args.scratchworld is None:
        raise StudioError("--allow-custom-js is about ScratchWorld sessions: give --scratchworld")
    if not 0 <= (args.allow_custom_js or 0) <= 600:
        raise StudioError("--allow-custom-js SECONDS: at most 600 (0 or none: 20 s)")
    token, generated = resolve_token(args.token, args.token_file)
    library = args.serve_library or getattr(args, "library", None) or paths.BUNDLED_TASKS
    out = None if args.no_record else args.out / f"api-{_stamp()}"
    edition = serve_edition(args.edition, args.scratchworld, library)
    editions.require_installed(edition, "The served set")
    limit = {"step_limit": args.steps} if args.steps else {}
    manager = EpisodeManager(out_dir=out, edition=edition, **limit)
    checkout, routes = _scratchworld(args, manager, library, out)
    try:
        server = ApiServer(
            manager,
            token,
            host=args.host,
            port=args.port,
            library=library,
            open_routes=routes,
            max_episodes=args.max_episodes,
        )
    except StudioError:
        if checkout is not None:
            checkout.close()
        raise
    await manager.start()  # the browser, before the first request needs it
    try:
        await server.start()
    except OSError as exc:
        await manager.close()
        raise StudioError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    print(f"serving the agent API on {server.url} (OpenAPI: {server.url}/openapi.json)")
    if generated:
        print(f"token: {token}  (send 'Authorization: Bearer <token>'; set STUDIO_TOKEN to fix it)")
    print(f"tasks: ids or task folders in {library}; editor edition {edition.value}")
    if checkout is not None:
        print(
            f"ScratchWorld routes: {server.url}/sessions (no token), projects of "
            f"{checkout.static}, {checkout.task_count} task(s) by name"
        )
        if args.allow_custom_js is not None:
            print("custom_js allowed: every ScratchWorld session is marked unsealed")
    print(f"recording to {out}" if out else "not recording trajectories")
    sys.stdout.flush()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await server.close()
        if routes is not None:
            await routes.sessions.close_all()
        await manager.close()
        if checkout is not None:
            checkout.close()
    print("stopped")
    return EXIT_OK


def serve_edition(explicit: str | None, scratchworld: Path | None, library: Path) -> Edition:
    """The edition `serve` runs on: --edition, else classic for a ScratchWorld ROOT (the
    published server's editor), else the library's."""
    if explicit:
        return Edition.parse(explicit, "--edition")
    if scratchworld is not None:
        return Edition.CLASSIC
    return editions.edition_for(library)


def _scratchworld(
    args: argparse.Namespace, manager: Any, library: Path, out: Path | None
) -> tuple[Any, Any]:
    """The checkout and the session routes of `--scratchworld ROOT` (None, None without)."""
    if args.scratchworld is None:
        return None, None
    from studio.app.api import is_loopback
    from studio.app.exchange import CUSTOM_JS_TIMEOUT_S, SwCheckout, SwRoutes, SwSessions

    if not is_loopback(args.host):
        raise StudioError(
            f"--scratchworld serves routes without a token: listen on 127.0.0.1, not {args.host}"
        )
    checkout = SwCheckout(args.scratchworld, library=library)
    sessions = SwSessions(
        manager,
        checkout,
        out_dir=out,
        max_sessions=args.max_sessions,
        allow_custom_js=args.allow_custom_js is not None,
        custom_js_timeout_s=args.allow_custom_js or CUSTOM_JS_TIMEOUT_S,
    )
    return checkout, SwRoutes(sessions)


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S")

"""`studio serve`: the agent HTTP API (episodes over JSON), and with --scratchworld ROOT the
published ScratchWorld server's routes too.

Every call needs 'Authorization: Bearer TOKEN' (the token: --token-file, STUDIO_TOKEN or
--token, else a new one printed at start). The server listens on loopback unless
--allow-remote; it runs until SIGINT or SIGTERM and prints `stopped`. Exit codes: 0 stopped;
2 unusable input (bad flags, a host that is not loopback without --allow-remote, a port that
cannot be listened on, an edition that is not installed). The flags are checked, and the API
assembled, by `studio.app.serving` (as the window's served API is).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.cli.common import EXIT_OK
from studio.cli.ranges import PORT, integer
from studio.services.core import paths
from studio.services.runtime import editions

if TYPE_CHECKING:
    from studio.app.serving.options import ServeOptions

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


def options_of(args: argparse.Namespace) -> ServeOptions:
    """The flags as the served API's options (`studio.app.serving.options`, which checks
    them: imported here, as it loads the HTTP stack)."""
    from studio.app.serving.options import ServeOptions, recording_folder

    library = args.serve_library or getattr(args, "library", None) or paths.BUNDLED_TASKS
    return ServeOptions(
        host=args.host,
        port=args.port,
        token=args.token,
        token_file=args.token_file,
        library=library,
        record_to=None if args.no_record else recording_folder(args.out),
        steps=args.steps,
        allow_remote=args.allow_remote,
        scratchworld=args.scratchworld,
        allow_custom_js=args.allow_custom_js,
        max_sessions=args.max_sessions,
        max_episodes=args.max_episodes,
        edition=args.edition,
    )


async def _serve(args: argparse.Namespace) -> int:
    from studio.app.serving.agent_api import start_serving
    from studio.app.serving.until_stopped import serve_until_stopped

    served = await start_serving(options_of(args))
    url, out = served.url, served.options.record_to
    print(f"serving the agent API on {url} (OpenAPI: {url}/openapi.json)")
    if served.generated:
        print(
            f"token: {served.token}  (send 'Authorization: Bearer <token>'; "
            "set STUDIO_TOKEN to fix it)"
        )
    edition = served.edition.value if served.edition else "?"
    print(f"tasks: ids or task folders in {served.library}; editor edition {edition}")
    if served.checkout is not None:
        print(
            f"ScratchWorld routes: {served.sessions_url} (no token), projects of "
            f"{served.checkout.static}, {served.checkout.task_count} task(s) by name"
        )
        if args.allow_custom_js is not None:
            print("custom_js allowed: every ScratchWorld session is marked unsealed")
    print(f"recording to {out}" if out else "not recording trajectories")
    sys.stdout.flush()
    await serve_until_stopped(served.close)
    print("stopped")
    return EXIT_OK

"""`studio serve` (the agent HTTP API), `studio run` (batch runs) and `studio report` (SR/PSR).

`run` is parsed here and played by studio.cli_run.

Exit codes: 0 done; 1 some episodes crashed (`run`); 2 unusable input (no tasks, bad flags,
a host that is not loopback without --allow-remote, no runs to report on).
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

from studio.models.agent import Mode
from studio.services import editions, paths
from studio.services.editions import Edition
from studio.services.errors import StudioError

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
AGENTS = ("scripted", "idle", "random", "oracle", "llm")
DEFAULT_PORT = 8765
COMMANDS = ("serve", "run", "report")


def add_parsers(subparsers: Any) -> None:
    """Add `serve`, `run` and `report` to the studio's subcommands."""
    sv = subparsers.add_parser(
        "serve",
        help="serve the agent HTTP API (episodes over JSON)",
        description="Serve the agent API; every call needs 'Authorization: Bearer TOKEN'.",
    )
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (loopback)")
    sv.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (0: a free one)")
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
    sv.add_argument("--steps", type=int, help="default step limit of an episode")
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

    rn = subparsers.add_parser(
        "run",
        help="run an agent on tasks and record every episode (a resumable campaign)",
        description="Run AGENT on every task in TASKS; each episode is recorded under "
        "OUT/<agent>-<mode>-<timestamp>/<task id>/ (<task id>/epoch-<e>/ with --epochs), "
        "with a campaign.json manifest and a results.jsonl of finished episodes. "
        "--resume RUN_DIR plays only the episodes of that campaign that have no result.",
    )
    rn.add_argument("tasks", type=Path, nargs="*", metavar="TASKS", help="task folders/libraries")
    rn.add_argument("--agent", choices=AGENTS, help="which agent acts (required unless --resume)")
    rn.add_argument("--mode", choices=[m.value for m in Mode], help="default: composite")
    rn.add_argument(
        "--epochs", type=int, help="play each task K times (seed fixed per epoch; default 1)"
    )
    rn.add_argument(
        "--resume",
        type=Path,
        metavar="RUN_DIR",
        help="go on with the campaign in RUN_DIR (TASKS, when given, must be its tasks)",
    )
    rn.add_argument(
        "--retries",
        type=int,
        help="replays of an episode after a failure of the environment (browser crash, page "
        "or endpoint time-out, 5xx of the model's endpoint); default 2",
    )
    rn.add_argument("--workers", type=int, default=1, help="episodes side by side")
    rn.add_argument("--out", type=Path, default=Path("runs"), help="folder for the runs")
    rn.add_argument("--steps", type=int, help="step limit per episode")
    rn.add_argument("--seed", type=int, help="base seed (random agent; default 0)")
    rn.add_argument(
        "--realtime",
        action="store_true",
        default=None,
        help="evaluate on the real clock (default: accelerated unless a task needs real time)",
    )
    rn.add_argument(
        "--actions",
        type=Path,
        help="scripted agent: a JSON list of actions, or a folder with <task id>.json files "
        "or recorded runs (<task id>/steps.jsonl) to replay",
    )
    rn.add_argument(
        "--api", metavar="URL", help="act through a running `studio serve` at URL (same machine)"
    )
    rn.add_argument("--token", help="the server's token (default: STUDIO_TOKEN)")
    rn.add_argument("--token-file", type=Path, help="read the server's token from this file")
    rn.add_argument("--max-seconds", type=float, help="wall-time limit per episode")
    rn.add_argument("--max-tokens", type=int, help="token limit per episode (prompt+completion)")
    rn.add_argument("--max-cost", type=float, help="cost limit per episode (needs --prices)")
    rn.add_argument(
        "--prices",
        type=Path,
        metavar="FILE",
        help='price table, JSON or TOML: {"currency": "USD", "per_tokens": 1000000, '
        '"models": {"MODEL": {"prompt": P, "completion": C}}}',
    )
    rn.add_argument("--json", action="store_true", help="print the summary as JSON")
    rn.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play the episodes on a Ray cluster: `local` starts one here, else HOST:PORT of "
        "a running cluster (--workers is then per node); trajectories are written here",
    )

    rp = subparsers.add_parser(
        "report",
        help="SR and PSR per category, agent and mode over recorded runs",
        description="Read every run.json below RUNS_DIR and show the SR/PSR grid. SR and PSR "
        "are means over tasks (a task's episodes averaged first). Below each table: the 95% "
        "interval of SR (Wilson score interval over episodes) and of PSR (Student t interval "
        "over the tasks' mean PSR: a task's epochs form one cluster), pass@k (the unbiased "
        "estimator of Chen et al. 2021, 1 - C(n-c,k)/C(n,k), averaged over tasks) and pass^k "
        "(C(c,k)/C(n,k)) for k up to the fewest episodes of a task, environment failures, and "
        "tokens and cost. Drag and QA scores get Wilson intervals over their items.",
    )
    rp.add_argument("runs_dir", type=Path, metavar="RUNS_DIR")
    rp.add_argument("--html", type=Path, metavar="FILE", help="also write a self-contained page")
    rp.add_argument("--json", action="store_true", help="print the report as JSON")
    rp.add_argument(
        "--bundle",
        type=Path,
        metavar="DIR",
        help="also write a static site into DIR (open DIR/index.html from disk, no server): "
        "the tables, every episode's steps with the action drawn, filters, two runs compared",
    )


def run(args: argparse.Namespace) -> int:
    """Run `serve`, `run` or `report`; print errors as one line; return the exit code."""
    try:
        if args.command == "serve":
            return asyncio.run(_serve(args))
        if args.command == "run":
            from studio.cli_run import run_campaign

            return asyncio.run(run_campaign(args))
        return _report(args)
    except StudioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        run_dir = getattr(args, "campaign_dir", None)
        if run_dir is not None:
            print(
                f"\nstopped; the finished episodes are kept: `studio run --resume {run_dir}` "
                "plays the rest",
                file=sys.stderr,
            )
        return 130


# ---- serve ---------------------------------------------------------------------------------
async def _serve(args: argparse.Namespace) -> int:
    from studio.services.api import ApiServer, check_host, resolve_token
    from studio.services.env.episode import EpisodeManager

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
    checkout, sessions = _scratchworld(args, manager, library, out)
    try:
        server = ApiServer(
            manager,
            token,
            host=args.host,
            port=args.port,
            library=library,
            scratchworld=sessions,
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
        if sessions is not None:
            await sessions.close_all()
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
    """The checkout and the session keeper of `--scratchworld ROOT` (None, None without)."""
    if args.scratchworld is None:
        return None, None
    from studio.services.api import is_loopback
    from studio.services.api.scratchworld.checkout import SwCheckout
    from studio.services.api.scratchworld.seal import CUSTOM_JS_TIMEOUT_S
    from studio.services.api.scratchworld.sessions import SwSessions

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
    return checkout, sessions


# ---- report --------------------------------------------------------------------------------
def _report(args: argparse.Namespace) -> int:
    from studio.services.report_html import render_html
    from studio.services.reports import format_table, report_for

    report = report_for(args.runs_dir)
    if args.html:
        from studio.services import atomic

        atomic.write_text(args.html, render_html(report))
    bundle = None
    if getattr(args, "bundle", None):
        from studio.services.bundle import write_bundle

        bundle = write_bundle(args.runs_dir, args.bundle, report)
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        sys.stdout.write(format_table(report))
        if args.html:
            print(f"HTML report written to {args.html}")
        if bundle is not None:
            print(
                f"bundle written to {bundle.index} ({bundle.episodes} episodes, "
                f"{bundle.images} screenshots, {bundle.seconds:.1f} s)"
            )
    return EXIT_OK


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S")

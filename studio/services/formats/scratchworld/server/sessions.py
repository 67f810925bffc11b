"""ScratchWorld sessions: the published server's session calls, each session a studio episode.

A session (SCRATCHWORLD_API.md section 2) is an `Episode` of the studio's `EpisodeManager`
with a `SessionHandler`: it starts on the editor's default project in a page of its own at
1280x720 (854x480 or 1920x1080 when a recording is asked for in low or high quality, as the
published server sizes its page to the video); its actions are recorded as steps, so it shows
in the live viewer and, once evaluated, in `studio report`. It is recorded under the task it
names, else under the project it loads (a drag run), and under the mode its calls show.

Sessions are sealed (`seal`): one that names its task loads only the task's starts and
evaluates only that task; custom_js runs only on a server started with `allow_custom_js`.

Capacity: at `max_sessions` open sessions a new one is refused (429, `SwRefused`); no session
is ever closed to make room for another client's. A session idle for `ttl_s`
(SESSION_TTL_SECONDS, default 900) is dropped. Each call on a session resets its clock. Calls
on one session run one at a time.

Watchdog: a call whose page does not answer within `call_timeout_s` (a custom_js function
that loops forever) ends its session: the page is closed, the call and every later one on
the session answer that it ended (410), and DELETE still answers. Other sessions go on.

The published server's video recording is not made: DELETE answers `recording: null` (the
clients then save no video) and names the studio's trajectory folder instead.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError

from studio.models.agent import ActionError, Mode, Observation
from studio.models.errors import StudioError
from studio.services.core.store import TaskFolder
from studio.services.formats.scratchworld.server.checkout import SwCheckout
from studio.services.formats.scratchworld.server.handler import (
    OBSERVATIONS,
    PRIMITIVE_BODIES,
    SessionHandler,
    SwActionError,
)
from studio.services.formats.scratchworld.server.projects import ProjectCalls, SwCallError, brief
from studio.services.formats.scratchworld.server.replies import (
    envelope,
    failed_result,
    published_result,
    recorded_element,
)
from studio.services.formats.scratchworld.server.seal import (
    CUSTOM_JS_TIMEOUT_S,
    RESTORE_API,
    UNSEALED_KEY,
    UNSEALED_NOTE,
    Binding,
    SwRefused,
    bind,
)
from studio.services.formats.scratchworld.server.session import SwSession
from studio.services.runtime import page_scripts
from studio.services.runtime.clock_agreement import AgreementCache, clock_for
from studio.services.runtime.page_scripts import SCRATCHWORLD
from studio.services.runtime.page_seam import EditorPage
from studio.services.runtime.screenshots import shot_png

log = logging.getLogger(__name__)

MAX_SESSIONS = 100
CALL_TIMEOUT_S = 300.0  # a page call this long: the page may have stopped answering (probed)
PROBE_TIMEOUT_S = 5.0  # how long a page gets to answer `1` after a call timed out
CLOSE_TIMEOUT_S = 20.0  # closing a session's episode (final export, page close)
EVALUATE_LIMIT_S = 600.0  # an evaluation: the export, then the script (120 s at most) and more
DEFAULT_TTL_S = 900.0
MAX_SELECTORS = 64
# calls that show neither mode
PAGE_APIS = ("custom_js", RESTORE_API, "run_project", "stop_project", "select_category")
VIDEO_SIZES = {"low": (854, 480), "medium": (1280, 720), "high": (1920, 1080)}


class SessionNotFound(StudioError, LookupError):
    """No session with that id (never made, deleted or expired)."""


def parse_selectors(text: str) -> list[tuple[str, str]]:
    """`name::css,...` (a bare selector names itself) as (name, css) pairs."""
    specs = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, css = part.partition("::")
        specs.append((name.strip(), css.strip()) if sep else (part, part))
    if len(specs) > MAX_SELECTORS:
        raise SwCallError(f"at most {MAX_SELECTORS} selectors")
    return specs


class SwSessions(ProjectCalls):
    """The sessions of one server over an episode manager and a checkout."""

    def __init__(
        self,
        manager: Any,
        checkout: SwCheckout,
        out_dir: Path | None = None,
        agent_name: str = "scratchworld",
        max_sessions: int = MAX_SESSIONS,
        ttl_s: float | None = None,
        clock_cache: AgreementCache | None = None,
        allow_custom_js: bool = False,
        custom_js_timeout_s: float = CUSTOM_JS_TIMEOUT_S,
        call_timeout_s: float = CALL_TIMEOUT_S,
    ) -> None:
        self.manager = manager
        self.checkout = checkout
        self.out_dir = out_dir
        self.agent_name = agent_name
        self.max_sessions = max_sessions
        self.ttl_s = ttl_s if ttl_s is not None else _env_ttl()
        self.clock_cache = clock_cache or AgreementCache()
        self.allow_custom_js = allow_custom_js
        self.custom_js_timeout_s = custom_js_timeout_s
        self.call_timeout_s = call_timeout_s
        self._starting = 0  # sessions being opened (they count towards the cap)
        self._sessions: dict[str, SwSession] = {}
        self.on_closed: list[Callable[[SwSession], None]] = []

    # ---- lifecycle -----------------------------------------------------------------------
    async def create(
        self,
        record: bool = False,
        quality: str = "medium",
        task_name: str | None = None,
        agent: str | None = None,
    ) -> SwSession:
        await self.expire()
        if len(self._sessions) + self._starting >= self.max_sessions:
            raise SwRefused(
                f"{len(self._sessions)} sessions are open, the most this server keeps "
                f"(--max-sessions {self.max_sessions}); close one (DELETE /sessions/<id>) "
                "or wait until an idle one expires",
                429,
            )
        sid = uuid.uuid4().hex
        task = self.checkout.task(task_name) if task_name else None
        handler = SessionHandler(self.allow_custom_js, self.custom_js_timeout_s)
        folder = None
        if self.out_dir is not None:
            folder = self.out_dir / f"{(task.task.id if task else 'session')}-sw-{sid[:12]}"
        self._starting += 1
        try:
            episode = await self.manager.create(
                task or self.checkout.session_task(),
                Mode.PRIMITIVE,
                record_to=folder,
                agent_name=agent or self.agent_name,
                handler=handler,
                load_initial=False,
            )
        finally:
            self._starting -= 1
        if record and quality in VIDEO_SIZES and quality != "medium":
            width, height = VIDEO_SIZES[quality]
            await episode.page.set_viewport_size({"width": width, "height": height})
        session = SwSession(sid, episode, handler, time.time(), bool(record), quality, task_name)
        session.binding = Binding(task_name, task)
        if self.allow_custom_js:
            _mark_unsealed(episode)
        self._sessions[sid] = session
        return session

    def get(self, session_id: str) -> SwSession:
        session = self._sessions.get(session_id)
        if session is None or self._expired(session):
            raise SessionNotFound(f"Session not found: {session_id[:80]}")
        session.last_used = time.monotonic()
        return session

    def live(self, session_id: str) -> SwSession:
        """`get`, refusing a session the watchdog ended (410)."""
        session = self.get(session_id)
        if session.ended:
            raise SwRefused(f"session {session.id} has ended: {session.ended}", 410)
        return session

    def list(self) -> list[SwSession]:
        return [s for s in self._sessions.values() if not self._expired(s)]

    async def delete(self, session_id: str) -> dict[str, Any]:
        session = self._sessions.pop(session_id, None)
        if session is None:
            raise SessionNotFound(f"Session not found: {session_id[:80]}")
        folder = session.episode.trajectory_dir
        try:
            await asyncio.wait_for(self.manager.delete(session.episode.id), CLOSE_TIMEOUT_S)
        except KeyError:
            pass
        except TimeoutError:  # the page does not answer: close it without the final export
            log.warning("session %s: its page did not close in %g s", session.id, CLOSE_TIMEOUT_S)
            await _force_close(session.page)
        for hook in list(self.on_closed):
            hook(session)
        return {
            "status": "closed",
            "recording": None,
            "trajectory": str(folder) if folder else None,
        }

    async def close_all(self) -> int:
        ids = list(self._sessions)
        for sid in ids:
            with contextlib.suppress(SessionNotFound):
                await self.delete(sid)
        return len(ids)

    def _expired(self, session: SwSession) -> bool:
        return time.monotonic() - session.last_used > self.ttl_s

    async def expire(self) -> None:
        for session in [s for s in self._sessions.values() if self._expired(s)]:
            log.info("session %s expired after %.0f s idle", session.id, self.ttl_s)
            with contextlib.suppress(SessionNotFound):
                await self.delete(session.id)

    # ---- watchdog ------------------------------------------------------------------------
    async def watch(self, session: SwSession, work: Any, limit: float | None = None) -> Any:
        """`work` (a call on the session's page) within `limit` (default `call_timeout_s`); a
        page that then does not answer ends the session (SwRefused 410), a slow one is a
        SwCallError."""
        limit = limit or self.call_timeout_s
        try:
            return await asyncio.wait_for(work, limit)
        except TimeoutError:
            if await _answers(session.page):
                raise SwCallError(f"the call did not finish within {limit:g} s") from None
            reason = await self._end(session, "its page stopped answering")
            raise SwRefused(f"session {session.id}: {reason}", 410) from None

    async def _end(self, session: SwSession, why: str) -> str:
        """End a session whose page is stuck: close the page; later calls answer 410."""
        session.ended = f"{why}; the session has ended (its page was closed): DELETE it"
        log.warning("session %s: %s", session.id, session.ended)
        await _force_close(session.page)
        return session.ended

    # ---- actions -------------------------------------------------------------------------
    async def act(self, session: SwSession, api: str, args: dict[str, Any]) -> dict[str, Any]:
        """A primitive action or a composite call as a recorded step; the envelope."""
        t0 = time.perf_counter()
        async with session.lock:
            if api in PRIMITIVE_BODIES:
                self._show_mode(session, Mode.PRIMITIVE)
            elif api not in PAGE_APIS:
                self._show_mode(session, Mode.COMPOSITE)
            try:
                await session.episode.step({"api": api, "args": args})
            except SwActionError as exc:
                message = str(exc)
                if exc.page_stuck and not await _answers(session.page):
                    message += "; " + await self._end(session, "its page stopped answering")
                return envelope(session.id, api, args, None, None, (exc.code, message), t0)
            except ActionError as exc:
                return envelope(
                    session.id, api, args, None, None, ("ACTION_EXECUTION_ERROR", str(exc)), t0
                )
            except PlaywrightError as exc:  # the page died, the browser went away
                log.warning("session %s: %s failed: %s", session.id, api, brief(exc))
                return envelope(
                    session.id, api, args, None, None, ("RUNTIME_ERROR", brief(exc)), t0
                )
            except Exception as exc:  # a bug: logged with its traceback
                log.exception("session %s: %s failed", session.id, api)
                return envelope(
                    session.id, api, args, None, None, ("RUNTIME_ERROR", brief(exc)), t0
                )
            reply = session.handler.last_reply
            return envelope(session.id, api, args, reply.executed, reply.data, None, t0)

    async def composite(
        self, session: SwSession, api: str, args: dict[str, Any] | None
    ) -> dict[str, Any]:
        args = dict(args or {})
        if api not in OBSERVATIONS:
            return await self.act(session, api, args)
        t0 = time.perf_counter()
        async with session.lock:
            if api == "get_blocks_pseudocode":
                self._show_mode(session, Mode.COMPOSITE)
            try:
                data = await self._blocks(session, api)
            except (ActionError, StudioError) as exc:
                return envelope(session.id, api, args, None, None, ("RUNTIME_ERROR", str(exc)), t0)
            except PlaywrightError as exc:
                log.warning("session %s: %s failed: %s", session.id, api, brief(exc))
                return envelope(
                    session.id, api, args, None, None, ("JAVASCRIPT_ERROR", brief(exc)), t0
                )
            except Exception as exc:
                log.exception("session %s: %s failed", session.id, api)
                return envelope(
                    session.id, api, args, None, None, ("JAVASCRIPT_ERROR", brief(exc)), t0
                )
            return envelope(session.id, api, args, args, data, None, t0)

    async def _blocks(self, session: SwSession, api: str) -> dict[str, Any]:
        obs = await session.episode.observe()  # the composite view; block indexes renewed
        snapshot = session.handler.composite.last_snapshot
        page = session.page
        if api == "get_blocks_structure":
            structure = await page_scripts.call(page, SCRATCHWORLD, "structure")
            return {"pseudocode": obs.text or "", **structure}
        context = await page_scripts.call(
            page, SCRATCHWORLD, "pseudocodeExtras", [b.id for b in obs.blocks]
        )
        places = context["placements"]
        idx = {
            str(b.index): {
                "id": b.id,
                "opcode": b.opcode,
                "position": (places.get(b.id) or {}).get("position"),
                "boundingBox": (places.get(b.id) or {}).get("boundingBox"),
            }
            for b in obs.blocks
        }
        choices: dict[str, dict[str, list[str]]] = {}
        for b in obs.blocks:
            block = (snapshot.get("blocks") or {}).get(b.id) or {}
            named = {
                f["name"]: [str(c) for c in f["choices"]]
                for f in block.get("fields") or []
                if f.get("choices")
            }
            if named:
                choices[str(b.index)] = named
        return {
            "pseudocode": obs.text or "",
            "idxToBlock": idx,
            "targetName": obs.editing_target,
            "targetId": context.get("targetId"),
            "availableChoices": choices,
            "availableTargets": context.get("availableTargets", []),
            "valueToIdMappings": context.get("valueToIdMappings", {}),
            "targetVariables": snapshot.get("variables", []),
            "targetLists": snapshot.get("lists", []),
        }

    def _show_mode(self, session: SwSession, mode: Mode) -> None:
        if session.handler.mode is None:
            session.handler.mode = mode
            session.episode.relabel(mode=mode)

    # ---- observation ---------------------------------------------------------------------
    async def screenshot(self, session: SwSession, full_page: bool = True) -> dict[str, Any]:
        async with session.lock:
            png = await shot_png(session.page, full_page=full_page)
        return {"screenshot": base64.b64encode(png).decode("ascii"), "format": "base64"}

    async def elements_batch(self, session: SwSession, selectors: str) -> dict[str, Any]:
        t0 = time.perf_counter()
        specs = parse_selectors(selectors)
        async with session.lock:
            self._show_mode(session, Mode.PRIMITIVE)
            found = await page_scripts.call(
                session.page, SCRATCHWORLD, "elementsBatch", [list(s) for s in specs]
            )
            elements = found["elements"]
            session.episode.last_observation = Observation(
                mode=Mode.PRIMITIVE,
                step=session.episode.step_count,
                elements=[recorded_element(e) for e in elements],
            )
        return {
            "elements": elements,
            "total_selectors": len(specs),
            "elapsed_time": time.perf_counter() - t0,
        }

    async def html(self, session: SwSession) -> str:
        async with session.lock:
            content: str = await session.page.content()
        return content

    # ---- evaluation ----------------------------------------------------------------------
    async def evaluate(self, session: SwSession, task_name: str, method: str) -> dict[str, Any]:
        """The task's script on the session's program, by the task's usual clock (section 7)."""
        if method != "browser":
            raise SwCallError(f'evaluation_method {method[:40]!r} is not available; send "browser"')
        task = self.checkout.task(task_name)
        if task is None:
            raise SwCallError(f"no evaluation script for task {task_name[:120]!r}")
        bind(self.checkout, session.binding, task_name, task)
        async with session.lock:
            session.episode.relabel(task=task)
            clock = clock_for(task, False, self.clock_cache)
            try:
                result = await session.episode.evaluate(clock=clock, seed=0, task=task)
            except ActionError as exc:
                return failed_result(str(exc), [])
        return published_result(result)


def _mark_unsealed(episode: Any) -> None:
    """Note in the session's run.json that custom_js was allowed (the report shows it)."""
    recorder = getattr(episode, "recorder", None)
    if recorder is not None:
        recorder.run.meta[UNSEALED_KEY] = UNSEALED_NOTE


async def _answers(page: EditorPage | None) -> bool:
    """Whether the page still runs scripts (answers `1` within PROBE_TIMEOUT_S)."""
    if page is None:
        return False
    try:
        return bool(await asyncio.wait_for(page_scripts.ping(page), PROBE_TIMEOUT_S))
    except Exception:
        return False


async def _force_close(page: EditorPage | None) -> None:
    if page is None:
        return
    with contextlib.suppress(Exception):
        await asyncio.wait_for(page.close(run_before_unload=False), CLOSE_TIMEOUT_S)


def _env_ttl() -> float:
    try:
        return float(os.environ.get("SESSION_TTL_SECONDS", DEFAULT_TTL_S))
    except ValueError:
        return DEFAULT_TTL_S


__all__ = [
    "CALL_TIMEOUT_S", "CLOSE_TIMEOUT_S", "DEFAULT_TTL_S", "EVALUATE_LIMIT_S", "MAX_SELECTORS",
    "MAX_SESSIONS", "PAGE_APIS", "PROBE_TIMEOUT_S", "VIDEO_SIZES", "SessionNotFound", "SwCallError",
    "SwRefused", "SwSessions", "TaskFolder", "envelope", "parse_selectors",
    "published_result",
]  # fmt: skip

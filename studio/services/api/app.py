"""Routes of the agent HTTP API: episodes created, observed, stepped, evaluated and deleted.

Every route needs `Authorization: Bearer <token>`. Bad input gets a 4xx with a JSON
`{"error": "...what to fix..."}` and leaves the episode usable: 400 unreadable body, 401 no or
wrong token, 404 unknown route, episode or task, 405 wrong method, 409 the episode has ended,
422 a well-formed request the episode cannot do (unknown api, bad args, missing index, stale
index, point outside the viewport). A 500 means a bug and is logged with its traceback.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from studio.models.agent import ActionError, EpisodeStatus, Mode
from studio.models.evaluation import Clock
from studio.services.api.http import HttpError, Request, Response
from studio.services.api.openapi import openapi_document
from studio.services.clock_agreement import AgreementCache, clock_for
from studio.services.errors import StudioError
from studio.services.store import TaskFolder, is_task_folder, load_task, scan_library

log = logging.getLogger(__name__)

_EPISODE_ROUTE = re.compile(r"^/episodes/([^/]+)(/observation|/actions|/evaluate)?/?$")
_ENDED_OK = {EpisodeStatus.RUNNING}
MAX_STEP_LIMIT = 10_000


class EpisodeLike(Protocol):
    """What the API needs of an episode (studio.services.env.episode.Episode)."""

    id: str
    task: TaskFolder
    mode: Mode
    status: EpisodeStatus
    step_count: int

    async def observe(self) -> Any: ...
    async def step(self, raw_action: dict[str, Any], reasoning: str = "") -> Any: ...
    async def evaluate(self, clock: Clock = Clock.REAL, seed: int = 0) -> Any: ...


class EpisodeManagerLike(Protocol):
    """What the API needs of the episode manager (studio.services.env.episode.EpisodeManager)."""

    async def create(
        self,
        task: TaskFolder,
        mode: Mode,
        record_to: Path | None = None,
        agent_name: str = "unknown",
        step_limit: int | None = None,
    ) -> Any: ...
    def get(self, episode_id: str) -> Any: ...
    def list(self) -> Any: ...
    async def delete(self, episode_id: str) -> Any: ...


class TaskResolver:
    """Find a task by folder path or by id in a library (rescanned when an id is not found)."""

    def __init__(self, library: Path | None) -> None:
        self.library = library
        self._by_id: dict[str, TaskFolder] = {}

    def resolve(self, name: str) -> TaskFolder:
        path = Path(name).expanduser()
        if is_task_folder(path):
            return load_task(path)
        if name not in self._by_id:
            self._rescan()
        if name in self._by_id:
            return self._by_id[name]
        where = f" nor a task id in the library {self.library}" if self.library else ""
        raise HttpError(
            404,
            f"task {name!r} is neither a task folder (with task.json){where}; "
            "give a task folder path or the id of a library task",
        )

    def _rescan(self) -> None:
        if self.library is None or not self.library.exists():
            return
        self._by_id = {t.task.id: t for t in scan_library(self.library).tasks}


class ApiApp:
    """Answer API requests with an episode manager; check the bearer token first."""

    def __init__(
        self, manager: EpisodeManagerLike, token: str, library: Path | None = None
    ) -> None:
        self.manager = manager
        self.token = token
        self.tasks = TaskResolver(library)
        self.clock_cache = AgreementCache()
        self._locks: dict[str, asyncio.Lock] = {}

    async def __call__(self, request: Request) -> Response:
        self._check_token(request)
        if request.path == "/openapi.json":
            _allow(request, "GET")
            return Response.json(openapi_document())
        if request.path.rstrip("/") == "/episodes":
            return await self._episodes(request)
        match = _EPISODE_ROUTE.match(request.path)
        if match is None:
            raise HttpError(404, f"no route {request.path}; see GET /openapi.json for the routes")
        episode_id, sub = match.group(1), match.group(2) or ""
        handler = self._sub_routes(request, sub)
        episode = self._episode(episode_id)
        async with self._locks.setdefault(episode_id, asyncio.Lock()):
            return await handler(episode, request)

    # ---- auth and routing -----------------------------------------------------------------
    def _check_token(self, request: Request) -> None:
        header = request.headers.get("authorization", "")
        scheme, _, given = header.partition(" ")
        challenge = {"WWW-Authenticate": 'Bearer realm="studio"'}
        if scheme.lower() != "bearer" or not given.strip():
            raise HttpError(
                401,
                "missing token: send the header 'Authorization: Bearer <token>' with the token "
                "`studio serve` printed (or STUDIO_TOKEN)",
                challenge,
            )
        if not hmac.compare_digest(given.strip().encode(), self.token.encode()):
            raise HttpError(401, "wrong token: use the one `studio serve` printed", challenge)

    def _sub_routes(
        self, request: Request, sub: str
    ) -> Callable[[EpisodeLike, Request], Awaitable[Response]]:
        routes: dict[str, dict[str, Callable[[EpisodeLike, Request], Awaitable[Response]]]] = {
            "": {"GET": self._summary_route, "DELETE": self._delete},
            "/observation": {"GET": self._observe},
            "/actions": {"POST": self._act},
            "/evaluate": {"POST": self._evaluate},
        }
        by_method = routes[sub]
        _allow(request, *by_method)
        return by_method[request.method if request.method != "HEAD" else "GET"]

    def _episode(self, episode_id: str) -> EpisodeLike:
        episode: EpisodeLike | None
        try:
            episode = self.manager.get(episode_id)
        except LookupError:
            episode = None
        if episode is None:
            raise HttpError(
                404,
                f"no episode {episode_id!r}; GET /episodes lists them, POST /episodes starts one",
            )
        return episode

    # ---- /episodes --------------------------------------------------------------------------
    async def _episodes(self, request: Request) -> Response:
        _allow(request, "GET", "POST")
        if request.method == "POST":
            return await self._create(request)
        return Response.json({"episodes": [summary(e) for e in self.manager.list()]})

    async def _create(self, request: Request) -> Response:
        body = _object(request, required={"task"}, optional={"mode", "agent", "step_limit"})
        name, mode_name = body["task"], body.get("mode", Mode.COMPOSITE.value)
        agent, limit = body.get("agent", "api"), body.get("step_limit")
        if not isinstance(name, str) or not name.strip():
            raise HttpError(422, "'task' must be a task folder path or a task id (a string)")
        if mode_name not in {m.value for m in Mode}:
            raise HttpError(422, f"'mode' must be 'composite' or 'primitive', not {mode_name!r}")
        if not isinstance(agent, str) or not agent.strip():
            raise HttpError(422, "'agent' must be a non-empty string (recorded in run.json)")
        if limit is not None and (type(limit) is not int or not 1 <= limit <= MAX_STEP_LIMIT):
            raise HttpError(422, f"'step_limit' must be an integer from 1 to {MAX_STEP_LIMIT}")
        try:
            task = self.tasks.resolve(name.strip())
        except StudioError as exc:
            raise HttpError(422, f"task {name!r} cannot be loaded: {exc}") from None
        mode = Mode(mode_name)
        try:
            episode = await self.manager.create(
                task, mode, record_to=None, agent_name=agent.strip(), step_limit=limit
            )
        except StudioError as exc:  # e.g. the editor refused the task's initial project
            raise HttpError(422, f"cannot start an episode on {task.task.id}: {exc}") from None
        log.info("episode %s started: %s in %s mode", episode.id, task.task.id, mode.value)
        return Response.json(summary(episode), 201, {"Location": f"/episodes/{episode.id}"})

    # ---- /episodes/{id}/... -------------------------------------------------------------------
    async def _summary_route(self, episode: EpisodeLike, request: Request) -> Response:
        return Response.json(summary(episode))

    async def _delete(self, episode: EpisodeLike, request: Request) -> Response:
        await self.manager.delete(episode.id)
        self._locks.pop(episode.id, None)
        return Response.json({"id": episode.id, "deleted": True})

    async def _observe(self, episode: EpisodeLike, request: Request) -> Response:
        if episode.status is EpisodeStatus.CLOSED:
            raise HttpError(409, f"episode {episode.id} is closed; start a new one")
        try:
            observation = await episode.observe()
        except ActionError as exc:
            raise HttpError(409, f"{exc}; start a new episode") from None
        data = observation.model_dump(mode="json")
        data["status"] = _status(episode)
        return Response.json(data)

    async def _act(self, episode: EpisodeLike, request: Request) -> Response:
        body = _object(request, required={"api"}, optional={"args", "reasoning"})
        if not isinstance(body["api"], str):
            raise HttpError(422, "'api' must be a string naming the action, e.g. \"done\"")
        args = body.get("args", {})
        if args is not None and not isinstance(args, dict):
            raise HttpError(422, "'args' must be a JSON object of the action's arguments")
        reasoning = body.get("reasoning", "")
        if not isinstance(reasoning, str):
            raise HttpError(422, "'reasoning' must be a string")
        if episode.status not in _ENDED_OK:
            raise HttpError(
                409,
                f"episode {episode.id} has ended ({_status(episode)}) and takes no more actions; "
                "evaluate it, delete it, or start a new episode",
            )
        try:
            record = await episode.step({"api": body["api"], "args": args or {}}, reasoning)
        except ActionError as exc:
            raise HttpError(422, f"action refused: {exc}") from None
        return Response.json(record.model_dump(mode="json"))

    async def _evaluate(self, episode: EpisodeLike, request: Request) -> Response:
        if episode.status is EpisodeStatus.CLOSED:
            raise HttpError(409, f"episode {episode.id} is closed; start a new one")
        clock, seed = self._eval_options(episode, request)
        try:
            result = await episode.evaluate(clock=clock, seed=seed)
        except ActionError as exc:
            raise HttpError(409, f"{exc}; start a new episode") from None
        return Response.json(result.model_dump(mode="json"))

    def _eval_options(self, episode: EpisodeLike, request: Request) -> tuple[Clock, int]:
        """Clock and seed from an optional body; by default the task's own clock."""
        body = _object(request, set(), {"clock", "seed"}) if request.body.strip() else {}
        name, seed = body.get("clock", "task"), body.get("seed", 0)
        if name not in ("task", "real", "virtual"):
            raise HttpError(422, f"'clock' must be 'task', 'real' or 'virtual', not {name!r}")
        if type(seed) is not int:
            raise HttpError(422, "'seed' must be an integer")
        if name == "task":
            return clock_for(episode.task, False, self.clock_cache), seed
        return Clock(name), seed


def summary(episode: EpisodeLike) -> dict[str, Any]:
    """The short description of an episode that GET /episodes lists."""
    return {
        "id": episode.id,
        "task": episode.task.task.id,
        "mode": Mode(episode.mode).value,
        "status": _status(episode),
        "steps": episode.step_count,
    }


def _status(episode: EpisodeLike) -> str:
    return EpisodeStatus(episode.status).value


def _allow(request: Request, *methods: str) -> None:
    if request.method in methods or (request.method == "HEAD" and "GET" in methods):
        return
    allowed = ", ".join(methods)
    raise HttpError(
        405, f"{request.method} is not allowed on {request.path}; use {allowed}", {"Allow": allowed}
    )


def _object(request: Request, required: set[str], optional: set[str]) -> dict[str, Any]:
    body = request.json()
    if not isinstance(body, dict):
        raise HttpError(422, f"the body must be a JSON object, not {type(body).__name__}")
    missing = sorted(required - body.keys())
    if missing:
        raise HttpError(422, "missing field(s): " + ", ".join(repr(m) for m in missing))
    unknown = sorted(body.keys() - required - optional)
    if unknown:
        known = ", ".join(sorted(required | optional))
        raise HttpError(422, f"unknown field(s) {', '.join(map(repr, unknown))}; known: {known}")
    return body

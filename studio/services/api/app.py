"""Routes of the agent HTTP API: episodes created, observed, stepped, evaluated and deleted.

A FastAPI application (`ApiApp.asgi`) behind `guard.Guard` (Host, Origin, bearer token and
body limits, before a route runs). Bodies are the pydantic models of `schemas`; the OpenAPI
document at GET /openapi.json is generated from them and the routes.

Bad input gets a 4xx with a JSON `{"error": "...what to fix..."}` and leaves the episode
usable: 400 unreadable or empty body, 401 no or wrong token, 404 unknown route, episode or
task, 405 wrong method, 409 the episode has ended, 413 body too large, 422 a well-formed
request the episode cannot do (unknown field, unknown api, bad args, missing index, stale
index, point outside the viewport), 409 also a mid-episode evaluation beyond the
episode's feedback budget (`feedback_turns`, 0 by default: episodes.feedback), 429
`max_episodes` episodes are open (none is closed to make room). An episode whose editor
page was lost (it crashed or stopped answering: never the agent's doing) answers 503 with
the reason, on that call and every later one but DELETE. A 500 means a bug and is logged
with its traceback.

Tasks are resolved only in the library the server was started with (`TaskResolver`).
"""

from __future__ import annotations

import asyncio
import base64
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.security import HTTPBearer
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from studio.models.agent import ActionError, EpisodeStatus, Mode, StepRecord
from studio.models.errors import StudioError
from studio.models.evaluation import Clock, EvalResult
from studio.services.api import schemas
from studio.services.api.answers import http_error, invalid_request
from studio.services.api.guard import Guard, short
from studio.services.api.open_routes import OpenRoutes
from studio.services.core.paths import SetupError
from studio.services.core.store import TaskFolder, is_task_folder, load_task, scan_library
from studio.services.episodes.feedback import FeedbackRefused, FeedbackTurns
from studio.services.runtime.clock_agreement import AgreementCache, clock_for
from studio.services.runtime.http_timing import server_timing
from studio.services.runtime.page_guard import PageLost

__all__ = [
    "INTERNAL", "MAX_EPISODES", "MAX_STEP_LIMIT", "ApiApp", "EpisodeLike", "EpisodeManagerLike",
    "Route", "TaskResolver", "summary",
]  # fmt: skip

log = logging.getLogger(__name__)
MAX_EPISODES = 16  # each holds an editor page (~450 MB)

_ENDED_OK = {EpisodeStatus.RUNNING}
MAX_STEP_LIMIT = schemas.MAX_STEP_LIMIT
INTERNAL = "internal error (a bug in the studio; see its log)"


class EpisodeLike(Protocol):
    """What the API needs of an episode (studio.services.episodes.episode.Episode)."""

    id: str
    task: TaskFolder
    mode: Mode
    status: EpisodeStatus
    step_count: int

    async def observe(self) -> Any: ...
    async def step(self, raw_action: dict[str, Any], reasoning: str = "") -> Any: ...
    async def evaluate(self, clock: Clock = Clock.REAL, seed: int = 0) -> Any: ...
    async def request_feedback(self, clock: Clock = Clock.REAL, seed: int = 0) -> Any: ...
    async def program_sb3(self) -> bytes: ...
    async def close(self) -> Any: ...

    @property
    def feedback_turns(self) -> FeedbackTurns: ...


class EpisodeManagerLike(Protocol):
    """What the API needs of the episode manager (episodes.manager.EpisodeManager)."""

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


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> HTTPException:
    return HTTPException(status, message, headers)


class TaskResolver:
    """Find a task by id in the server's library (rescanned when an id is not found), or by
    the path of a task folder inside that library; never a folder elsewhere on disk, whose
    script a client could have written."""

    def __init__(self, library: Path | None) -> None:
        self.library = library
        self._by_id: dict[str, TaskFolder] = {}

    def resolve(self, name: str) -> TaskFolder:
        if name not in self._by_id:
            self._rescan()
        if name in self._by_id:
            return self._by_id[name]
        folder = self._inside(name)
        if folder is not None:
            return load_task(folder)
        where = f"the library {self.library}" if self.library else "no library"
        raise _error(
            404,
            f"task {short(name, 120)!r} is neither the id nor the folder of a task in {where}; "
            "tasks are resolved only in the library the server was started with",
        )

    def _inside(self, name: str) -> Path | None:
        """The task folder `name` names when it lies inside the library, else None."""
        if self.library is None or "\0" in name:
            return None
        try:
            path = Path(name).expanduser().resolve()
            root = self.library.expanduser().resolve()
            inside = path != root and path.is_relative_to(root)
            return path if inside and is_task_folder(path) else None
        except (OSError, RuntimeError, ValueError):  # too long, a loop of links
            return None

    def _rescan(self) -> None:
        if self.library is None or not self.library.exists():
            return
        self._by_id = {t.task.id: t for t in scan_library(self.library).tasks}


class _Route(APIRoute):
    """A route whose unexpected exceptions become a logged 500 (the connection stays up)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            try:
                return await handler(request)
            except (HTTPException, StarletteHTTPException, RequestValidationError):
                raise
            except Exception:
                log.exception("internal error answering %s %s", request.method, request.url.path)
                return JSONResponse({"error": INTERNAL}, 500)

        return guarded


_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": schemas.ErrorBody, "description": text}
    for code, text in (
        (401, "Missing or wrong bearer token"),
        (404, "Unknown episode, task or route"),
        (409, "The episode has ended or is closed"),
        (422, "A well-formed request that cannot be done; the message says what to fix"),
        (429, "As many episodes are open as the server keeps; delete one first"),
        (503, "The episode's editor page was lost: an environment failure, not the agent's"),
    )
}


@dataclass(frozen=True)
class Route:
    """One route of the API: `handler` answers `method` `path` with `status` and a body of
    `model`; `codes` are the error statuses it documents (`_ERRORS`)."""

    path: str
    method: str
    handler: Callable[..., Awaitable[JSONResponse]]
    status: int
    model: type[BaseModel]
    codes: tuple[int, ...]
    summary: str


class ApiApp:
    """The API's routes over an episode manager; `asgi` is what the HTTP server runs."""

    def __init__(
        self,
        manager: EpisodeManagerLike,
        token: str,
        library: Path | None = None,
        listen_host: str = "127.0.0.1",
        open_routes: OpenRoutes | None = None,
        max_episodes: int = MAX_EPISODES,
    ) -> None:
        """`open_routes` adds a format's routes, served without token (the ScratchWorld
        server's session routes: `formats.scratchworld.server.routes.SwRoutes`)."""
        self.manager = manager
        self.max_episodes = max_episodes
        self._own: set[str] = set()  # episodes started through /episodes
        self._starting = 0  # episodes being started (they count towards the cap)
        self.tasks = TaskResolver(library)
        self.clock_cache = AgreementCache()
        self._locks: dict[str, asyncio.Lock] = {}
        self.open_routes = open_routes
        self.fastapi = self._build()
        open_path = None
        if open_routes is not None:
            open_routes.install(self.fastapi)
            open_path = open_routes.is_open_path
            self.fastapi.state.open_path = open_path
        self.asgi = Guard(self.fastapi, token, listen_host, open_path=open_path)

    def _build(self) -> FastAPI:
        api = FastAPI(
            title="Scratch Bench Studio agent API",
            version="2",
            description=(
                "Drive episodes of Scratch benchmark tasks in the real editor: composite mode "
                "(structured text, block APIs) or primitive mode (screenshot, mouse and keys). "
                "Every route needs `Authorization: Bearer <token>`."
            ),
            docs_url=None,
            redoc_url=None,
            responses={401: _ERRORS[401]},
        )
        api.router.route_class = _Route
        bearer = HTTPBearer(auto_error=False)  # the Guard checks it; this documents it
        api.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]
        api.add_exception_handler(RequestValidationError, invalid_request)  # type: ignore[arg-type]
        for route in self._episode_routes():
            api.add_api_route(
                route.path,
                route.handler,
                methods=[route.method],
                status_code=route.status,
                response_model=route.model,
                responses={c: _ERRORS[c] for c in route.codes},
                summary=route.summary,
                dependencies=[Depends(bearer)],
            )
        return api

    def _episode_routes(self) -> list[Route]:
        return [
            Route(
                "/episodes",
                "GET",
                self.list_episodes,
                200,
                schemas.EpisodeList,
                (),
                "List the episodes",
            ),
            Route(
                "/episodes",
                "POST",
                self.create,
                201,
                schemas.EpisodeSummary,
                (404, 422, 429),
                "Start an episode on a task",
            ),
            Route(
                "/episodes/{episode_id}",
                "GET",
                self.summary,
                200,
                schemas.EpisodeSummary,
                (404,),
                "One episode's summary",
            ),
            Route(
                "/episodes/{episode_id}",
                "DELETE",
                self.delete,
                200,
                schemas.Deleted,
                (404,),
                "Close the episode and forget it",
            ),
            Route(
                "/episodes/{episode_id}/observation",
                "GET",
                self.observe,
                200,
                schemas.ObservationResponse,
                (404, 409, 503),
                "What the agent sees now (primitive: 1280x720 PNG and elements; composite: text)",
            ),
            Route(
                "/episodes/{episode_id}/actions",
                "POST",
                self.act,
                200,
                StepRecord,
                (404, 409, 422, 503),
                "Perform one action",
            ),
            Route(
                "/episodes/{episode_id}/program",
                "GET",
                self.program,
                200,
                schemas.ProgramResponse,
                (404, 409, 503),
                "The current program as a base64 .sb3 (until the episode is deleted)",
            ),
            Route(
                "/episodes/{episode_id}/evaluate",
                "POST",
                self.evaluate,
                200,
                EvalResult,
                (404, 409, 422, 503),
                "Run the task's evaluation script on the current program",
            ),
        ]

    # ---- /episodes ----------------------------------------------------------------------------
    async def list_episodes(self) -> JSONResponse:
        return JSONResponse({"episodes": [summary(e) for e in self.manager.list()]})

    async def create(self, body: schemas.EpisodeRequest) -> JSONResponse:
        open_now = {e.id for e in self.manager.list()} & self._own
        self._own = open_now
        if len(open_now) + self._starting >= self.max_episodes:
            raise _error(
                429,
                f"{len(open_now)} episodes are open, the most this server keeps "
                f"(--max-episodes {self.max_episodes}); DELETE /episodes/<id> one first",
            )
        try:
            task = self.tasks.resolve(body.task)
        except StudioError as exc:
            raise _error(422, f"task {short(body.task, 120)!r} cannot be loaded: {exc}") from None
        self._starting += 1
        try:
            episode = await self.manager.create(
                task, body.mode, record_to=None, agent_name=body.agent, step_limit=body.step_limit
            )
        except SetupError:  # the server's set-up, not the request: a 500 as before
            raise
        except StudioError as exc:  # e.g. the editor refused the task's initial project
            raise _error(422, f"cannot start an episode on {task.task.id}: {exc}") from None
        finally:
            self._starting -= 1
        episode.feedback_turns.budget = body.feedback_turns
        self._own.add(episode.id)
        log.info("episode %s started: %s in %s mode", episode.id, task.task.id, body.mode.value)
        return JSONResponse(summary(episode), 201, {"Location": f"/episodes/{episode.id}"})

    # ---- /episodes/{id}/... -----------------------------------------------------------------
    def _episode(self, episode_id: str) -> EpisodeLike:
        episode: EpisodeLike | None
        try:
            episode = self.manager.get(episode_id)
        except LookupError:
            episode = None
        if episode is None:
            raise _error(
                404,
                f"no episode {short(episode_id, 80)!r}; GET /episodes lists them, "
                "POST /episodes starts one",
            )
        return episode

    def _lock(self, episode_id: str) -> asyncio.Lock:
        return self._locks.setdefault(episode_id, asyncio.Lock())

    async def summary(self, episode_id: str) -> JSONResponse:
        episode = self._episode(episode_id)
        async with self._lock(episode_id):
            return JSONResponse(summary(episode))

    async def delete(self, episode_id: str) -> JSONResponse:
        episode = self._episode(episode_id)
        async with self._lock(episode_id):
            await self.manager.delete(episode.id)
        self._locks.pop(episode.id, None)
        return JSONResponse({"id": episode.id, "deleted": True})

    async def observe(self, episode_id: str) -> JSONResponse:
        episode = self._episode(episode_id)
        async with self._lock(episode_id):
            if episode.status is EpisodeStatus.CLOSED:
                raise _error(409, f"episode {episode.id} is closed; start a new one")
            t0 = time.perf_counter()
            try:
                observation = await episode.observe()
            except ActionError as exc:
                raise _error(409, f"{exc}; start a new episode") from None
            except PageLost as exc:
                raise _lost(exc) from None
            work_s = time.perf_counter() - t0
        data = observation.model_dump(mode="json")
        data["status"] = _status(episode)
        return JSONResponse(data, headers=server_timing(work_s))

    async def act(self, episode_id: str, body: schemas.ActionRequest) -> JSONResponse:
        episode = self._episode(episode_id)
        async with self._lock(episode_id):
            if episode.status not in _ENDED_OK:
                raise _error(
                    409,
                    f"episode {episode.id} has ended ({_status(episode)}) and takes no more "
                    "actions; evaluate it, delete it, or start a new episode",
                )
            try:
                record = await episode.step(
                    {"api": body.api, "args": body.args or {}}, body.reasoning
                )
            except ActionError as exc:
                raise _error(422, f"action refused: {exc}") from None
            except PageLost as exc:
                raise _lost(exc) from None
        return JSONResponse(record.model_dump(mode="json"))

    async def program(self, episode_id: str) -> JSONResponse:
        episode = self._episode(episode_id)
        async with self._lock(episode_id):
            try:
                sb3 = await episode.program_sb3()
            except ActionError as exc:
                raise _error(409, f"{exc}; start a new episode") from None
            except PageLost as exc:
                raise _lost(exc) from None
        encoded = base64.b64encode(sb3).decode("ascii")
        return JSONResponse({"id": episode.id, "sb3_base64": encoded})

    async def evaluate(
        self, episode_id: str, body: schemas.EvaluateRequest | None = None
    ) -> JSONResponse:
        episode = self._episode(episode_id)
        options = body or schemas.EvaluateRequest()
        async with self._lock(episode_id):
            if episode.status is EpisodeStatus.CLOSED:
                raise _error(409, f"episode {episode.id} is closed; start a new one")
            if options.clock == "task":
                clock = clock_for(episode.task, False, self.clock_cache)
            else:
                clock = Clock(options.clock)
            running = episode.status is EpisodeStatus.RUNNING
            try:
                if running and not options.final:  # a feedback turn, or refused
                    result, _turn = await episode.request_feedback(clock=clock, seed=options.seed)
                else:
                    result = await episode.evaluate(clock=clock, seed=options.seed)
                    if running:  # final: the result as it stands, and no more actions
                        await episode.close()
            except FeedbackRefused as exc:
                raise _error(409, str(exc)) from None
            except ActionError as exc:
                raise _error(409, f"{exc}; start a new episode") from None
            except PageLost as exc:
                raise _lost(exc) from None
        return JSONResponse(result.model_dump(mode="json"))


def _lost(exc: PageLost) -> HTTPException:
    return _error(
        503,
        f"environment failure, not the agent's: {exc}; DELETE this episode and start a new one",
    )


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

"""The ScratchWorld-compatible routes (SCRATCHWORLD_API.md), added to the agent API's FastAPI app.

Paths, parameters (query or body, as published), status codes and bodies follow the contract,
so the published task runner, agent client and drag runner run against the studio with only
their API URL changed. These routes need no token (the published clients send none): the
server serves them on loopback only, and the Guard still checks Host and Origin, so a web page
cannot reach them. Errors the published server raises as HTTP exceptions are plain text: an
unknown or expired session is a 404 `'Session not found: <id>'`, a call that cannot be done a
500 naming why. A body that does not validate is a 422. What a sealed session may not do
(`seal`) is a 403, a session beyond the cap a 429, a call on a session the watchdog ended a
410: each with a plain-text reason.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from studio.models.errors import StudioError
from studio.services.formats.scratchworld.server import schemas
from studio.services.formats.scratchworld.server.session import SwSession
from studio.services.formats.scratchworld.server.sessions import (
    EVALUATE_LIMIT_S,
    SessionNotFound,
    SwCallError,
    SwRefused,
    SwSessions,
)
from studio.services.runtime.http_timing import server_timing

__all__ = ["DEFAULT_SELECTORS", "PREFIX", "TAG", "SwRoutes", "install_routes", "is_open_path"]

PREFIX = "/sessions"
# The published agent client's selectors (SCRATCHWORLD_API.md section 4)
DEFAULT_SELECTORS = ",".join(
    [
        "stage::[data-testid='stage']",
        "canvas::.blocklyMainBackground",
        "inputs::input",
        "sprites::.sprite-selector_sprite-wrapper_df7cJ",
        "blocks::.blocklyDraggable",
        "flyout_buttons::.blocklyFlyoutButton",
        "category_menu_item::.scratchCategoryMenuItem",
    ]
)
TAG = "ScratchWorld-compatible"


def is_open_path(path: str) -> bool:
    """The paths served without a token: the readiness probe and the session routes."""
    return path == "/" or path == PREFIX or path.startswith(PREFIX + "/")


class _PlainError(Exception):
    def __init__(self, status: int, text: str) -> None:
        self.status, self.text = status, text


async def _plain(request: Request, exc: _PlainError) -> PlainTextResponse:
    return PlainTextResponse(exc.text, exc.status)


def install_routes(api: FastAPI, sessions: SwSessions) -> None:
    """Add the routes of the published server to `api`."""
    api.add_exception_handler(_PlainError, _plain)  # type: ignore[arg-type]
    api.include_router(_router(sessions))


class SwRoutes:
    """The published server's routes over `sessions`, as the agent API serves them beside its
    own (`api.open_routes.OpenRoutes`: `ApiServer(..., open_routes=SwRoutes(sessions))`)."""

    name = "the ScratchWorld routes"

    def __init__(self, sessions: SwSessions) -> None:
        self.sessions = sessions

    def install(self, api: FastAPI) -> None:
        """Add the routes of the published server to `api`."""
        install_routes(api, self.sessions)

    def is_open_path(self, path: str) -> bool:
        """The readiness probe and the session routes (`is_open_path`)."""
        return is_open_path(path)


def _session(sessions: SwSessions, session_id: str, live: bool = True) -> SwSession:
    """The session (404 if none); `live`: refuse one the watchdog ended (410)."""
    try:
        return sessions.live(session_id) if live else sessions.get(session_id)
    except SessionNotFound as exc:
        raise _PlainError(404, repr(str(exc))) from None
    except SwRefused as exc:
        raise _PlainError(exc.status, str(exc)) from None


def _router(sessions: SwSessions) -> APIRouter:
    router = APIRouter(tags=[TAG])

    @router.get("/", summary="Readiness (the drag runner polls it)")
    async def ready() -> dict[str, Any]:
        return {"status": "ok", "service": "scratch-bench-studio", "sessions": len(sessions.list())}

    @router.post(PREFIX, summary="Open a session (a studio episode)")
    async def create(
        record: bool = False,
        quality: Literal["low", "medium", "high"] = "medium",
        task_name: str | None = Query(None, max_length=256),
        save_dir: str | None = Query(None, max_length=1024),  # published; unused
        agent: str | None = Query(None, max_length=80, description="studio: agent name"),
    ) -> JSONResponse:
        try:
            session = await sessions.create(record, quality, task_name, agent)
        except SwRefused as exc:
            raise _PlainError(exc.status, str(exc)) from None
        except StudioError as exc:
            raise _PlainError(500, str(exc)) from None
        return JSONResponse(
            {
                "session_id": session.id,
                "created_at": session.created_at,
                "is_recording": session.is_recording,
            }
        )

    @router.get(PREFIX, summary="The open sessions")
    async def listing() -> dict[str, Any]:
        found = sessions.list()
        return {"sessions": [s.info() for s in found], "count": len(found)}

    @router.get(PREFIX + "/count", summary="How many sessions are open")
    async def count() -> dict[str, Any]:
        return {"count": len(sessions.list())}

    @router.delete(PREFIX, summary="Close every session")
    async def close_all() -> dict[str, Any]:
        return {"status": "closed", "closed": await sessions.close_all()}

    @router.get(PREFIX + "/{session_id}", summary="One session")
    async def info(session_id: str) -> dict[str, Any]:
        return _session(sessions, session_id, live=False).info()

    @router.delete(PREFIX + "/{session_id}", summary="Close a session")
    async def delete(session_id: str) -> dict[str, Any]:
        _session(sessions, session_id, live=False)
        try:
            return await sessions.delete(session_id)
        except SessionNotFound as exc:
            raise _PlainError(404, repr(str(exc))) from None

    for api_name, model in schemas.PRIMITIVE_BODIES.items():
        router.add_api_route(
            PREFIX + "/{session_id}/" + api_name,
            _action_route(sessions, api_name, model),
            methods=["POST"],
            summary=f"Primitive action {api_name}",
            response_model=schemas.Envelope,
        )

    @router.post(
        PREFIX + "/{session_id}/composite/execute",
        summary="A composite API call",
        response_model=schemas.Envelope,
    )
    async def composite(session_id: str, body: schemas.CompositeBody) -> JSONResponse:
        # a Response goes out as it is: the envelope is built to shape, not validated again
        session = _session(sessions, session_id)
        answer = await _call(
            sessions.watch(session, sessions.composite(session, body.api, body.args))
        )
        return JSONResponse(answer)

    @router.get(PREFIX + "/{session_id}/screenshot", summary="A PNG of the page, base64")
    async def screenshot(
        session_id: str, format: str = "base64", full_page: bool = True
    ) -> JSONResponse:
        if format != "base64":
            raise _PlainError(400, f"format {format[:20]!r}: only base64 is served")
        t0 = time.perf_counter()
        session = _session(sessions, session_id)
        shot = await _call(sessions.watch(session, sessions.screenshot(session, full_page)))
        return JSONResponse(shot, headers=server_timing(time.perf_counter() - t0))

    @router.get(PREFIX + "/{session_id}/elements_batch", summary="Elements of named selectors")
    async def elements_batch(
        session_id: str, selectors: str = Query(..., max_length=8192)
    ) -> dict[str, Any]:
        session = _session(sessions, session_id)
        return await _call(sessions.watch(session, sessions.elements_batch(session, selectors)))

    @router.get(PREFIX + "/{session_id}/elements", summary="Elements of one selector")
    async def elements(
        session_id: str, selector: str = Query(DEFAULT_SELECTORS, max_length=8192)
    ) -> dict[str, Any]:
        session = _session(sessions, session_id)
        found = await _call(sessions.watch(session, sessions.elements_batch(session, selector)))
        return {"count": len(found["elements"]), "elements": found["elements"]}

    @router.get(PREFIX + "/{session_id}/html", summary="The page's HTML")
    async def html(session_id: str) -> dict[str, Any]:
        session = _session(sessions, session_id)
        return {"html": await _call(sessions.watch(session, sessions.html(session)))}

    @router.get(PREFIX + "/{session_id}/viewport_size", summary="The page size")
    async def viewport_size(session_id: str) -> dict[str, Any]:
        size = _session(sessions, session_id).page.viewport_size or {}
        width, height = size.get("width"), size.get("height")
        size = {"width": width, "height": height}
        return {**size, "viewport_size": size}

    @router.post(PREFIX + "/{session_id}/load_project", summary="Load scratch-gui/static/<name>")
    async def load_project(
        session_id: str, project_name: str = Query(..., max_length=255)
    ) -> dict[str, Any]:
        session = _session(sessions, session_id)
        return await _call(sessions.watch(session, sessions.load_project(session, project_name)))

    @router.post(PREFIX + "/{session_id}/export_project", summary="The program as .sb3, base64")
    async def export_project(
        session_id: str, output_name: str | None = Query(None, max_length=255)
    ) -> dict[str, Any]:
        session = _session(sessions, session_id)
        return await _call(sessions.watch(session, sessions.export_project(session, output_name)))

    @router.post(PREFIX + "/{session_id}/toggle_stage", summary="Switch to the small stage")
    async def toggle_stage(session_id: str) -> dict[str, Any]:
        session = _session(sessions, session_id)
        return await _call(sessions.watch(session, sessions.toggle_stage(session)))

    @router.post(PREFIX + "/{session_id}/evaluate", summary="Run a task's evaluation script")
    async def evaluate(session_id: str, body: schemas.EvaluateBody) -> dict[str, Any]:
        session = _session(sessions, session_id)
        work = sessions.evaluate(session, body.task_name, body.evaluation_method)
        return await _call(sessions.watch(session, work, EVALUATE_LIMIT_S))

    return router


async def _call(work: Any) -> dict[str, Any]:
    try:
        result: dict[str, Any] = await work
    except SwRefused as exc:
        raise _PlainError(exc.status, str(exc)) from None
    except (SwCallError, StudioError) as exc:
        raise _PlainError(500, str(exc)) from None
    return result


def _action_route(sessions: SwSessions, api_name: str, model: type[Any]) -> Any:
    async def action(session_id: str, body: Any) -> JSONResponse:
        session = _session(sessions, session_id)
        work = sessions.act(session, api_name, body.model_dump(exclude_none=True))
        return JSONResponse(await _call(sessions.watch(session, work)))

    action.__annotations__ = {"session_id": str, "body": model, "return": JSONResponse}
    action.__name__ = f"sw_{api_name}"
    return action

"""The participant page's HTTP routes (a Starlette application; `server` runs it).

Every path is under the participant's link `/p/TOKEN/`; a path with a token that is no
participant's gets 404 "this link is not part of the study" and is written to the study's
`refusals.jsonl` (when, from where, which route, the first characters of the token), so
there is no route by which one participant reaches another's data. Under a valid link:

- `GET /p/TOKEN/` the page (resources/web/study/participant.html), `GET studio-js/NAME` the
  few page scripts it loads, any other `GET` a file of the edition's editor bundle;
- `api/claim`, `api/release`, `api/state`, `api/consent`, `api/start`, `api/events`,
  `api/checkpoint`, `api/finish?outcome=...`, `api/breach`, `GET api/project`: the desk's
  calls (`desk.ParticipantDesk`), each but claim carrying the page's tab id (header
  `X-Study-Tab` or `?tab=`).

Answers are JSON; a refusal is `{"error": message}` with the desk's status. Bodies are read
up to a cap (events `MAX_BATCH_BYTES`, projects `MAX_PROJECT_BYTES`): more is 413, recorded.
Nothing under the link serves the golden project, the script, another task's project or
another participant's anything: the only project served is the one of the task in progress.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from studio.services.core import paths
from studio.services.runtime import editions
from studio.services.studies.desk import ParticipantDesk, Refused
from studio.services.studies.events import MAX_BATCH_BYTES, MAX_PROJECT_BYTES

__all__ = ["PAGE", "PAGE_SCRIPTS", "StudyWeb", "page_html"]

PAGE = paths.WEB_DIR / "study" / "participant.html"
PAGE_SCRIPTS = ("editor-bridge.js", "editor-rest.js", "input-capture.js", "study-page.js")
_NO_STORE = {"Cache-Control": "no-store"}


def page_html(edition: editions.Edition) -> str:
    """The participant page with the edition's editor scripts in it. The study's own script
    comes first, so the page claims its link (and a second tab hears it is refused) before
    the editor's large bundle has loaded."""
    info = editions.info(edition)
    tags = ['<script src="studio-js/study-page.js"></script>']
    tags += [f'<script src="{name}"></script>' for name in reversed(info.files[1:])]
    if edition is editions.Edition.CLASSIC:
        tags.append('<script src="studio-js/react-globals.js"></script>')
    tags.append(f'<script src="{info.entry}"></script>')
    tags.append(f'<script src="studio-js/edition-{edition.value}.js"></script>')
    tags += [f'<script src="studio-js/{name}"></script>' for name in PAGE_SCRIPTS[:-1]]
    return PAGE.read_text(encoding="utf-8").replace("<!--EDITOR-SCRIPTS-->", "\n".join(tags))


class StudyWeb:
    """The routes over the desks of one study; `app` is the ASGI application."""

    def __init__(self, study: Path, desks: dict[str, ParticipantDesk], edition: editions.Edition):
        self.study = Path(study)
        self.desks = desks  # by token
        self.edition = edition
        self.bundle = editions.bundle_dir(edition)
        self.html = page_html(edition)
        self.app = Starlette(
            routes=[
                Route("/p/{token}/api/{call}", self.api, methods=["GET", "POST"]),
                Route("/p/{token}/", self.page, methods=["GET"]),
                Route("/p/{token}/{path:path}", self.file, methods=["GET"]),
            ]
        )

    # ---- links ------------------------------------------------------------------------------
    def desk_of(self, request: Request) -> ParticipantDesk | None:
        token = str(request.path_params.get("token", ""))
        found = None
        for known, desk in self.desks.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                found = desk
        if found is None:
            client = request.client.host if request.client else "?"
            line = {
                "at": datetime.now(UTC).isoformat(), "from": client,
                "path": request.url.path.split("/")[-1][:40], "token_start": token[:4],
            }  # fmt: skip
            self.study.mkdir(parents=True, exist_ok=True)
            with open(self.study / "refusals.jsonl", "a", encoding="utf-8") as fh:
                fh.write(json.dumps(line) + "\n")
        return found

    @staticmethod
    def _unknown_link() -> Response:
        return JSONResponse(
            {"error": "This link is not part of the study. Check the link you were given."},
            status_code=404,
        )

    async def page(self, request: Request) -> Response:
        if self.desk_of(request) is None:
            return self._unknown_link()
        return Response(self.html, media_type="text/html", headers=_NO_STORE)

    async def file(self, request: Request) -> Response:
        if self.desk_of(request) is None:
            return self._unknown_link()
        path = str(request.path_params["path"])
        if path.startswith("studio-js/"):
            name = path[len("studio-js/") :]
            allowed = (*PAGE_SCRIPTS, f"edition-{self.edition.value}.js", "react-globals.js")
            target = paths.JS_DIR / name if name in allowed else None
        else:
            target = _inside(self.bundle, path)
        if target is None or not target.is_file():
            return JSONResponse({"error": "not found"}, status_code=404)
        return FileResponse(target, headers={"Cache-Control": "public, max-age=3600"})

    # ---- the desk's calls -------------------------------------------------------------------
    async def api(self, request: Request) -> Response:
        desk = self.desk_of(request)
        if desk is None:
            return self._unknown_link()
        call = str(request.path_params["call"])
        handler = _CALLS.get((request.method, call))
        if handler is None:
            return JSONResponse({"error": f"no call {request.method} {call[:40]}"}, 404)
        tab = request.headers.get("x-study-tab") or request.query_params.get("tab")
        async with desk.lock:
            try:
                if call not in ("claim", "release"):
                    desk.check_tab(tab)
                return await handler(desk, request, tab)
            except Refused as exc:
                return JSONResponse({"error": str(exc)}, status_code=exc.status)


async def _body(desk: ParticipantDesk, request: Request, cap: int, what: str) -> bytes:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > cap:
        raise desk.refuse(413, f"{what} refused: larger than {cap} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > cap:
            raise desk.refuse(413, f"{what} refused: larger than {cap} bytes")
    return bytes(data)


async def _json(desk: ParticipantDesk, request: Request, what: str) -> Any:
    raw = await _body(desk, request, MAX_BATCH_BYTES, what)
    try:
        return json.loads(raw or b"{}")
    except ValueError:
        raise desk.refuse(400, f"{what} refused: not JSON") from None


async def _claim(desk: ParticipantDesk, request: Request, tab: str | None) -> Response:
    body = await _json(desk, request, "the claim")
    return JSONResponse(desk.claim(body.get("tab") if isinstance(body, dict) else None))


async def _release(desk: ParticipantDesk, request: Request, tab: str | None) -> Response:
    desk.release(tab)
    return JSONResponse({})


async def _state(desk: ParticipantDesk, request: Request, tab: str | None) -> Response:
    return JSONResponse(desk.state())


async def _consent(desk: ParticipantDesk, request: Request, tab: str | None) -> Response:
    return JSONResponse(desk.consent())


async def _start(desk: ParticipantDesk, request: Request, tab: str | None) -> Response:
    body = await _json(desk, request, "the start")
    state = desk.start()
    size = body.get("editor") if isinstance(body, dict) else None
    if not (isinstance(size, list) and len(size) == 2 and all(_length(v) for v in size)):
        return JSONResponse(state)
    if desk.active is not None:
        desk.active.recorder.run.meta["editor_size"] = [round(v) for v in size]
    return JSONResponse(state)


async def _project(desk: ParticipantDesk, request: Request, tab: str | None) -> Response:
    return Response(desk.project(), media_type="application/x.scratch.sb3", headers=_NO_STORE)


async def _events(desk: ParticipantDesk, request: Request, tab: str | None) -> Response:
    return JSONResponse(desk.events(await _json(desk, request, "the events")))


async def _checkpoint(desk: ParticipantDesk, request: Request, tab: str | None) -> Response:
    desk.checkpoint(await _body(desk, request, MAX_PROJECT_BYTES, "the checkpoint"))
    return JSONResponse({})


async def _finish(desk: ParticipantDesk, request: Request, tab: str | None) -> Response:
    data = await _body(desk, request, MAX_PROJECT_BYTES, "the final project")
    return JSONResponse(await desk.finish(request.query_params.get("outcome"), data))


async def _breach(desk: ParticipantDesk, request: Request, tab: str | None) -> Response:
    body = await _json(desk, request, "the breach")
    desk.breach(body.get("what") if isinstance(body, dict) else None)
    return JSONResponse({})


Call = Callable[[ParticipantDesk, Request, str | None], Awaitable[Response]]
_CALLS: dict[tuple[str, str], Call] = {
    ("POST", "claim"): _claim, ("POST", "release"): _release, ("GET", "state"): _state,
    ("POST", "consent"): _consent, ("POST", "start"): _start, ("GET", "project"): _project,
    ("POST", "events"): _events, ("POST", "checkpoint"): _checkpoint,
    ("POST", "finish"): _finish, ("POST", "breach"): _breach,
}  # fmt: skip


def _length(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 20000


def _inside(root: Path, rel: str) -> Path | None:
    candidate = (root / rel).resolve()
    try:
        candidate.relative_to(root.resolve())
    except ValueError:
        return None
    return candidate

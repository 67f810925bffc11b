"""The API's errors as `{"error": "..."}` bodies that say what to fix.

`http_error` answers Starlette's HTTP exceptions (a 404 names the path and points to
GET /openapi.json, a 405 lists every method some route takes on the path in `Allow`);
`invalid_request` answers a body or query pydantic refused, with the one message
`validation_message` makes of the error list: 400 for malformed JSON or an empty body, 422 for
the rest (a body that is not an object, missing or unknown fields naming the known ones, a bad
value naming its field). On a format's token-free paths (`OpenRoutes`: the published ScratchWorld
ones) FastAPI's own 422 `detail` list is kept, with NaN and infinities (`_finite`) spelled as
text so the echo stays JSON.
"""

from __future__ import annotations

import math
from typing import Any

from fastapi import Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from studio.services.api.guard import short

__all__ = ["http_error", "invalid_request", "validation_message"]


async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    headers = dict(exc.headers or {})
    message = str(exc.detail)
    if exc.status_code == 404 and message == "Not Found":
        message = f"no route {short(request.url.path)}; see GET /openapi.json for the routes"
    elif exc.status_code == 405:
        allowed = _allowed_methods(request)
        headers["Allow"] = allowed
        message = f"{request.method} is not allowed on {short(request.url.path)}; use {allowed}"
    return JSONResponse({"error": message}, exc.status_code, headers)


def _allowed_methods(request: Request) -> str:
    """Every method some route takes on this path (Starlette names only the first route's)."""
    methods: set[str] = set()
    for route in request.app.routes:
        if route.matches(request.scope)[0] is not Match.NONE:  # the path matches
            methods |= set(getattr(route, "methods", None) or ())
    order = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    return ", ".join(m for m in order if m in methods)


async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    open_path = getattr(request.app.state, "open_path", None)  # a format's routes (OpenRoutes)
    if open_path is not None and open_path(request.url.path):
        # the published server answers FastAPI's own 422 for every body or query it cannot use
        return JSONResponse({"detail": _finite(jsonable_encoder(exc.errors()))}, 422)
    status, message = validation_message(exc.errors(), request.scope.get("route"))
    return JSONResponse({"error": message}, status)


def _finite(value: Any) -> Any:
    """`value` with every NaN or infinity (Python's JSON reader takes `Infinity`) as its text,
    so the echo of a bad input can itself be sent as JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def validation_message(errors: Any, route: Any = None) -> tuple[int, str]:
    """A 400 or 422 with one message a person can act on, from pydantic's error list."""
    errors = list(errors)
    kinds = {e.get("type") for e in errors}
    body_level = [e for e in errors if tuple(e.get("loc", ())) == ("body",)]
    if "json_invalid" in kinds:
        bad = next(e for e in errors if e.get("type") == "json_invalid")
        detail = (bad.get("ctx") or {}).get("error", "")
        return 400, f"malformed JSON: {detail}".rstrip(": ")
    if body_level and body_level[0].get("type") == "missing":
        return 400, "the request body is empty; send a JSON object"
    if body_level:
        given = body_level[0].get("input")
        return 422, f"the body must be a JSON object, not {_json_type(given)}"
    missing = [e["loc"][-1] for e in errors if e.get("type") == "missing"]
    if missing:
        return 422, "missing field(s): " + ", ".join(repr(m) for m in missing)
    unknown = [e["loc"][-1] for e in errors if e.get("type") == "extra_forbidden"]
    if unknown:
        known = _known_fields(route)
        tail = f"; known: {', '.join(known)}" if known else ""
        return 422, f"unknown field(s) {', '.join(map(repr, unknown))}{tail}"
    first = errors[0] if errors else {"msg": "invalid request"}
    text = str(first.get("msg", "invalid request")).removeprefix("Value error, ")
    loc = [str(p) for p in first.get("loc", ()) if p != "body"]
    if loc and f"'{loc[-1]}'" not in text:
        text = f"'{loc[-1]}': {text}"
    return 422, text


def _known_fields(route: Any) -> list[str]:
    body = getattr(getattr(route, "body_field", None), "type_", None)
    fields = getattr(body, "model_fields", None)
    if fields is None:  # an optional body: Model | None
        for arg in getattr(body, "__args__", ()):
            fields = getattr(arg, "model_fields", None) or fields
    return sorted(fields or ())


def _json_type(value: Any) -> str:
    names = {list: "list", str: "str", int: "int", float: "float", bool: "bool"}
    return "null" if value is None else names.get(type(value), type(value).__name__)

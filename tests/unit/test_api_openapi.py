"""The served OpenAPI description is valid OpenAPI 3.1 and names every route the app answers."""

from __future__ import annotations

import json

from openapi_spec_validator import validate

from studio.services.api.openapi import openapi_document


def test_document_is_valid_openapi() -> None:
    doc = json.loads(json.dumps(openapi_document()))  # exactly what is served
    validate(doc)


def test_document_covers_the_routes() -> None:
    paths = openapi_document()["paths"]
    methods = {(p, m) for p, ops in paths.items() for m in ops if m != "parameters"}
    assert methods == {
        ("/openapi.json", "get"),
        ("/episodes", "get"),
        ("/episodes", "post"),
        ("/episodes/{episode_id}", "get"),
        ("/episodes/{episode_id}", "delete"),
        ("/episodes/{episode_id}/observation", "get"),
        ("/episodes/{episode_id}/actions", "post"),
        ("/episodes/{episode_id}/evaluate", "post"),
    }
    for ops in paths.values():
        for method, op in ops.items():
            if method != "parameters":
                assert "401" in op["responses"], (method, op["operationId"])


def test_every_reference_resolves() -> None:
    doc = openapi_document()
    text = json.dumps(doc)
    schemas = doc["components"]["schemas"]
    prefix = "#/components/schemas/"
    refs = {part.split('"')[0] for part in text.split(prefix)[1:]}
    assert refs and refs <= set(schemas)
    action = schemas["ActionRequest"]["allOf"][0]["oneOf"]
    assert len(action) == 18  # 9 primitive + 11 composite, done/failed shared

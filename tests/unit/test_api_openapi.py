"""The OpenAPI document is generated from the routes and models, is valid OpenAPI, is what
GET /openapi.json serves, and names every route the app answers with its errors."""

from __future__ import annotations

import json
import urllib.request

from studio.services.api.server import ApiServer
from tests.helpers.fake_env import FakeEpisodeManager
from tests.helpers.loop_thread import LoopThread


def _document() -> dict[str, object]:
    app = ApiServer(FakeEpisodeManager(), "t").app
    return json.loads(json.dumps(app.fastapi.openapi()))


def test_document_is_valid_openapi() -> None:
    # imported here: the validator costs a second of CPU, which every xdist worker would pay
    # while collecting, for the one test that uses it
    from openapi_spec_validator import validate

    validate(_document())


def test_document_covers_the_routes_with_their_errors() -> None:
    paths = _document()["paths"]
    assert isinstance(paths, dict)
    methods = {(p, m) for p, ops in paths.items() for m in ops}
    assert methods == {
        ("/episodes", "get"),
        ("/episodes", "post"),
        ("/episodes/{episode_id}", "get"),
        ("/episodes/{episode_id}", "delete"),
        ("/episodes/{episode_id}/observation", "get"),
        ("/episodes/{episode_id}/actions", "post"),
        ("/episodes/{episode_id}/program", "get"),
        ("/episodes/{episode_id}/evaluate", "post"),
    }
    for path, ops in paths.items():
        for method, op in ops.items():
            assert "401" in op["responses"], (path, method)
            assert op["security"] == [{"HTTPBearer": []}], (path, method)
    create = paths["/episodes"]["post"]
    assert set(create["responses"]) >= {"201", "401", "404", "422"}
    schemas = _document()["components"]["schemas"]  # type: ignore[index]
    assert {"EpisodeRequest", "ActionRequest", "StepRecord", "EvalResult"} <= set(schemas)
    assert schemas["EpisodeRequest"]["additionalProperties"] is False


def test_served_document_is_the_generated_one(loop_thread: LoopThread) -> None:
    manager = FakeEpisodeManager()
    server = ApiServer(manager, "t")
    loop_thread.run(server.start())
    try:
        request = urllib.request.Request(
            server.url + "/openapi.json", headers={"Authorization": "Bearer t"}
        )
        with urllib.request.urlopen(request, timeout=10) as resp:
            served = json.loads(resp.read())
    finally:
        loop_thread.run(server.close())
        loop_thread.run(manager.close())
    assert served == json.loads(json.dumps(server.app.fastapi.openapi()))

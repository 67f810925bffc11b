"""The OpenAPI 3.1 description of the agent API, served at GET /openapi.json.

Paths are written by hand; the schemas of observations, steps, actions and evaluation results
are generated from the pydantic models, so the description follows the models.
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from studio.models import agent
from studio.models.evaluation import EvalResult

_REF = "#/components/schemas/{model}"
_ACTIONS: list[type[BaseModel]] = [
    agent.Click,
    agent.DoubleClick,
    agent.DragAndDrop,
    agent.Scroll,
    agent.TypeText,
    agent.Key,
    agent.Hotkey,
    agent.SelectSprite,
    agent.SelectStage,
    agent.AddVariable,
    agent.AddList,
    agent.AddBlock,
    agent.ConnectBlocks,
    agent.DetachBlocks,
    agent.SetBlockField,
    agent.DeleteBlock,
    agent.Done,
    agent.Failed,
]


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _REF.format(model=name)}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    texts = {
        400: "Unreadable body (malformed JSON)",
        401: "Missing or wrong bearer token",
        404: "Unknown episode or task",
        409: "The episode has ended or is closed",
        422: "A well-formed request that cannot be done; the message says what to fix",
    }
    return {str(c): _json(_ref("Error"), texts[c]) for c in (401, *codes)}


def _model_schemas() -> dict[str, Any]:
    models: list[tuple[type[BaseModel], Any]] = [
        (agent.Observation, "serialization"),
        (agent.StepRecord, "serialization"),
        (EvalResult, "serialization"),
    ]
    models += [(m, "validation") for m in _ACTIONS]
    _, top = models_json_schema(models, ref_template=_REF)
    return dict(top.get("$defs", {}))


def _own_schemas() -> dict[str, Any]:
    status = {"type": "string", "enum": [s.value for s in agent.EpisodeStatus]}
    mode = {"type": "string", "enum": [m.value for m in agent.Mode]}
    summary = {
        "type": "object",
        "required": ["id", "task", "mode", "status", "steps"],
        "properties": {
            "id": {"type": "string"},
            "task": {"type": "string", "description": "task id"},
            "mode": mode,
            "status": status,
            "steps": {"type": "integer", "minimum": 0},
        },
    }
    action_names = [m.__name__ for m in _ACTIONS]
    return {
        "Error": {
            "type": "object",
            "required": ["error"],
            "properties": {
                "error": {"type": "string", "description": "what is wrong, what to fix"}
            },
        },
        "EpisodeRequest": {
            "type": "object",
            "required": ["task"],
            "additionalProperties": False,
            "properties": {
                "task": {"type": "string", "description": "task folder path or library task id"},
                "mode": {**mode, "default": "composite"},
                "agent": {
                    "type": "string",
                    "default": "api",
                    "description": "name recorded in the trajectory's run.json",
                },
                "step_limit": {"type": "integer", "minimum": 1, "maximum": 10000},
            },
        },
        "EpisodeSummary": summary,
        "EpisodeList": {
            "type": "object",
            "required": ["episodes"],
            "properties": {"episodes": {"type": "array", "items": _ref("EpisodeSummary")}},
        },
        "Deleted": {
            "type": "object",
            "required": ["id", "deleted"],
            "properties": {"id": {"type": "string"}, "deleted": {"type": "boolean"}},
        },
        "ObservationResponse": {
            "allOf": [
                _ref("Observation"),
                {"type": "object", "required": ["status"], "properties": {"status": status}},
            ]
        },
        "EvaluateRequest": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "clock": {"type": "string", "enum": ["task", "real", "virtual"], "default": "task"},
                "seed": {"type": "integer", "default": 0},
            },
        },
        "ActionRequest": {
            "description": (
                "One action, {api, args}, of the episode's mode (FORMATS.md sections 3 and 4), "
                "with the agent's reasoning recorded beside it."
            ),
            "allOf": [
                {"oneOf": [_ref(n) for n in action_names]},
                {"type": "object", "properties": {"reasoning": {"type": "string"}}},
            ],
        },
    }


@functools.cache
def openapi_document() -> dict[str, Any]:
    """The whole description (computed once)."""
    schemas = {**_model_schemas(), **_own_schemas()}
    episode_id = {
        "name": "episode_id",
        "in": "path",
        "required": True,
        "schema": {"type": "string"},
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Scratch Bench Studio agent API",
            "version": "1",
            "description": (
                "Drive episodes of Scratch benchmark tasks in the real editor: composite mode "
                "(structured text, block APIs) or primitive mode (screenshot, mouse and keys)."
            ),
        },
        "servers": [{"url": "http://127.0.0.1:8765"}],
        "security": [{"bearer": []}],
        "paths": {
            "/openapi.json": {
                "get": {
                    "summary": "This description",
                    "operationId": "openapi",
                    "responses": {
                        "200": _json({"type": "object"}, "The OpenAPI document"),
                        **_errors(),
                    },
                }
            },
            "/episodes": {
                "get": {
                    "summary": "List the episodes",
                    "operationId": "listEpisodes",
                    "responses": {"200": _json(_ref("EpisodeList"), "Episodes"), **_errors()},
                },
                "post": {
                    "summary": "Start an episode on a task",
                    "operationId": "createEpisode",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("EpisodeRequest")}},
                    },
                    "responses": {
                        "201": _json(_ref("EpisodeSummary"), "Started; the body holds its id"),
                        **_errors(400, 404, 422),
                    },
                },
            },
            "/episodes/{episode_id}": {
                "parameters": [episode_id],
                "get": {
                    "summary": "One episode's summary",
                    "operationId": "getEpisode",
                    "responses": {
                        "200": _json(_ref("EpisodeSummary"), "The episode"),
                        **_errors(404),
                    },
                },
                "delete": {
                    "summary": "Close the episode and forget it",
                    "operationId": "deleteEpisode",
                    "responses": {"200": _json(_ref("Deleted"), "Deleted"), **_errors(404)},
                },
            },
            "/episodes/{episode_id}/observation": {
                "parameters": [episode_id],
                "get": {
                    "summary": "What the agent sees now",
                    "description": (
                        "Primitive mode: screenshot_png_b64 (1280x720 PNG) and elements; "
                        "composite mode: text (indexes valid until the program changes)."
                    ),
                    "operationId": "observe",
                    "responses": {
                        "200": _json(_ref("ObservationResponse"), "The observation"),
                        **_errors(404, 409),
                    },
                },
            },
            "/episodes/{episode_id}/actions": {
                "parameters": [episode_id],
                "post": {
                    "summary": "Perform one action",
                    "operationId": "act",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("ActionRequest")}},
                    },
                    "responses": {
                        "200": _json(_ref("StepRecord"), "The recorded step"),
                        **_errors(400, 404, 409, 422),
                    },
                },
            },
            "/episodes/{episode_id}/evaluate": {
                "parameters": [episode_id],
                "post": {
                    "summary": "Run the task's evaluation script on the current program",
                    "description": (
                        "clock 'task' (default): accelerated unless the task needs real time; "
                        "'real': wall-clock time as in the published benchmark; 'virtual': "
                        "accelerated."
                    ),
                    "operationId": "evaluate",
                    "requestBody": {
                        "required": False,
                        "content": {"application/json": {"schema": _ref("EvaluateRequest")}},
                    },
                    "responses": {
                        "200": _json(_ref("EvalResult"), "The evaluation result"),
                        **_errors(400, 404, 409, 422),
                    },
                },
            },
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }

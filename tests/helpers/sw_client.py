"""A client of the published ScratchWorld benchmark server ("scratch-bench-api").

Written only from the server's HTTP contract as its published clients use it
(shared/SCRATCHWORLD_API.md): the session routes of the task runner and the drag runner, the
observation and action routes of agent_client, and the same checks those clients make on the
answers. It sends no auth header (the published clients send none).

- `SwClient` is one call per route: sessions, projects, the stage toggle, the screenshot, the
  batch of elements, the 10 primitive actions, composite apis, export and evaluate. Every
  action/composite envelope is checked as agent_client checks it (`check_envelope`); a non-200
  answer raises `HttpError` with its status and body text.
- `run_task` plays one episode in the order of the published task runner (section 9).
- `run_drag_item` plays one single-step drag item in the order of the published drag runner
  and applies its check of the connection (section 9, step 7).

The published runners sleep between calls (3 s, 5 s, 2 s, ...) and poll GET / until the server
is up. Here there are no pauses: the server answers only when an action is done, and whoever
starts it waits for its own "serving" line, so readiness is checked once.
"""

from __future__ import annotations

import base64
import json
import struct
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

PRIMITIVES = (
    "click",
    "double_click",
    "move_to",
    "drag_and_drop",
    "scroll",
    "type",
    "key",
    "hold_key",
    "release_key",
    "hotkey",
)
# agent_client's selector list (section 4), in its order.
CLIENT_SELECTORS = (
    "stage::[data-testid='stage']",
    "canvas::.blocklyMainBackground",
    "inputs::input",
    "sprites::.sprite-selector_sprite-wrapper_df7cJ",
    "blocks::.blocklyDraggable",
    "flyout_buttons::.blocklyFlyoutButton",
    "category_menu_item::.scratchCategoryMenuItem",
)
ENVELOPE_KEYS = ("success", "requested_action", "executed_action", "data", "error", "meta")
CLIENT_SIDE_APIS = ("done", "failed")  # the catalog's ends of an episode, never sent
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

# Timeouts of the published clients (section 9): agent_client GET 60 s, composite 20 s (the
# studio runs on a busy machine here, so composite gets more), task_runner evaluate 120 s.
GET_TIMEOUT = 60.0
COMPOSITE_TIMEOUT = 60.0
EVALUATE_TIMEOUT = 180.0


class SwError(Exception):
    """Something the published clients would not accept."""


class HttpError(SwError):
    """A non-200 answer: the published clients abort the episode."""

    def __init__(self, method: str, path: str, status: int, body: str) -> None:
        super().__init__(f"{method} {path} -> {status}: {body[:500]}")
        self.method = method
        self.path = path
        self.status = status
        self.body = body


class MalformedResponse(SwError):
    """A 200 answer whose shape agent_client rejects (its MALFORMED_RESPONSE)."""

    def __init__(self, what: str, payload: Any) -> None:
        super().__init__(f"{what}: {json.dumps(payload, default=str)[:800]}")
        self.payload = payload


def check_envelope(payload: Any) -> dict[str, Any]:
    """The action/composite envelope as agent_client needs it (section 3), else raise."""
    if not isinstance(payload, dict):
        raise MalformedResponse("envelope is not an object", payload)
    missing = [k for k in ENVELOPE_KEYS if k not in payload]
    if missing:
        raise MalformedResponse(f"envelope lacks {missing}", payload)
    if not isinstance(payload["success"], bool):
        raise MalformedResponse("success is not a bool", payload)
    if not isinstance(payload["data"], dict):
        raise MalformedResponse("data is not an object", payload)
    if not isinstance(payload["meta"], dict):
        raise MalformedResponse("meta is not an object", payload)
    executed = payload["executed_action"]
    if not isinstance(executed, dict) or not isinstance(executed.get("args"), dict):
        raise MalformedResponse("executed_action.args is not an object", payload)
    if not payload["success"]:
        error = payload["error"]
        if not isinstance(error, dict) or "code" not in error or "message" not in error:
            raise MalformedResponse("a failure without error.code/message", payload)
    return payload


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (raises MalformedResponse if not a PNG)."""
    if len(png) < 24 or not png.startswith(PNG_MAGIC) or png[12:16] != b"IHDR":
        raise MalformedResponse("screenshot is not a PNG", png[:32].hex())
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def centre(element: Mapping[str, Any]) -> tuple[int, int]:
    """The centre of an observed element, as agent_client turns an index into a point."""
    pos = element["position"]
    return (
        round(pos["x"] + pos["width"] / 2),
        round(pos["y"] + pos["height"] / 2),
    )


class SwClient:
    """One published client's calls against a scratch-bench-api server at `base_url`."""

    def __init__(self, base_url: str, timeout: float = GET_TIMEOUT) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.http = httpx.Client(base_url=self.base_url, timeout=timeout)
        self.created: list[str] = []  # every session this client created, in order

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> SwClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def at_least(self, seconds: float) -> float:
        """A route's own timeout, never below the client's."""
        return max(self.timeout, seconds)

    # ---- raw requests ----------------------------------------------------------------------
    def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        body: Any = None,
        timeout: float | None = None,
    ) -> httpx.Response:
        """One request, whatever its status."""
        kwargs: dict[str, Any] = {}
        if params is not None:
            kwargs["params"] = dict(params)
        if body is not None:
            kwargs["json"] = body
        if timeout is not None:
            kwargs["timeout"] = timeout
        return self.http.request(method, path, **kwargs)

    def call(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        body: Any = None,
        timeout: float | None = None,
    ) -> Any:
        """One request that must answer 200 with JSON; its decoded body."""
        resp = self.request(method, path, params=params, body=body, timeout=timeout)
        if resp.status_code != 200:
            raise HttpError(method, path, resp.status_code, resp.text)
        try:
            return resp.json()
        except ValueError as exc:
            raise MalformedResponse(f"{method} {path}: body is not JSON", resp.text) from exc

    # ---- readiness and sessions ------------------------------------------------------------
    def check_ready(self) -> None:
        """GET / once, as the drag runner's readiness poll would see it once the server is up."""
        try:
            resp = self.http.get("/", timeout=5.0)
        except httpx.HTTPError as exc:
            raise SwError(f"server at {self.base_url} not ready: {exc!r}") from exc
        if resp.status_code != 200:
            raise SwError(f"server at {self.base_url} not ready: status {resp.status_code}")

    def create_session(
        self,
        record: bool | None = True,
        quality: str | None = "medium",
        task_name: str | None = None,
        save_dir: str | None = None,
    ) -> str:
        """POST /sessions with query params only (None: not sent); the session id."""
        params: dict[str, str] = {}
        if record is not None:
            params["record"] = "True" if record else "False"  # task_runner sends `True`
        if quality is not None:
            params["quality"] = quality
        if task_name is not None:
            params["task_name"] = task_name
        if save_dir is not None:
            params["save_dir"] = save_dir
        answer = self.call("POST", "/sessions", params=params)
        if not isinstance(answer, dict):
            raise MalformedResponse("POST /sessions: not an object", answer)
        sid = answer.get("session_id") or answer.get("id")
        if not isinstance(sid, str) or not sid:
            raise MalformedResponse("POST /sessions: no session_id/id", answer)
        self.created.append(sid)
        return sid

    def delete_session(self, sid: str) -> dict[str, Any]:
        answer = self.call("DELETE", f"/sessions/{sid}")
        if not isinstance(answer, dict):
            raise MalformedResponse("DELETE /sessions/{id}: not an object", answer)
        return answer

    # ---- projects and stage ----------------------------------------------------------------
    def load_project(self, sid: str, name: str) -> dict[str, Any]:
        return self.call(
            "POST",
            f"/sessions/{sid}/load_project",
            params={"project_name": name},
            timeout=self.at_least(90.0),
        )

    def toggle_stage(self, sid: str) -> dict[str, Any]:
        return self.call("POST", f"/sessions/{sid}/toggle_stage")

    def export_project(self, sid: str, name: str) -> bytes:
        """The .sb3 bytes (decoded from data_base64); the server stores nothing."""
        answer = self.call(
            "POST",
            f"/sessions/{sid}/export_project",
            params={"output_name": name},
            timeout=self.at_least(90.0),
        )
        if not isinstance(answer, dict) or not isinstance(answer.get("data_base64"), str):
            raise MalformedResponse("export_project: no data_base64", answer)
        return base64.b64decode(answer["data_base64"], validate=True)

    def evaluate(self, sid: str, task_name: str) -> dict[str, Any]:
        """POST S/evaluate as task_runner sends it; the answer as is."""
        body = {"task_name": task_name, "evaluation_method": "browser"}
        answer = self.call(
            "POST", f"/sessions/{sid}/evaluate", body=body, timeout=self.at_least(EVALUATE_TIMEOUT)
        )
        if not isinstance(answer, dict):
            raise MalformedResponse("evaluate: not an object", answer)
        return answer

    # ---- observation -----------------------------------------------------------------------
    def screenshot(self, sid: str, size: tuple[int, int] | None = (1280, 720)) -> bytes:
        """The PNG bytes of GET S/screenshot?format=base64 (checked to be `size` if given)."""
        answer = self.call("GET", f"/sessions/{sid}/screenshot", params={"format": "base64"})
        if not isinstance(answer, dict) or not isinstance(answer.get("screenshot"), str):
            raise MalformedResponse("screenshot: no base64 string", answer)
        png = base64.b64decode(answer["screenshot"], validate=True)
        got = png_size(png)
        if size is not None and got != tuple(size):
            raise MalformedResponse(f"screenshot is {got[0]}x{got[1]}, not {size}", got)
        return png

    def elements_batch(
        self, sid: str, selectors: Iterable[str] = CLIENT_SELECTORS
    ) -> dict[str, Any]:
        """GET S/elements_batch with a comma-joined selector list; checked as agent_client."""
        params = {"selectors": ",".join(selectors)}
        answer = self.call("GET", f"/sessions/{sid}/elements_batch", params=params)
        if not isinstance(answer, dict) or not isinstance(answer.get("elements"), list):
            raise MalformedResponse("elements_batch: no elements list", answer)
        elapsed = answer.get("elapsed_time")
        if isinstance(elapsed, bool) or not isinstance(elapsed, int | float):
            raise MalformedResponse("elements_batch: elapsed_time is not numeric", answer)
        for element in answer["elements"]:
            if not isinstance(element, dict):
                raise MalformedResponse("elements_batch: an element is not an object", element)
            if not isinstance(element.get("position"), dict):
                raise MalformedResponse("elements_batch: position is not an object", element)
            if not isinstance(element.get("text"), str):
                raise MalformedResponse("elements_batch: text is not a string", element)
        return answer

    # ---- actions ---------------------------------------------------------------------------
    def action(self, sid: str, api: str, **body: Any) -> dict[str, Any]:
        """POST S/<api> for one of the 10 primitive names; the checked envelope."""
        if api not in PRIMITIVES:
            raise ValueError(f"{api!r} is not a primitive action ({', '.join(PRIMITIVES)})")
        return check_envelope(self.call("POST", f"/sessions/{sid}/{api}", body=body))

    def composite(
        self, sid: str, api: str, args: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """POST S/composite/execute {api, args?}; the checked envelope."""
        body: dict[str, Any] = {"api": api}
        if args is not None:
            body["args"] = dict(args)
        answer = self.call(
            "POST",
            f"/sessions/{sid}/composite/execute",
            body=body,
            timeout=self.at_least(COMPOSITE_TIMEOUT),
        )
        return check_envelope(answer)

    def send(self, sid: str, api: str, args: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """An action by name: primitive names go to S/<api>, the others to composite."""
        if api in PRIMITIVES:
            return self.action(sid, api, **dict(args or {}))
        return self.composite(sid, api, args)


# ---- the task runner -------------------------------------------------------------------------
@dataclass
class Observation:
    """What an agent sees at a turn (with the client, for agents that check things)."""

    turn: int
    session_id: str
    client: SwClient
    mode: str
    screenshot: bytes
    blocks: dict[str, Any] | None = None  # composite mode: get_blocks_pseudocode's data
    observed: dict[str, Any] | None = None  # composite mode: get_blocks_pseudocode's envelope
    elements: list[dict[str, Any]] | None = None  # primitive mode: elements_batch's elements
    last: dict[str, Any] | None = None  # the envelope of the previous action


Agent = Callable[[Observation], Mapping[str, Any] | None]


@dataclass
class Turn:
    action: dict[str, Any]  # {api, args} as sent (indices turned into points)
    envelope: dict[str, Any]


@dataclass
class TaskRun:
    """One episode played as the published task runner plays it."""

    session_id: str
    turns: list[Turn] = field(default_factory=list)
    observations: list[Observation] = field(default_factory=list)
    ended_by: str = "max_turns"  # done | failed | max_turns
    sb3: bytes = b""
    evaluation: dict[str, Any] = field(default_factory=dict)  # the evaluate answer as is
    result: dict[str, Any] = field(default_factory=dict)  # what task_runner stores
    deleted: dict[str, Any] | None = None

    @property
    def success(self) -> bool:
        return bool(self.result.get("success"))


def _resolve_indices(args: dict[str, Any], elements: list[dict[str, Any]] | None) -> None:
    """agent_client turns `index`/`start_index`/`end_index` into element centres."""
    pairs = [("index", "x", "y"), ("start_index", "start_x", "start_y")]
    pairs.append(("end_index", "end_x", "end_y"))
    for key, kx, ky in pairs:
        if key in args:
            if elements is None:
                raise ValueError(f"{key} needs an observation of elements")
            args[kx], args[ky] = centre(elements[int(args.pop(key))])


def run_task(
    client: SwClient,
    task_name: str,
    initial_project: str,
    agent: Agent,
    mode: str,
    *,
    max_turns: int = 50,
    quality: str = "medium",
    record: bool = True,
    export_name: str | None = None,
) -> TaskRun:
    """One episode in the task runner's order (section 9); the session is always deleted.

    Each turn: screenshot, then get_blocks_pseudocode (composite mode) or elements_batch
    (primitive mode), then the agent's action: "done"/"failed" end the loop client-side,
    primitive names go to S/<api>, others to composite. Then export, evaluate, DELETE.
    """
    if mode not in ("composite", "primitive"):
        raise ValueError(f"mode is composite or primitive, not {mode!r}")

    if record:
        sid = client.create_session(record=True, quality=quality, task_name=task_name)
    else:  # --no_recording: no query params at all
        sid = client.create_session(record=None, quality=None)
    run = TaskRun(session_id=sid)
    try:
        client.load_project(sid, initial_project)
        client.toggle_stage(sid)
        last: dict[str, Any] | None = None
        for turn in range(max_turns):
            png = client.screenshot(sid, size=None)
            obs = Observation(turn, sid, client, mode, png, last=last)
            if mode == "composite":
                obs.observed = client.composite(sid, "get_blocks_pseudocode")
                obs.blocks = obs.observed["data"]
            else:
                obs.elements = client.elements_batch(sid)["elements"]
            run.observations.append(obs)
            decided = agent(obs)
            if decided is None:
                decided = {"api": "done"}
            api = str(decided["api"])
            if api in CLIENT_SIDE_APIS:
                run.ended_by = api
                break
            args = dict(decided.get("args") or {})
            _resolve_indices(args, obs.elements)
            last = client.send(sid, api, args)
            run.turns.append(Turn({"api": api, "args": args}, last))
        name = export_name or f"{task_name}_{int(time.time())}.sb3"
        run.sb3 = client.export_project(sid, name)
        try:
            run.evaluation = client.evaluate(sid, task_name)
        except HttpError as exc:
            run.result = {"success": False, "partial_success_rate": 0, "error": str(exc)}
        else:
            if run.evaluation.get("status") == "failed":
                run.result = {
                    "success": False,
                    "partial_success_rate": 0,
                    "output": run.evaluation.get("stdout"),
                    "error": run.evaluation.get("error"),
                }
            else:
                result = run.evaluation.get("result")
                run.result = result if isinstance(result, dict) else {"success": False}
    finally:
        run.deleted = client.delete_session(sid)
    return run


# ---- the drag runner -------------------------------------------------------------------------
# Restores the workspace's zoom and scroll as the item recorded them (section 9, step 4).
WORKSPACE_RESTORE_FN = (
    "async ({ws, payload}) => {"
    " ws.setScale(payload.scale);"
    " ws.scroll(payload.scrollX, payload.scrollY);"
    " return {scale: ws.scale, scrollX: ws.scrollX, scrollY: ws.scrollY};"
    " }"
)
DRAG_DURATION = 0.5


@dataclass
class DragRun:
    """One drag item played as the published drag runner plays it."""

    item_id: str
    session_id: str
    passed: bool = False
    check_ok: bool = False
    drag: dict[str, Any] = field(default_factory=dict)  # the drag_and_drop envelope
    restore: dict[str, Any] | None = None  # custom_js data of the workspace restore
    target_id: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    sb3: bytes = b""


def connection_holds(
    config: Mapping[str, Any], blocks: Mapping[str, Any], target_id: str | None
) -> tuple[bool, dict[str, Any]]:
    """The drag runner's check (section 9, step 7) on get_blocks_structure's idToBlock."""
    ref_id = config.get("reference_block_id")
    kind = config.get("connection_type")
    ref = blocks.get(ref_id) if isinstance(ref_id, str) else None
    target = blocks.get(target_id) if target_id else None
    details: dict[str, Any] = {"connection_type": kind, "reference": ref, "target": target}
    if not isinstance(ref, dict) or not isinstance(target, dict):
        details["why"] = "target or reference block not on the canvas"
        return False, details

    def input_block(block: Mapping[str, Any], name: str | None) -> Any:
        inputs = block.get("inputs") or {}
        slot = inputs.get(name) if name else None
        return slot.get("block") if isinstance(slot, dict) else None

    ok = False
    if kind == "next":
        ok = ref.get("next") == target_id
    elif kind == "parent":
        # the dragged stack sits above the reference: walk its `next` chain to the reference
        tail = config.get("target_stack_tail_block_id")
        cur: Any = target_id
        found = None
        for _ in range(100):
            block = blocks.get(cur) if isinstance(cur, str) else None
            if not isinstance(block, dict):
                break
            if block.get("next") == ref_id:
                found = cur
                break
            cur = block.get("next")
        ok = found is not None and tail in (None, found)
    elif kind == "input":
        ok = input_block(ref, config.get("target_input_name")) == target_id
    elif kind == "substack_1":
        ok = input_block(ref, "SUBSTACK") == target_id
    elif kind == "substack_2":
        ok = input_block(ref, "SUBSTACK2") == target_id
    else:
        details["why"] = f"unknown connection_type {kind!r}"
        return False, details
    variable = config.get("target_variable_name") or config.get("variable_name")
    if ok and variable:
        field_ = (target.get("fields") or {}).get("VARIABLE")
        value = field_.get("value") if isinstance(field_, dict) else None
        ok = value == variable
        details["variable"] = value
    if not ok:
        details["why"] = f"{kind} connection not made"
    return ok, details


def _structure_blocks(client: SwClient, sid: str) -> dict[str, Any]:
    data = client.composite(sid, "get_blocks_structure")["data"]
    blocks = data.get("idToBlock")
    if not isinstance(blocks, dict):
        raise MalformedResponse("get_blocks_structure: no idToBlock", data)
    return blocks


def run_drag_item(
    client: SwClient,
    item_json: Mapping[str, Any] | Path,
    start: tuple[float, float] | list[float],
    end: tuple[float, float] | list[float],
    *,
    restore_fn: str = WORKSPACE_RESTORE_FN,
) -> DragRun:
    """One drag item in the drag runner's order (section 9); the session is always deleted.

    `start`/`end` stand for the model's answer (they are sent as given, whole floats too).
    Pass = the drag envelope's success and the connection check on get_blocks_structure.
    """
    item: Mapping[str, Any] = (
        json.loads(Path(item_json).read_text()) if isinstance(item_json, Path) else item_json
    )
    config: Mapping[str, Any] = item["evaluation_config"]

    sid = client.create_session(record=None, quality=None)
    run = DragRun(item_id=str(item.get("id")), session_id=sid)
    try:
        client.load_project(sid, item["init_project"])
        client.toggle_stage(sid)
        for key in ("switch_sprite_actions", "locate_target_actions"):
            for pre in config.get(key) or []:
                api, args = pre["api"], dict(pre.get("args") or {})
                if api in PRIMITIVES:
                    if api == "drag_and_drop":
                        args.setdefault("duration", DRAG_DURATION)
                    path = f"/sessions/{sid}/{api}"
                    resp = client.request("POST", path, body=args)
                else:
                    body = {"api": api, "args": args}
                    path = f"/sessions/{sid}/composite/execute"
                    resp = client.request(
                        "POST", path, body=body, timeout=client.at_least(COMPOSITE_TIMEOUT)
                    )
                if resp.status_code != 200:  # only the status is checked
                    raise HttpError("POST", path, resp.status_code, resp.text)
        state = config.get("workspace_state")

        def restore() -> dict[str, Any] | None:
            if not state:
                return None
            keys = ("tx", "ty", "scale", "scrollX", "scrollY", "transform")
            payload = {k: state.get(k) for k in keys}
            answer = client.composite(sid, "custom_js", {"fn": restore_fn, "payload": payload})
            return answer["data"]

        run.restore = restore()
        before: set[str] = set()
        if config.get("use_flyout"):
            before = set(_structure_blocks(client, sid))
        body = {"start_x": start[0], "start_y": start[1], "end_x": end[0], "end_y": end[1]}
        run.drag = client.action(sid, "drag_and_drop", **body)
        blocks = _structure_blocks(client, sid)
        target_id = config.get("target_block_id")
        if not target_id:
            opcode = config.get("target_block_opcode")
            fresh = [k for k, b in blocks.items() if k not in before and b.get("opcode") == opcode]
            target_id = fresh[0] if fresh else None
        run.target_id = target_id
        run.check_ok, run.details = connection_holds(config, blocks, target_id)
        run.passed = bool(run.drag.get("success")) and run.check_ok
        restore()
        client.screenshot(sid, size=None)
        client.elements_batch(sid)
        run.sb3 = client.export_project(sid, f"{run.item_id}_{int(time.time())}.sb3")
    finally:
        client.delete_session(sid)
    return run


__all__ = [
    "CLIENT_SELECTORS",
    "PRIMITIVES",
    "WORKSPACE_RESTORE_FN",
    "DragRun",
    "HttpError",
    "MalformedResponse",
    "Observation",
    "SwClient",
    "SwError",
    "TaskRun",
    "Turn",
    "centre",
    "check_envelope",
    "connection_holds",
    "png_size",
    "run_drag_item",
    "run_task",
]

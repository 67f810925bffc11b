"""The actions of a ScratchWorld session, as one studio episode's mode handler.

A published session takes primitive actions (SCRATCHWORLD_API.md section 3) and composite
calls (section 5) on the same page, so `SessionHandler` implements `ModeHandler` for both: the
episode validates each action with `parse` and runs it with `execute`, and records it as a
step like any other. What the envelope needs beyond the step (the arguments as run, the `data`)
is left in `last_reply`; a refusal is a `SwActionError` carrying the published error code.

- Primitive actions are real Playwright input at the 1280x720 page: a drag presses at the
  start, moves in max(10, int(duration * 30)) steps and releases; `move_to` uses the same
  steps; a scroll turns the wheel by `amount` pixels, moving the mouse first only when both x
  and y are given; keys go through `normalize_key` (the published aliases).
- Composite calls that the studio's composite mode has (add_block, connect_blocks, ...) run
  through `CompositeMode` on the block indexes of the session's last get_blocks_* call. An
  index call after the program changed, or before any get_blocks_*, is INVALID_STATE (the
  published server clears its index cache on every edit); an index the last call did not show
  is NOT_FOUND. run_project, stop_project and select_category are page calls.
- custom_js awaits the given function in the page, within `CUSTOM_JS_TIMEOUT_S`, only when
  the server allows it (`allow_custom_js`); otherwise it is UNSUPPORTED, except the drag
  runner's workspace restore (and the named `set_workspace_state`), which the studio's own
  page script performs (`seal`). A function that did not finish leaves the error flagged
  `page_stuck`, so the session can see whether its page still answers.
- The program is read for evaluation and export by `read_sb3`, through a reader captured at
  `setup` (before any agent call) that holds the VM and the functions it needs, not through
  a page global agent code could replace.
- The session's recorded mode is the first one it shows: a get_blocks_pseudocode or a
  composite edit makes it composite, elements_batch or a primitive action primitive.
"""

from __future__ import annotations

import asyncio
import base64
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from pydantic import BaseModel, ValidationError

from studio.models.action_parse import parse_action
from studio.models.agent import COMPOSITE_APIS as STUDIO_COMPOSITE_APIS
from studio.models.agent import ActionError, Mode, Observation
from studio.services.episodes.composite import INDEX_FIELDS, STALE, CompositeMode
from studio.services.episodes.modes import VIEWPORT, ActionOutcome
from studio.services.episodes.primitive import check_point, normalize_key
from studio.services.formats.scratchworld.server.schemas import PRIMITIVE_BODIES
from studio.services.formats.scratchworld.server.seal import (
    CUSTOM_JS_TIMEOUT_S,
    RESTORE_API,
    is_workspace_restore,
    restore_payload,
)
from studio.services.runtime import page_scripts
from studio.services.runtime.page_scripts import ELEMENTS, SCRATCHWORLD
from studio.services.runtime.page_seam import EditorPage

__all__ = [
    "ACTION_SETTLE_MS", "CATEGORY_SETTLE_MS", "COMPOSITE_APIS", "DRAG_STEPS_PER_S", "MAX_CODE",
    "MIN_DRAG_STEPS", "OBSERVATIONS", "PAGE_CONTROL", "PRIMITIVE_BODIES", "STUDIO_COMPOSITE",
    "WHEEL", "Reply", "SessionHandler", "SwAction", "SwActionError", "custom_js_data",
    "parse_primitive", "requested_args",
]  # fmt: skip

MIN_DRAG_STEPS = 10
DRAG_STEPS_PER_S = 30
ACTION_SETTLE_MS = 600
CATEGORY_SETTLE_MS = 3000  # the palette's scroll animation, on a busy machine
MAX_CODE = 100_000  # characters of a custom_js function
# the studio composite mode's APIs; done and failed stay with the client, as published
STUDIO_COMPOSITE = set(STUDIO_COMPOSITE_APIS) - {"done", "failed"}
PAGE_CONTROL = {"run_project", "stop_project", "select_category"}
OBSERVATIONS = {"get_blocks_pseudocode", "get_blocks_structure"}
COMPOSITE_APIS = STUDIO_COMPOSITE | PAGE_CONTROL | OBSERVATIONS | {"custom_js", RESTORE_API}
WHEEL = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


class SwActionError(ActionError):
    """A refused action, with the published error code (INVALID_ARG, NOT_FOUND, ...)."""

    def __init__(self, code: str, message: str, page_stuck: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.page_stuck = page_stuck


@dataclass
class SwAction:
    """A validated action: `kind` is "primitive" or "composite"; `args` as requested."""

    api: str
    args: dict[str, Any]
    kind: str


@dataclass
class Reply:
    executed: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)


def requested_args(body: BaseModel) -> dict[str, Any]:
    """The request's arguments with their defaults and without nulls (section 3)."""
    return body.model_dump(exclude_none=True)


def parse_primitive(api: str, raw: dict[str, Any]) -> BaseModel:
    """The body model of a primitive action; pydantic's ValidationError when ill-typed."""
    return PRIMITIVE_BODIES[api].model_validate(raw)


class SessionHandler:
    """Both interaction modes on one page (implements `ModeHandler`, plus `parse`)."""

    def __init__(
        self, allow_custom_js: bool = False, custom_js_timeout_s: float = CUSTOM_JS_TIMEOUT_S
    ) -> None:
        self.mode: Mode | None = None  # decided by the first call that shows it
        self.composite = CompositeMode()
        self.last_reply = Reply()
        self.allow_custom_js = allow_custom_js
        self.custom_js_timeout_s = custom_js_timeout_s
        self._reader: Any = None  # the handle of scratchworld.js's sealedReader()

    # ---- ModeHandler ------------------------------------------------------------------------
    async def setup(self, page: EditorPage) -> None:
        await self.composite.setup(page)
        await page_scripts.install(page, SCRATCHWORLD)
        if isinstance(page, page_scripts.HandlePage):  # captured before any agent call
            self._reader = await page_scripts.handle(page, SCRATCHWORLD, "sealedReader")

    async def read_sb3(self, page: EditorPage) -> bytes:
        """The program as .sb3 bytes, read by the reader captured at setup."""
        if self._reader is None:  # a page without handles (the window's own editor)
            b64 = await page_scripts.bridge(page, "saveProjectBase64")
        else:
            b64 = await page_scripts.call_handle(self._reader, "read")
        return base64.b64decode(b64)

    async def observe(self, page: EditorPage, step: int) -> Observation:
        """The composite view (what get_blocks_* answer from), indexes updated."""
        return await self.composite.observe(page, step)

    def parse(self, raw: dict[str, Any]) -> SwAction:
        api, args = raw.get("api"), raw.get("args") or {}
        if api in PRIMITIVE_BODIES:
            try:
                body = parse_primitive(str(api), args)
            except ValidationError as exc:
                raise SwActionError("INVALID_ARG", f"{api}: {exc.errors()[0]['msg']}") from None
            return SwAction(str(api), requested_args(body), "primitive")
        if api in COMPOSITE_APIS - OBSERVATIONS:
            return SwAction(str(api), dict(args), "composite")
        raise SwActionError("UNSUPPORTED", f"unsupported api {str(api)[:64]!r}")

    async def execute(self, page: EditorPage, action: SwAction) -> ActionOutcome:
        self.last_reply = Reply()
        if action.kind == "primitive":
            outcome = await self._primitive(page, action.api, action.args)
            await page_scripts.call(page, ELEMENTS, "settle", ACTION_SETTLE_MS, 2)
            return outcome
        if action.api == RESTORE_API or (
            action.api == "custom_js"
            and not self.allow_custom_js
            and is_workspace_restore(action.args)
        ):
            return await self._restore(page, action.args)
        if action.api == "custom_js":
            if not self.allow_custom_js:
                raise SwActionError(
                    "UNSUPPORTED",
                    "custom_js is off on this server: an agent changes the program through "
                    "the editor (the server's operator can start it with --allow-custom-js)",
                )
            return await self._custom_js(page, action.args)
        if action.api in PAGE_CONTROL:
            reply = await page_scripts.call(page, SCRATCHWORLD, "control", action.api, action.args)
            if "error" in reply:
                raise SwActionError("NOT_FOUND", str(reply["error"]))
            self.last_reply = Reply(action.args, reply)
            if action.api == "select_category":  # answer once the palette has scrolled there
                await page_scripts.call(page, ELEMENTS, "settle", CATEGORY_SETTLE_MS, 4)
            return ActionOutcome(target=str(reply.get("category") or action.api))
        return await self._composite(page, action)

    # ---- primitive --------------------------------------------------------------------------
    async def _primitive(self, page: EditorPage, api: str, args: dict[str, Any]) -> ActionOutcome:
        executed = dict(args)
        target: str | None = None
        if api in ("click", "double_click", "move_to"):
            x, y = self._point(page, args["x"], args["y"], "point")
            target = await page_scripts.call(page, ELEMENTS, "describeAt", x, y)
            if api == "click":
                await page.mouse.click(x, y, button=args["button"])
            elif api == "double_click":
                await page.mouse.dblclick(x, y, button=args["button"])
            else:
                steps = _steps(args["duration"])
                await page.mouse.move(x, y, steps=steps)
                executed["steps"] = steps
        elif api == "drag_and_drop":
            sx, sy = self._point(page, args["start_x"], args["start_y"], "drag start")
            ex, ey = self._point(page, args["end_x"], args["end_y"], "drag end")
            target = await page_scripts.call(page, ELEMENTS, "describeAt", sx, sy, True)
            steps = _steps(args["duration"])
            await page.mouse.move(sx, sy)
            await page.mouse.down()
            try:
                await page.mouse.move(ex, ey, steps=steps)
            finally:
                await page.mouse.up()
            executed["steps"] = steps
        elif api == "scroll":
            target = await self._scroll(page, args)
        elif api == "type":
            target = await page_scripts.call(page, ELEMENTS, "describeFocus")
            await page.keyboard.type(args["text"])
        else:
            target = await page_scripts.call(page, ELEMENTS, "describeFocus")
            executed.update(await _keys(page, api, args))
        self.last_reply = Reply(executed, {})
        return ActionOutcome(target=target, detail=executed)

    @staticmethod
    def _point(page: EditorPage, x: int, y: int, what: str) -> tuple[int, int]:
        size = page.viewport_size or VIEWPORT
        try:
            check_point(x, y, int(size["width"]), int(size["height"]), what)
        except ActionError as exc:
            raise SwActionError("ACTION_EXECUTION_ERROR", str(exc)) from None
        return x, y

    async def _scroll(self, page: EditorPage, args: dict[str, Any]) -> str | None:
        direction = str(args["direction"]).lower()
        if direction not in WHEEL:
            raise SwActionError(
                "INVALID_ARG", f"direction {args['direction']!r}: use up, down, left or right"
            )
        target = None
        if args.get("x") is not None and args.get("y") is not None:
            x, y = self._point(page, args["x"], args["y"], "scroll point")
            target = await page_scripts.call(page, ELEMENTS, "describeAt", x, y)
            await page.mouse.move(x, y)
        dx, dy = WHEEL[direction]
        await page.mouse.wheel(dx * args["amount"], dy * args["amount"])
        return target

    # ---- composite --------------------------------------------------------------------------
    async def _composite(self, page: EditorPage, action: SwAction) -> ActionOutcome:
        args = dict(action.args)
        if action.api == "delete_block" and "blockIndex" not in args and "index" in args:
            args["blockIndex"] = args.pop("index")
        if action.api == "add_variable":
            args.pop("cloud", None)
        try:
            parsed = parse_action({"api": action.api, "args": args}, Mode.COMPOSITE)
        except ActionError as exc:
            raise SwActionError("INVALID_ARG", str(exc)) from None
        before = _shown_value(self.composite.indexes, self.composite.last_snapshot, args)
        try:
            outcome = await self.composite.execute(page, parsed)
        except ActionError as exc:
            raise SwActionError(_code(str(exc), action.api), str(exc)) from None
        detail = {k: v for k, v in outcome.detail.items() if k not in ("success", "ok")}
        self.last_reply = Reply(args, _data(action.api, args, detail, before))
        if action.api in INDEX_FIELDS or action.api == "add_block":
            self.composite.indexes.version = -1  # edits clear the index cache (section 5)
        return outcome

    async def _custom_js(self, page: EditorPage, args: dict[str, Any]) -> ActionOutcome:
        code = args.get("fn") or args.get("function") or args.get("code")
        if not isinstance(code, str) or not code.strip():
            raise SwActionError("INVALID_JS_FN", "custom_js needs the source of a function in fn")
        if len(code) > MAX_CODE:
            raise SwActionError("INVALID_ARG", f"custom_js: fn over {MAX_CODE} characters")
        try:
            reply = await asyncio.wait_for(
                page_scripts.call(page, SCRATCHWORLD, "customJs", code, args.get("payload")),
                self.custom_js_timeout_s,
            )
        except TimeoutError:
            raise SwActionError(
                "CUSTOM_JS_ERROR",
                f"the function did not finish within {self.custom_js_timeout_s:g} s",
                page_stuck=True,
            ) from None
        except PlaywrightError as exc:
            raise SwActionError("JAVASCRIPT_ERROR", _first_line(exc)) from None
        if not reply.get("ok"):
            raise SwActionError(str(reply.get("code")), str(reply.get("message")))
        self.last_reply = Reply(dict(args), custom_js_data(reply.get("value")))
        return ActionOutcome(target="custom_js")

    async def _restore(self, page: EditorPage, args: dict[str, Any]) -> ActionOutcome:
        """The drag runner's workspace restore, by the studio's own page script."""
        payload = restore_payload(args)
        try:
            view = await page_scripts.call(page, SCRATCHWORLD, "restoreWorkspace", payload)
        except PlaywrightError as exc:
            raise SwActionError("JAVASCRIPT_ERROR", _first_line(exc)) from None
        self.last_reply = Reply(dict(args), dict(view))
        return ActionOutcome(target="workspace restore")


def custom_js_data(value: Any) -> dict[str, Any]:
    """A custom_js return value as `data` (section 5): an object minus success/api, a lone
    {result: {...}} unwrapped, a scalar or list as {value}, null as {}."""
    if value is None:
        return {}
    if isinstance(value, dict):
        if set(value) == {"result"} and isinstance(value["result"], dict):
            return dict(value["result"])
        return {k: v for k, v in value.items() if k not in ("success", "api")}
    return {"value": value}


def _steps(duration: float) -> int:
    return max(MIN_DRAG_STEPS, int(duration * DRAG_STEPS_PER_S))


async def _keys(page: EditorPage, api: str, args: dict[str, Any]) -> dict[str, Any]:
    """Press, hold or release keys; the executed names."""
    names = list(args["keys"]) if api == "hotkey" else [args["key"]]
    if not names or any(not str(k).strip() for k in names):
        raise SwActionError("INVALID_ARG", f"{api}: give at least one key name")
    keys = [normalize_key(str(k)) for k in names]
    held: list[str] = []
    try:
        if api == "key":
            await page.keyboard.press(keys[0])
        elif api == "hold_key":
            await page.keyboard.down(keys[0])
        elif api == "release_key":
            await page.keyboard.up(keys[0])
        else:
            for key in keys[:-1]:
                await page.keyboard.down(key)
                held.append(key)
            await page.keyboard.press(keys[-1])
    except PlaywrightError as exc:
        raise SwActionError("INVALID_ARG", f"{api}: unknown key ({_first_line(exc)})") from None
    finally:
        for key in reversed(held):
            await page.keyboard.up(key)
    return {"keys": keys} if api == "hotkey" else {"key": keys[0]}


def _code(message: str, api: str) -> str:
    if STALE in message or "observe first" in message or "no longer in the workspace" in message:
        return "INVALID_STATE"
    if message.startswith("no block #") or "no block #" in message:
        return "NOT_FOUND"
    return "ACTION_EXECUTION_ERROR"


def _shown_value(indexes: Any, snapshot: dict[str, Any], args: dict[str, Any]) -> Any:
    """The value a set_block_field's field showed in the last observation (None otherwise)."""
    index, name = args.get("blockIndex"), args.get("fieldName")
    block_id = indexes.ids.get(index) if isinstance(index, int) else None
    block = (snapshot.get("blocks") or {}).get(block_id) if block_id else None
    if not block:
        return None
    for f in block.get("fields") or []:
        if f.get("name") == name:
            return f.get("value")
    for i in block.get("inputs") or []:
        if i.get("name") == name and i.get("shadow"):
            fields = i["shadow"].get("fields") or []
            return fields[0].get("value") if fields else None
    return None


def _data(api: str, args: dict[str, Any], detail: dict[str, Any], before: Any) -> dict[str, Any]:
    """The `data` of a composite call, in the published shape of its api."""
    if api == "add_block":
        return {"blockId": detail.get("blockId"), "connected": False}
    if api in ("add_variable", "add_list"):
        return {"created": {**args, **detail}}
    if api == "set_block_field":
        return {
            "updated": True,
            "blockIndex": args.get("blockIndex"),
            "blockId": detail.get("blockId"),
            "fieldName": args.get("fieldName"),
            "value": args.get("value"),
            "originalValue": before,
            "translatedValue": detail.get("value", args.get("value")),
        }
    if api == "delete_block":
        return {
            "deleted": True,
            "index": args.get("blockIndex"),
            "blockId": detail.get("blockId"),
            "blockInfo": detail,
        }
    return detail


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__

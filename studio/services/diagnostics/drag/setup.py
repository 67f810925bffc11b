"""Preparing a published ScratchWorld drag item's screen as the published runner prepares it.

A published item's regions are screen points of one particular editor state, and the record
says how the runner reaches it (FORMATS.md section 5, SCRATCHWORLD_API.md section 9), in this
order, at a 1280x720 page:

1. load the project (in a fresh page, whose palette shows its top and whose mouse hovers
   nothing: a kept page's palette is scrolled back there, its mouse moved to (0, 0));
2. switch the editor to small stage mode (the "Switch to small stage" button);
3. `switch_sprite_actions`, then `locate_target_actions`: real input, `click {x, y}` and
   `scroll {direction, amount, x?, y?}` (a mouse wheel), in order;
3b. `pan_canvas_actions`: each a `custom_js` call `{fn, payload}` (the published generator's
   pan, whose payload may carry its own canvas transform), awaited in the page as the
   published server's custom_js awaits it, `fn({vm, SB, ws, payload, getVM, getWorkspace,
   getScratchBlocks})`, after the pre-actions and before the restore (the published drag
   runner never sends them: the restore below puts the screen where they left it, unless
   they changed more than the canvas transform, which only replaying them reproduces);
4. restore the workspace from `workspace_state`: zoom to `scale` first, then scroll to
   `(scrollX, scrollY)` (the canvas lands at `translate(tx, ty)`; when the scroll cannot get
   there, the canvas is translated there, as the published restore falls back to).

`published_setup(item)` reads those steps (`SETUP_KEYS`) from an item (None for an item the
studio made, whose screen is restored from its own `workspace_state`); `run_setup(page, ...)`
performs steps 2-3b on a Playwright page whose project is loaded (step 4 is drag-trials.js's
`view`, which also brings the screen back between trial drags). A step that fails names the
item, the step (`switch_sprite_actions[0]`, `pan_canvas_actions[0]`) and what went wrong: a
click that hits nothing, a pan function that does not parse (one that throws is a warning
naming its step, as for the published client, which checks only the HTTP status: the set-up
goes on). An item's `sprite` is a label, as for the published runner: the edited sprite is
compared with it case-insensitively, and a difference is a warning
(`PublishedSetup.warnings`), never a failed set-up.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from studio.models.drag_item import DragItem
from studio.services.diagnostics.drag.item import DragItemError
from studio.services.runtime import page_scripts
from studio.services.runtime.page_seam import EditorPage

__all__ = [
    "ACTION_KEYS", "PAN_KEY", "SETTLE_TIMEOUT_MS", "SETUP_KEYS", "WHEEL", "PublishedSetup",
    "SetupStep", "published_setup", "run_setup",
]  # fmt: skip

ACTION_KEYS = ("switch_sprite_actions", "locate_target_actions")
PAN_KEY = "pan_canvas_actions"
SETUP_KEYS = (*ACTION_KEYS, PAN_KEY)  # every set-up step of a published item, in order
WHEEL = {"down": (0, 1), "up": (0, -1), "right": (1, 0), "left": (-1, 0)}
SETTLE_TIMEOUT_MS = 5_000


@dataclass
class SetupStep:
    """One set-up step of a published item: `click`, `scroll` or `custom_js` (a pan: args
    `fn` and `payload`) with its arguments."""

    name: str  # e.g. "locate_target_actions[1]"
    api: str
    args: dict[str, Any]


@dataclass
class PublishedSetup:
    steps: list[SetupStep] = field(default_factory=list)
    sprite: str | None = None  # the sprite the item says is edited after the switch
    workspace: dict[str, Any] | None = None  # {tx, ty, scale, scrollX, scrollY, transform}
    warnings: list[str] = field(default_factory=list)  # what run_setup noticed, not errors


def _action(name: str, raw: Any) -> SetupStep:
    if not isinstance(raw, dict):
        raise DragItemError(f"{name}: not an action object")
    api = raw.get("api") or raw.get("type") or raw.get("action")
    given = raw.get("args")
    args = {k: v for k, v in raw.items() if k in ("x", "y", "direction", "amount")}
    if isinstance(given, dict):
        args.update(given)
    if name.startswith(PAN_KEY):
        code = args.get("fn") or args.get("function") or args.get("code") or raw.get("fn")
        if api != "custom_js" or not isinstance(code, str) or not code.strip():
            raise DragItemError(
                f"{name}: a pan is a custom_js call with a function (fn), not {api!r}"
            )
        payload = args.get("payload", raw.get("payload"))
        return SetupStep(name, "custom_js", {"fn": code, "payload": payload})
    if api not in ("click", "scroll"):
        raise DragItemError(f"{name}: unsupported action {api!r} (click and scroll are)")
    return SetupStep(name, str(api), args)


def published_setup(item: DragItem) -> PublishedSetup | None:
    """The published runner's set-up steps of `item`; None for an item made in the studio."""
    cfg = item.evaluation_config
    extra = cfg.model_extra or {}
    ws_extra = cfg.workspace_state.model_extra or {}
    published_ws = "scrollX" in ws_extra or "tx" in ws_extra
    if not published_ws and not any(k in extra for k in SETUP_KEYS):
        return None
    setup = PublishedSetup()
    for key in SETUP_KEYS:
        actions = extra.get(key) or []
        if not isinstance(actions, list):
            raise DragItemError(f"item {item.id}: {key} is not a list")
        for i, raw in enumerate(actions):
            try:
                setup.steps.append(_action(f"{key}[{i}]", raw))
            except DragItemError as exc:
                raise DragItemError(f"item {item.id}: {exc}") from None
    sprite = item.sw_extra.get("sprite")
    setup.sprite = sprite if isinstance(sprite, str) and sprite else None
    if published_ws:
        setup.workspace = {
            k: ws_extra.get(k) for k in ("tx", "ty", "scrollX", "scrollY", "transform")
        }
        setup.workspace["scale"] = cfg.workspace_state.scale
    return setup


async def run_setup(page: EditorPage, setup: PublishedSetup, item_id: str) -> None:
    """The palette at its top, small stage mode, then each pre-action as real input (the
    project is loaded)."""
    # the published runner opens a fresh page per item, whose palette is at its top and whose
    # mouse is at (0, 0), hovering nothing (a kept window's still lights up what an earlier
    # item clicked, a category in the menu)
    await page.mouse.move(0, 0)
    await page_scripts.call(page, page_scripts.DRAG, "paletteTop")
    helpers = page_scripts.HELPERS
    clicked = await page_scripts.call(page, helpers, "clickSmallStage")
    if not clicked or not await page_scripts.call(page, helpers, "smallStageShown", 0):
        raise DragItemError(f"item {item_id}: small stage: the editor did not switch to it")
    # a kept window's category menu follows the palette's scroll back to its top a few frames
    # later: the screen is read (and remembered as the item's) only once it stopped
    await page_scripts.call(page, page_scripts.DRAG, "still", SETTLE_TIMEOUT_MS)
    for step in setup.steps:
        try:
            await _perform(page, step, item_id)
        except _PanThrew as threw:
            setup.warnings.append(str(threw))
            logging.getLogger(__name__).warning("%s", threw)
        await page_scripts.call(page, page_scripts.DRAG, "still", SETTLE_TIMEOUT_MS)
        if step.name.startswith("switch_sprite_actions") and setup.sprite:
            _compare_sprite(setup, await _editing(page), item_id, step.name)
    if not setup.steps and setup.sprite:
        _compare_sprite(setup, await _editing(page), item_id, "with no pre-actions")


class _PanThrew(Exception):
    """A pan function that ran and threw (a warning of the set-up, not a failure)."""


async def _editing(page: EditorPage) -> Any:
    """The name of the sprite the editor edits (None for none)."""
    return await page_scripts.call(page, page_scripts.EDITOR, "editingSprite")


def _compare_sprite(setup: PublishedSetup, editing: Any, item_id: str, when: str) -> None:
    """An item's `sprite` is a label (the published runner never compares it): a name that
    differs from the edited sprite's beyond letter case is a warning, not a failed set-up."""
    wanted = setup.sprite or ""
    if isinstance(editing, str) and editing.casefold() == wanted.casefold():
        return
    warning = (
        f"item {item_id}: {when}: the editor edits {editing!r}, the item's sprite label says "
        f"{wanted!r}"
    )
    setup.warnings.append(warning)
    logging.getLogger(__name__).warning(warning)


async def _perform(page: EditorPage, step: SetupStep, item_id: str) -> None:
    args = step.args
    if step.api == "custom_js":
        out = await page_scripts.call(page, page_scripts.DRAG, "pan", args["fn"], args["payload"])
        if out.get("ok"):
            return
        problem = f"item {item_id}: {step.name}: the pan function {out.get('code')}: "
        if out.get("code") == "INVALID_JS_FN":  # nothing the published page could run either
            raise DragItemError(problem + f"{out.get('message')}")
        # a function that throws answers 200 {success: false} and the published client checks
        # only the status: the set-up goes on from where the function left the screen
        raise _PanThrew(problem + f"{out.get('message')} (the set-up goes on, as published)")
    x, y = args.get("x"), args.get("y")
    point = (x, y) if isinstance(x, int | float) and isinstance(y, int | float) else None
    if step.api == "click":
        if point is None:
            raise DragItemError(f"item {item_id}: {step.name}: a click needs x and y")
        # the element the click lands on, described; None when it lands on nothing
        if await page_scripts.call(page, page_scripts.EDITOR, "hitAt", x, y) is None:
            raise DragItemError(
                f"item {item_id}: {step.name}: the click at ({x}, {y}) hits nothing"
            )
        await page.mouse.click(*point)
        return
    direction = str(args.get("direction", "")).lower()
    if direction not in WHEEL:
        raise DragItemError(f"item {item_id}: {step.name}: scroll direction {direction!r}")
    amount = float(args.get("amount", 100))
    if point is not None:
        await page.mouse.move(*point)
    dx, dy = WHEEL[direction]
    await page.mouse.wheel(dx * amount, dy * amount)
    await asyncio.sleep(0)  # the wheel event is dispatched before the page is read again

"""Composite mode: the agent reads the program as indexed pseudocode and edits it by API.

The work happens in the editor page (resources/js/composite.js) on the Blockly workspace, so
the editor shows every change and the VM follows through its usual workspace listener. This
handler keeps, per episode, the index -> block id map and the program version of the last
observation: an index-based action taken after the program changed is refused ("observe
again"), as is an index the last observation did not show.

Semantics (what the APIs do, beyond FORMATS.md section 4):
- `add_block` takes the block as the palette offers it (default shadows and values included)
  and puts it on the canvas where it overlaps no script. `data_variable` and
  `data_listcontents` need an existing variable or list (`add_variable` / `add_list` first).
- `connect_blocks` moves the source block together with the blocks below it (as a drag in the
  editor does). `stack_after`: below the target; what hung below the target goes to the end of
  the moved stack. `stack_before`: above the target, taking its place. `statement_into` with
  `inputName` SUBSTACK or SUBSTACK2: first in that C-slot, earlier content after the moved
  stack. `value_into` with an input name: a reporter into that input (a block already there is
  pushed out onto the canvas). `wrap`: the source C-block takes the target's place and the
  target with the blocks below it goes into its first C-slot (or `inputName`).
- `detach_blocks` takes the block and the blocks below it off to a free spot of the canvas.
- `delete_block` deletes the block with everything nested in it (inputs and C-slots); the
  blocks below it close up (the editor's "Delete Block").
- `set_block_field` sets a field (dropdown, variable, text) by name, or an input's own value
  by the input's name: `{"blockIndex": 4, "fieldName": "STEPS", "value": 10}` types 10 into
  the number slot of "move (10) steps"; a menu input (e.g. TO of motion_goto) takes one of
  the choices shown. Numbers are checked; a dropdown accepts a choice's value or its label.
  A broadcast menu accepts a new message name (the message is created).

`execute` dispatches through `COMPOSITE_ACTIONS` (episodes.action_table), one entry per kind
of `COMPOSITE_APIS`: every edit is composite.js's `run` on the page (`CompositeMode.edit`),
and the entry says what the outcome names (the indexed block, the new block's opcode, the
selected target, the new variable or list).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from studio.models.agent import (
    COMPOSITE_APIS,
    ActionError,
    AddBlock,
    AddList,
    AddVariable,
    ConnectBlocks,
    DeleteBlock,
    DetachBlocks,
    Mode,
    Observation,
    SelectSprite,
    SelectStage,
    SetBlockField,
)
from studio.services.episodes.action_table import ENDS_EPISODE, ActionTable, handles
from studio.services.episodes.catalog import check_opcode
from studio.services.episodes.composite_view import render_observation
from studio.services.episodes.modes import ActionOutcome
from studio.services.runtime import page_scripts
from studio.services.runtime.page_seam import EditorPage

__all__ = [
    "COMPOSITE_ACTIONS", "INDEX_FIELDS", "STALE", "CompositeEdit", "CompositeMode", "IndexMap",
    "Naming",
]  # fmt: skip

STALE = "the program changed since your last observation; observe again"
INDEX_FIELDS = {
    "connect_blocks": ("sourceBlockIndex", "targetBlockIndex"),
    "detach_blocks": ("blockIndex",),
    "set_block_field": ("blockIndex",),
    "delete_block": ("blockIndex",),
}
_ID_NAMES = {
    "sourceBlockIndex": "sourceId",
    "targetBlockIndex": "targetId",
    "blockIndex": "blockId",
}


class IndexMap:
    """Index -> block id of the last observation, and the program version it showed."""

    def __init__(self) -> None:
        self.ids: dict[int, str] = {}
        self.opcodes: dict[int, str] = {}
        self.version: int | None = None

    def update(self, version: int, blocks: list[Any]) -> None:
        self.version = version
        self.ids = {b.index: b.id for b in blocks}
        self.opcodes = {b.index: b.opcode for b in blocks}

    def resolve(self, index: int) -> str:
        if self.version is None:
            raise ActionError("block indexes refer to an observation: observe first")
        if index not in self.ids:
            shown = f"#1 to #{len(self.ids)}" if self.ids else "no blocks"
            raise ActionError(f"no block #{index} in the last observation (it showed {shown})")
        return self.ids[index]

    def label(self, index: int) -> str:
        return f"#{index} {self.opcodes.get(index, '?')}"


class CompositeMode:
    """The composite-mode handler of one episode (implements `ModeHandler`)."""

    mode = Mode.COMPOSITE

    def __init__(self) -> None:
        self.indexes = IndexMap()
        self.last_snapshot: dict[str, Any] = {}  # the page's snapshot behind the last observation

    async def setup(self, page: EditorPage) -> None:
        await page_scripts.install(page, page_scripts.COMPOSITE)

    async def observe(self, page: EditorPage, step: int) -> Observation:
        snapshot = await page_scripts.call(page, page_scripts.COMPOSITE, "snapshot")
        text, blocks = render_observation(snapshot)
        self.last_snapshot = snapshot
        self.indexes.update(int(snapshot["version"]), blocks)
        return Observation(
            mode=Mode.COMPOSITE,
            step=step,
            text=text,
            version=int(snapshot["version"]),
            editing_target=snapshot.get("target"),
            blocks=blocks,
        )

    def request(self, action: Any) -> tuple[dict[str, Any], str | None]:
        """The page request for a validated action, and the label of the block it acts on."""
        args = action.args.model_dump(exclude_none=True)
        if action.api == "add_block":
            problem = check_opcode(args["blockType"])
            if problem:
                raise ActionError(problem)
        request: dict[str, Any] = {"api": action.api, "args": args}
        label = None
        fields = INDEX_FIELDS.get(action.api, ())
        for name in fields:
            args[_ID_NAMES[name]] = self.indexes.resolve(int(args.pop(name)))
        if fields:
            request["expectVersion"] = self.indexes.version
            label = self.indexes.label(int(getattr(action.args, fields[0])))
        return request, label

    async def execute(self, page: EditorPage, action: Any) -> ActionOutcome:
        """Perform a validated composite action through `COMPOSITE_ACTIONS`."""
        return await COMPOSITE_ACTIONS.perform(self, page, action.api, action)

    async def edit(self, page: EditorPage, action: CompositeEdit, name: Naming) -> ActionOutcome:
        """Send `action` to the page's composite.js (`run`); the outcome's target is what
        `name` makes of the request's arguments, the page's detail and the indexed block's
        label, followed by the id of the block the page acted on."""
        try:
            request, label = self.request(action)
        except ActionError:
            if self.indexes.version is not None and action.api in INDEX_FIELDS:
                version = await page_scripts.call(page, page_scripts.COMPOSITE, "version")
                if version != self.indexes.version:
                    raise ActionError(f"{action.api}: {STALE}") from None
            raise
        reply = await page_scripts.call(page, page_scripts.COMPOSITE, "run", request)
        if not reply.get("ok"):
            raise ActionError(f"{action.api}: {reply.get('error') or 'refused'}")
        detail = dict(reply.get("detail") or {})
        label = name(request["args"], detail, label)
        if "blockId" in detail and label:
            label = f"{label} ({detail['blockId']})"
        return ActionOutcome(target=label, detail=detail)


# What an edit's outcome names: (request args, the page's detail, the indexed block's label).
Naming = Callable[[dict[str, Any], dict[str, Any], str | None], str | None]
CompositeEdit = (
    SelectSprite
    | SelectStage
    | AddVariable
    | AddList
    | AddBlock
    | ConnectBlocks
    | DetachBlocks
    | SetBlockField
    | DeleteBlock
)


def _edit(
    name: Naming,
) -> Callable[[CompositeMode, EditorPage, CompositeEdit], Awaitable[ActionOutcome]]:
    """The table's handler of an edit whose outcome `name` names."""

    async def run(mode: CompositeMode, page: EditorPage, action: CompositeEdit) -> ActionOutcome:
        return await mode.edit(page, action, name)

    return run


def _indexed(args: dict[str, Any], detail: dict[str, Any], label: str | None) -> str | None:
    return label  # the block the action's index named ("#2 motion_movesteps")


def _new_block(args: dict[str, Any], detail: dict[str, Any], label: str | None) -> str | None:
    return f"new {args['blockType']}"


def _target(args: dict[str, Any], detail: dict[str, Any], label: str | None) -> str | None:
    return str(detail.get("target"))


def _data_name(args: dict[str, Any], detail: dict[str, Any], label: str | None) -> str | None:
    return str(args["name"])


# Each composite action kind of the models (`COMPOSITE_APIS`) and what performs it: every edit
# is composite.js's `run` on the page, named as its kind says.
COMPOSITE_ACTIONS: ActionTable[CompositeMode] = ActionTable(
    {
        "select_sprite": handles(SelectSprite, _edit(_target)),
        "select_stage": handles(SelectStage, _edit(_target)),
        "add_variable": handles(AddVariable, _edit(_data_name)),
        "add_list": handles(AddList, _edit(_data_name)),
        "add_block": handles(AddBlock, _edit(_new_block)),
        "connect_blocks": handles(ConnectBlocks, _edit(_indexed)),
        "detach_blocks": handles(DetachBlocks, _edit(_indexed)),
        "set_block_field": handles(SetBlockField, _edit(_indexed)),
        "delete_block": handles(DeleteBlock, _edit(_indexed)),
        "done": ENDS_EPISODE,
        "failed": ENDS_EPISODE,
    }
)
COMPOSITE_ACTIONS.check(COMPOSITE_APIS, "composite")

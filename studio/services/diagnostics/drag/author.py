"""Authoring drag items from the editor's current state.

A labeler picks the block to drag by clicking it (on the canvas or in the palette) and the
reference block by clicking it, and chooses the connection (next, parent, input with its name,
substack 1 or 2). `pick_at` says what a click at a point picked; `author_item` stores the
project, the screen (target, palette category, zoom, scroll), the boxes of both blocks, a
screenshot and a suggested instruction that the labeler may edit.

`prepare_from_project` builds such a state headlessly: load a project, put the editor in its
known layout and optionally take a block out of its place first (how the shipped items were
made from the bundled tasks' golden projects).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.models.drag_item import (
    Box,
    ConnectionType,
    DragItem,
    EvaluationConfig,
    WorkspaceState,
    category_of,
)
from studio.services.diagnostics.drag.item import DragItemError, ItemFolder, write_item
from studio.services.runtime import page_scripts
from studio.services.runtime.page_scripts import COMPOSITE, DRAG, EDITOR
from studio.services.runtime.page_seam import EditorPage
from studio.services.runtime.server import EditorServer

__all__ = [
    "INPUT_WORDS", "LABELS", "PLACES", "Pick", "author_item", "pick_at", "prepare_from_project",
    "save_authored", "suggest_instruction",
]  # fmt: skip


@dataclass
class Pick:
    """What a click picked: a canvas block (id) or a palette block (opcode, index)."""

    kind: str  # canvas | flyout | none
    opcode: str | None = None
    block_id: str | None = None
    flyout_index: int = 0


async def pick_at(page: EditorPage, x: float, y: float) -> Pick:
    owner = (await page_scripts.call(page, DRAG, "ownersAt", [[x, y]]))[0]
    kind = owner.get("kind", "none")
    if kind == "canvas":
        return Pick("canvas", owner.get("opcode"), owner.get("id"))
    if kind == "flyout":
        return Pick("flyout", owner.get("opcode"), None, int(owner.get("index") or 0))
    return Pick("none")


PLACES = {
    ConnectionType.NEXT: "directly below the '{ref}' block to connect them",
    ConnectionType.PARENT: "directly above the '{ref}' block to connect them",
    ConnectionType.INPUT: "into the {input} input slot of the '{ref}' block",
    ConnectionType.SUBSTACK_1: "into the substack of the '{ref}' block",
    ConnectionType.SUBSTACK_2: "into the second (else) substack of the '{ref}' block",
}


LABELS = {  # blocks whose words on screen are not all text (an icon stands for a word)
    "event_whenflagclicked": "when green flag clicked",
    "motion_turnright": "turn right degrees",
    "motion_turnleft": "turn left degrees",
}
INPUT_WORDS = {"OPERAND1": "first", "OPERAND2": "second", "NUM1": "first", "NUM2": "second"}


def suggest_instruction(
    target_label: str,
    reference_label: str,
    connection: ConnectionType,
    input_name: str | None,
    from_palette: bool,
) -> str:
    """An instruction in the seed paper's style; the labeler can edit it."""
    slot = INPUT_WORDS.get(input_name or "", (input_name or "").lower())
    where = PLACES[connection].format(ref=reference_label, input=slot)
    source = " from the block palette" if from_palette else ""
    return f"Drag the '{target_label}' block{source} and place it {where}."


async def author_item(
    page: EditorPage,
    item_id: str,
    target: Pick,
    reference_id: str,
    connection: ConnectionType,
    input_name: str | None = None,
    instruction: str | None = None,
) -> tuple[DragItem, bytes, bytes]:
    """An item for the page's current state, its project (.sb3) and its screenshot (PNG)."""
    if target.kind not in ("canvas", "flyout") or not target.opcode:
        raise DragItemError("pick the block to drag on the canvas or in the palette")
    if connection is ConnectionType.INPUT and not input_name:
        raise DragItemError("an input connection needs the input's name")
    view = await page_scripts.call(page, DRAG, "viewState")
    ref_opcode = await page_scripts.call(page, EDITOR, "blockType", reference_id)
    if not ref_opcode:
        raise DragItemError(f"the reference block {reference_id} is not in the workspace")
    cfg = EvaluationConfig(
        target_block_opcode=target.opcode,
        target_block_id=target.block_id,
        reference_block_id=reference_id,
        reference_block_opcode=ref_opcode,
        connection_type=connection,
        target_input_name=input_name,
        workspace_state=WorkspaceState(**view),
        source="flyout" if target.kind == "flyout" else "canvas",
        flyout_index=target.flyout_index,
    )
    probe = DragItem(
        id=item_id, category=category_of(connection), instruction="x", evaluation_config=cfg
    )
    geometry = await page_scripts.call(page, DRAG, "geometry", probe.spec)
    if "error" in geometry:
        raise DragItemError(f"item {item_id}: {geometry['error']}")
    if await page_scripts.call(page, DRAG, "vmRelation", probe.spec):
        raise DragItemError(f"item {item_id}: the blocks are already connected that way")
    cfg.target_box = Box(**geometry["source_box"])
    cfg.reference_box = Box(**geometry["reference_box"])
    if instruction is None:
        t_label = await page_scripts.call(
            page, DRAG, "label", target.block_id, target.opcode, target.flyout_index
        )
        r_label = await page_scripts.call(page, DRAG, "label", reference_id)
        instruction = suggest_instruction(
            LABELS.get(target.opcode) or t_label or target.opcode,
            LABELS.get(ref_opcode) or r_label or ref_opcode,
            connection,
            input_name,
            target.kind == "flyout",
        )
    sb3 = base64.b64decode(await page_scripts.bridge(page, "saveProjectBase64"))
    png = await page.screenshot(type="png")
    item = probe.model_copy(update={"instruction": instruction})
    return item, sb3, png


async def prepare_from_project(
    page: EditorPage,
    server: EditorServer,
    project: Path,
    target: str | None = None,
    detach: str | None = None,
    offset: tuple[float, float] = (0.0, 0.0),
    category: str | None = None,
) -> dict[str, Any]:
    """Load `project`, lay the editor out, optionally take block `detach` out by `offset`."""
    data = base64.b64encode(project.read_bytes()).decode("ascii")
    await page_scripts.bridge(page, "loadProjectBase64", data, project.name, project.name)
    await page_scripts.call(page, COMPOSITE, "layout")
    await page_scripts.call(page, EDITOR, "pauseVm")
    view: dict[str, Any] = await page_scripts.call(page, DRAG, "viewState")
    if target:
        view["target"] = target
    if category:
        view["category"] = category
    await page_scripts.call(page, DRAG, "view", view)
    if detach:
        await page_scripts.call(page, DRAG, "detach", detach, *offset)
    result: dict[str, Any] = await page_scripts.call(page, DRAG, "viewState")
    return result


def save_authored(folder: Path, item: DragItem, project: bytes, screenshot: bytes) -> ItemFolder:
    return write_item(folder, item, project, screenshot)

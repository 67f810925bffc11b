"""Text mode (the text track): the agent reads the task, and for debug and extend tasks the
program, as scratchblocks text, and answers with scratchblocks text.

Observation: `Observation.text` (`text_view`): the task's category and instruction, then the
editor's whole program as `studio blocks text` writes it (debug and extend tasks), or only its
targets' markers (create and compute tasks), then how to answer.

Action: `apply_text` (`models.text_action`). The answer is built into the program the editor
holds (`core.blocktext.project_text.build_into`, on the editor's own .sb3): each target the
text marks (`// stage`, `// sprite: NAME`) gets its scripts replaced by the text's, the others
are kept; text before the first marker goes to `args.sprite`, else to the project's only
sprite. What the text names and the project lacks (variables, lists, messages, a sprite,
costumes and sounds as stubs) is created. The built program replaces the editor's through its
VM's load (the bridge's `loadProjectBase64`, which puts the previous program back if the VM
refuses it). The built blocks take the ids of the blocks they correspond to in the program
before (`core.align_ids`: only ids change), so that a block the answer keeps keeps its id: the
step's change record, and the repair measures of a debug episode (d_edit against the minimal
fix), read the answer as the edits it amounts to. A text with a line that cannot be placed is
an `ActionError` listing every such line with its number in the answer: the step is refused,
recorded as a failed step, and the program stays exactly as it was. So is unmarked text when
the project has several sprites and `args.sprite` names none, and a text with no blocks and no
marker. `done` and `failed` end the episode; the task's evaluation script judges the program
it ends with.
"""

from __future__ import annotations

import asyncio
import base64
from typing import Any

from studio.models.agent import ActionError, Mode, Observation
from studio.models.text_action import TEXT_APIS, ApplyText
from studio.services.core.align_ids import align_ids
from studio.services.core.blocks import target_name
from studio.services.core.blocktext.project_text import BlockTextError, build_into, split_targets
from studio.services.core.sb3 import read_project_json
from studio.services.core.sb3_swap import with_project_json
from studio.services.core.store import TaskFolder
from studio.services.episodes.action_table import ENDS_EPISODE, ActionTable, handles
from studio.services.episodes.modes import ActionOutcome
from studio.services.episodes.text_view import render_text_view
from studio.services.runtime import page_scripts
from studio.services.runtime.page_seam import EditorPage

__all__ = ["TEXT_ACTIONS", "TextMode", "unmarked_target"]

_EDITOR_SB3 = "the editor's program"
_SOURCE = "apply_text: the answer"


def unmarked_target(project: dict[str, Any], text: str, sprite: str | None) -> str | None:
    """The sprite the text's unmarked lines go to: `sprite`, else the project's only sprite;
    None when every line is under a marker. ActionError when unmarked lines have nowhere to
    go, or the text holds nothing at all."""
    parts = split_targets(text)
    if not parts:
        raise ActionError(
            "apply_text: the text holds no block and marks no target; write scripts, under "
            "`// sprite: NAME` or `// stage`"
        )
    if all(part.name is not None for part in parts) or sprite is not None:
        return sprite
    sprites = [target_name(t) for t in project["targets"] if not t.get("isStage")]
    if len(sprites) == 1:
        return sprites[0]
    first = next(p.first_line for p in parts if p.name is None)
    raise ActionError(
        f"apply_text: line {first}: the text before the first marker belongs to no target: "
        f"the project has {len(sprites)} sprites ({', '.join(sprites) or 'none'}); start with "
        "`// sprite: NAME` or `// stage`, or give args.sprite"
    )


class TextMode:
    """The text-mode handler of one episode (implements `ModeHandler`)."""

    mode = Mode.TEXT

    def __init__(self, task: TaskFolder | None = None) -> None:
        self.task = task

    async def setup(self, page: EditorPage) -> None:
        """Nothing to install: the program is read through the editor's own reads."""

    async def observe(self, page: EditorPage, step: int) -> Observation:
        project: dict[str, Any] = await page_scripts.call(page, page_scripts.EDITOR, "program")
        task = self.task.task if self.task is not None else None
        return Observation(mode=Mode.TEXT, step=step, text=render_text_view(project, task))

    async def execute(self, page: EditorPage, action: Any) -> ActionOutcome:
        """Perform a validated text-mode action through `TEXT_ACTIONS`."""
        return await TEXT_ACTIONS.perform(self, page, action.api, action)

    async def apply(self, page: EditorPage, action: ApplyText) -> ActionOutcome:
        """Build the answer into the editor's program, or refuse it and change nothing."""
        text = action.args.text
        sb3 = base64.b64decode(await page_scripts.bridge(page, "saveProjectBase64"))
        project = read_project_json(sb3, _EDITOR_SB3)
        sprite = unmarked_target(project, text, action.args.sprite)
        try:
            built = await asyncio.to_thread(
                build_into, sb3, _EDITOR_SB3, text, _SOURCE, sprite or "Sprite1"
            )
        except BlockTextError as exc:
            raise ActionError(str(exc)) from None
        aligned = align_ids(project, read_project_json(built.data, _EDITOR_SB3))
        data = base64.b64encode(with_project_json(built.data, aligned, _EDITOR_SB3)).decode()
        title = self.task.task.id if self.task is not None else "answer"
        try:
            await page_scripts.bridge(page, "loadProjectBase64", data, "answer.sb3", title)
        except Exception as exc:  # the bridge put the previous program back
            raise ActionError(
                f"apply_text: the editor's VM refused the built program ({exc}); "
                "nothing was applied"
            ) from None
        parts = split_targets(text)
        targets = sorted({"Stage" if p.is_stage else (p.name or sprite or "") for p in parts})
        return ActionOutcome(
            target=f"text of {built.scripts} scripts into {', '.join(targets)}",
            detail={"scripts": built.scripts, "targets": targets, "created": built.created},
        )


async def _apply(mode: TextMode, page: EditorPage, action: ApplyText) -> ActionOutcome:
    return await mode.apply(page, action)


# Each text-mode action kind (`TEXT_APIS`) and what performs it.
TEXT_ACTIONS: ActionTable[TextMode] = ActionTable(
    {
        "apply_text": handles(ApplyText, _apply),
        "done": ENDS_EPISODE,
        "failed": ENDS_EPISODE,
    }
)
TEXT_ACTIONS.check(TEXT_APIS, "text")

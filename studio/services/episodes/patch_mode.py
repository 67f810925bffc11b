"""Patch mode (the repair track): the agent reads the program and a bug report and answers
with a patch of atomic block edits.

Observation: the editor's program (its VM's `toJSON()`) as text with block ids and the bug
report (`patch_view`), with the program's blocks per sprite (`Observation.program`) and the
report (`Observation.report`) in structured form. The report is the `report` of the task's bug
record (`bug.json`, written by the forge: symptom, expected behaviour, trigger, triggers); a task
without one has none, and the agent works from the task's instruction.

Action: `apply_patch` with the edits of `studio.models.patch` (see `models.patch_action`).
The patch is applied in Python to the program the editor holds (`core.patch.apply_patch`, on
the project.json of the editor's own .sb3) and the patched program replaces the editor's through
its VM's load (the bridge's `loadProjectBase64`, which puts the previous project back if the VM
refuses the new one). A patch that is malformed or does not apply (an unknown sprite or block
id, a link that is not there, a cycle, an opcode that does not exist, a field of the wrong
kind) is an `ActionError` naming the edit by its number: the step is refused, recorded as a
failed step, and the program stays exactly as it was. `done` and `failed` end the episode.
"""

from __future__ import annotations

import base64
from typing import Any

from studio.models.agent import ActionError, Mode, Observation
from studio.models.forge import BUG_FILE, BugRecord
from studio.models.patch import PatchError
from studio.models.patch_action import PATCH_APIS, ApplyPatch
from studio.services.core.errors import TaskFileError
from studio.services.core.patch import apply_patch, parse_patch
from studio.services.core.sb3 import read_project_json
from studio.services.core.sb3_swap import with_project_json
from studio.services.core.store import TaskFolder
from studio.services.episodes.action_table import ENDS_EPISODE, ActionTable, handles
from studio.services.episodes.modes import ActionOutcome
from studio.services.episodes.patch_view import program_by_target, render_patch_view
from studio.services.runtime import page_scripts
from studio.services.runtime.page_seam import EditorPage

__all__ = ["PATCH_ACTIONS", "PatchMode", "bug_report"]

_EDITOR_SB3 = "the editor's program"


def bug_report(task: TaskFolder | None) -> dict[str, Any] | None:
    """The model-facing report of the task's bug record (None without `bug.json`);
    TaskFileError naming the file when it is not a valid bug record."""
    if task is None:
        return None
    path = task.folder / BUG_FILE
    if not path.is_file():
        return None
    try:
        record = BugRecord.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TaskFileError(path, f"not a valid bug record: {exc}") from None
    return record.report.model_dump()


class PatchMode:
    """The patch-mode handler of one episode (implements `ModeHandler`)."""

    mode = Mode.PATCH

    def __init__(self, task: TaskFolder | None = None) -> None:
        self.task = task
        self.report = bug_report(task)

    async def setup(self, page: EditorPage) -> None:
        """Nothing to install: the program is read through the editor's own reads."""

    async def observe(self, page: EditorPage, step: int) -> Observation:
        project: dict[str, Any] = await page_scripts.call(page, page_scripts.EDITOR, "program")
        return Observation(
            mode=Mode.PATCH,
            step=step,
            text=render_patch_view(project, self.report),
            program=program_by_target(project),
            report=self.report,
        )

    async def execute(self, page: EditorPage, action: Any) -> ActionOutcome:
        """Perform a validated patch-mode action through `PATCH_ACTIONS`."""
        return await PATCH_ACTIONS.perform(self, page, action.api, action)

    async def apply(self, page: EditorPage, action: ApplyPatch) -> ActionOutcome:
        """Apply the whole patch to the editor's program, or refuse it and change nothing."""
        try:
            edits = parse_patch(action.args.edits)
        except PatchError as exc:
            raise ActionError(f"apply_patch: {exc}") from None
        sb3 = base64.b64decode(await page_scripts.bridge(page, "saveProjectBase64"))
        project = read_project_json(sb3, _EDITOR_SB3)
        try:
            patched = apply_patch(project, edits)
        except PatchError as exc:
            raise ActionError(f"apply_patch: {exc}; nothing was applied") from None
        data = base64.b64encode(with_project_json(sb3, patched, _EDITOR_SB3)).decode("ascii")
        title = self.task.task.id if self.task is not None else "patched"
        try:
            await page_scripts.bridge(page, "loadProjectBase64", data, "patched.sb3", title)
        except Exception as exc:  # the bridge put the previous program back
            raise ActionError(
                f"apply_patch: the editor's VM refused the patched program ({exc}); "
                "nothing was applied"
            ) from None
        sprites = sorted({e.sprite for e in edits})
        return ActionOutcome(
            target=f"patch of {len(edits)} edits on {', '.join(sprites)}",
            detail={"edits": len(edits), "sprites": sprites},
        )


async def _apply(mode: PatchMode, page: EditorPage, action: ApplyPatch) -> ActionOutcome:
    return await mode.apply(page, action)


# Each patch-mode action kind (`PATCH_APIS`) and what performs it.
PATCH_ACTIONS: ActionTable[PatchMode] = ActionTable(
    {
        "apply_patch": handles(ApplyPatch, _apply),
        "done": ENDS_EPISODE,
        "failed": ENDS_EPISODE,
    }
)
PATCH_ACTIONS.check(PATCH_APIS, "patch")

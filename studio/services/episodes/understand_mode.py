"""Understanding mode: the agent reads a forged bug's program and symptom, and names the events
that trigger the bug and its mechanism.

Observation: the program as patch mode shows it (`patch_view`: every target's scripts with block
ids; `Observation.program`) and only the symptom of the task's bug report (`Observation.report`
is `{"symptom": ...}`): the trigger, the mechanism, the site and the fix stay hidden. The text
ends with the question: the trigger vocabulary and the eight mechanisms to choose from.

Action: `explain_bug` (`models.patch_action`) records the answer; it changes nothing on the page,
and the last answer counts. The episode ends with `done` (or `failed`); the answer is scored
then against the bug record (`forge.episode_measures`: trigger F1, mechanism accuracy).
"""

from __future__ import annotations

from typing import Any

from studio.models.agent import Mode, Observation
from studio.models.forge import MECHANISMS
from studio.models.patch_action import UNDERSTAND_APIS, ExplainBug
from studio.services.core.store import TaskFolder
from studio.services.episodes.action_table import ENDS_EPISODE, ActionTable, handles
from studio.services.episodes.modes import ActionOutcome
from studio.services.episodes.patch_mode import bug_report
from studio.services.episodes.patch_view import program_by_target, render_patch_view
from studio.services.runtime import page_scripts
from studio.services.runtime.page_seam import EditorPage

__all__ = ["QUESTION", "TRIGGERS", "UNDERSTAND_ACTIONS", "UnderstandMode"]

TRIGGERS = (
    "green_flag", "key:NAME (key:space, key:a, ...)", "click:SPRITE", "click:Stage",
    "broadcast:MESSAGE", "backdrop:NAME", "clone:SPRITE",
)  # fmt: skip
QUESTION = (
    "Question: which events trigger the bug, and what is its mechanism? Answer with "
    'explain_bug {"triggers": [...], "mechanism": "..."}, then done.\n'
    f"Triggers, in this vocabulary: {', '.join(TRIGGERS)}.\n"
    f"Mechanism, one of: {', '.join(MECHANISMS)}."
)


class UnderstandMode:
    """The understanding-mode handler of one episode (implements `ModeHandler`)."""

    mode = Mode.UNDERSTAND

    def __init__(self, task: TaskFolder | None = None) -> None:
        report = bug_report(task)
        self.report = {"symptom": report["symptom"]} if report else None
        self.answer: dict[str, Any] | None = None

    async def setup(self, page: EditorPage) -> None:
        """Nothing to install: the program is read through the editor's own reads."""

    async def observe(self, page: EditorPage, step: int) -> Observation:
        project: dict[str, Any] = await page_scripts.call(page, page_scripts.EDITOR, "program")
        text = render_patch_view(project, self.report) + "\n\n" + QUESTION
        return Observation(
            mode=Mode.UNDERSTAND,
            step=step,
            text=text,
            program=program_by_target(project),
            report=self.report,
        )

    async def execute(self, page: EditorPage, action: Any) -> ActionOutcome:
        return await UNDERSTAND_ACTIONS.perform(self, page, action.api, action)


async def _explain(mode: UnderstandMode, page: EditorPage, action: ExplainBug) -> ActionOutcome:
    mode.answer = action.args.model_dump()
    said = ", ".join(action.args.triggers) or "no trigger"
    return ActionOutcome(target=f"{said}; {action.args.mechanism}", detail=dict(mode.answer))


UNDERSTAND_ACTIONS: ActionTable[UnderstandMode] = ActionTable(
    {"explain_bug": handles(ExplainBug, _explain), "done": ENDS_EPISODE, "failed": ENDS_EPISODE}
)
UNDERSTAND_ACTIONS.check(UNDERSTAND_APIS, "understand")

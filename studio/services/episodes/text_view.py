"""Text mode's observation text: the task, then the program as scratchblocks text.

    Task (debug)
      When the green flag is clicked, the score should be 0. Fix the project.

    Program (scratchblocks text, each target under its marker)
    // stage

    // sprite: Coin
    when flag clicked
    set [score v] to (5)

    Answer with apply_text: scratchblocks text, each target's scripts under its marker ...

For *debug* and *extend* tasks (and an episode without a task) the program is the editor's
whole project as `studio blocks text` writes it (`core.blocktext.project_text`): every target
under its marker `// stage` or `// sprite: NAME`, the blocks of each script one a line. For
*create* and *compute* tasks the agent writes the program from the instruction alone: the text
lists the targets by their markers (so that the answer can name them) and shows no script. The
closing lines say how an answer is built (`ANSWER`).
"""

from __future__ import annotations

from typing import Any

from studio.models.task import Category, Task
from studio.services.core.blocktext.project_text import project_text

__all__ = ["ANSWER", "SHOWS_PROGRAM", "render_text_view", "shows_program"]

SHOWS_PROGRAM = frozenset({Category.DEBUG, Category.EXTEND})
ANSWER = (
    "Answer with apply_text: scratchblocks text (one block a line, the blocks inside a C-block "
    "indented by 4 spaces and closed by `end`, menus marked ` v`), each target's scripts under "
    "its marker line `// stage` or `// sprite: NAME`. Each target your text marks gets exactly "
    "the scripts you write for it (its other scripts are removed); the targets you do not mark "
    "stay as they are. Then done."
)


def shows_program(task: Task | None) -> bool:
    """Whether the observation shows the program's scripts (debug, extend, no task)."""
    return task is None or task.category in SHOWS_PROGRAM


def _targets(project: dict[str, Any]) -> list[str]:
    return [
        "// stage" if t.get("isStage") else f"// sprite: {t.get('name', '')}"
        for t in project.get("targets", [])
    ]


def render_text_view(project: dict[str, Any], task: Task | None) -> str:
    """The observation text of the editor's `project` (project.json) for `task`."""
    out: list[str] = []
    if task is not None:
        out += [f"Task ({task.category.value})", "  " + task.instruction.strip(), ""]
    if shows_program(task):
        out += ["Program (scratchblocks text, each target under its marker)"]
        out += [project_text(project).rstrip("\n"), ""]
    else:
        out += ["Targets (write each one's scripts under its marker)", *_targets(project), ""]
    out.append(ANSWER)
    return "\n".join(out)

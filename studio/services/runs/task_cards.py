"""The report's task cards: each task the runs played, with what its golden changes as blocks.

`task_cards_html(root)` is a section for the HTML report (`studio report --html`): one card per
task the episodes below `root` played, found through the task folder each episode recorded
(run.json `task_folder`, as the bundle's task figures find them; a task found nowhere is
named, never guessed). A card shows the task's id, category and instruction, then the
golden's changed scripts over the initial (`blocktext.changed`), target by target, as block
pictures (the scratchblocks package, all cards in one renderer run) with each script's text a
click away (a <details> under it); scripts the golden removed are listed under a click too.
When the pictures cannot be drawn (no Node), the cards show the text and say why. The section
is "" when no task of the runs can be read.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from studio.models.errors import StudioError
from studio.services.core.blocktext.changed import ChangedTarget, changed_scripts, task_projects
from studio.services.core.blocktext.pictures import Picture, picture_html, render_svgs
from studio.services.core.store import TaskFolder
from studio.services.runs.bundle.set_figures import recorded_task
from studio.services.runs.bundle.writer import collect_entries

__all__ = ["CARD_STYLE", "played_tasks", "task_cards_html"]

CARD_STYLE = (
    ".task-card{border:1px solid #d0d7de;border-radius:6px;padding:8px 14px;margin:12px 0}"
    ".task-card h3{margin:4px 0}.task-card .cat{color:#5f6368;font-size:small}"
    ".task-card .instruction{white-space:pre-wrap}.task-card h4{margin:10px 0 2px}"
    ".blocks{margin:8px 0 14px}.blocks details{margin-top:2px;color:#555}"
    ".blocks pre,.task-card pre{background:#f6f6f6;padding:6px;margin:4px 0}"
    ".blocks-error p,.task-card .why{color:#b00}"
)


def played_tasks(root: Path) -> tuple[list[TaskFolder], list[str]]:
    """The tasks the episodes below `root` played (first seen first), and the ids of those
    whose task folder cannot be read."""
    found: dict[str, TaskFolder] = {}
    wanted: list[str] = []
    for entry in collect_entries(root):
        if entry.task_id not in wanted:
            wanted.append(entry.task_id)
        if entry.task_id in found or not entry.folder:
            continue
        task = recorded_task(Path(entry.folder))
        if task is not None and task.task.id == entry.task_id:
            found[entry.task_id] = task
    return [found[t] for t in wanted if t in found], [t for t in wanted if t not in found]


def _changes(task: TaskFolder) -> list[ChangedTarget] | str:
    projects = task_projects(task)
    return projects if isinstance(projects, str) else changed_scripts(*projects)


def _card(task: TaskFolder, changes: list[ChangedTarget] | str, drawn: dict[str, Picture]) -> str:
    t = task.task
    parts = [
        f'<section class="task-card" id="task-{escape(t.id)}">',
        f'<h3>{escape(t.id)} <span class="cat">[{escape(t.category.value)}]</span></h3>',
        f'<p class="instruction">{escape(t.instruction)}</p>',
    ]
    if isinstance(changes, str):
        parts.append(f'<p class="why">{escape(changes)}</p></section>')
        return "".join(parts)
    if not changes:
        parts.append("<p>The golden changes no script of the initial project.</p>")
    for target in changes:
        parts.append(f"<h4>{escape(target.name)}</h4>")
        parts += [_shown(text, drawn) for text in target.changed]
        if target.removed:
            shown = "".join(_shown(text, drawn) for text in target.removed)
            parts.append(
                f"<details><summary>{len(target.removed)} script(s) of the initial project "
                f"removed or changed</summary>{shown}</details>"
            )
    parts.append("</section>")
    return "".join(parts)


def _shown(text: str, drawn: dict[str, Picture]) -> str:
    picture = drawn.get(text)
    return picture_html(picture) if picture is not None else f"<pre>{escape(text)}</pre>"


def task_cards_html(root: Path) -> str:
    """The task cards section (see the module doc); "" when no task can be read."""
    tasks, missing = played_tasks(root)
    if not tasks:
        return ""
    changes = [_changes(task) for task in tasks]
    texts = sorted(
        {
            text
            for change in changes
            if not isinstance(change, str)
            for target in change
            for text in (*target.changed, *target.removed)
        }
    )
    note = ""
    try:
        drawn = dict(zip(texts, render_svgs(texts), strict=True))
    except StudioError as exc:  # no Node: the text stands in for the pictures
        drawn = {}
        note = f'<p class="why">The blocks cannot be drawn here ({escape(str(exc))}).</p>'
    lost = f"<p>Task folders not found for: {escape(', '.join(missing))}.</p>" if missing else ""
    cards = "".join(_card(task, change, drawn) for task, change in zip(tasks, changes, strict=True))
    return (
        f"\n<style>{CARD_STYLE}</style>\n<h2>Tasks</h2>\n"
        "<p>Each task the runs played, with the scripts its golden project changes over the "
        "initial one (a script's text is a click away).</p>"
        f"{note}{lost}{cards}\n"
    )

"""`studio import nl2scratch`: one *create* task per NL2Scratch row, its script from behaviour.

A row `{key, nl, pseudocode}` becomes a task folder under DEST named after its key: the
instruction is `nl`; the golden project holds the program in a sprite of its own (the sprite
the key names, `...:sprite:NAME:...`, else `Sprite1`) with every name the program uses
(variables, lists, messages, costumes, backdrops, sounds, sprites, created as stubs); the
initial project is the golden with that sprite's scripts taken away. The evaluation script
is proposed from the programs' behaviour as `studio propose` does. The row itself is kept in
task.json (`metadata.nl2scratch`) so that `studio export nl2scratch` writes it back unchanged.

A row is not made into a task, and is listed with its line and the reason, when it is not a
usable row (see nl2scratch.rows), its program has lines that cannot be placed, it
has no hat (it would never run), it is nothing but hats, or nothing its behaviour does can be
observed (the proposer finds no test). A task folder appears only once it is complete.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.models.errors import StudioError
from studio.services.core import atomic
from studio.services.core.blocktext.dialect import HAT_OPCODES
from studio.services.core.blocktext.project_text import (
    BlockTextError,
    build_into,
    build_project,
    project_text,
)
from studio.services.core.blocktext.reading import TextBlock, TextScript, read_texts
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import load_task
from studio.services.formats.nl2scratch.rows import program_lines, read_rows
from studio.services.propose.model import ProposalError
from studio.services.propose.pipeline import ProposeOptions, propose
from studio.services.runtime.evaluator import Evaluator

__all__ = ["Nl2ScratchImport", "import_nl2scratch", "sprite_of", "task_id_of"]

_SPRITE = re.compile(r":sprite:([^:]+):")
_PLACEHOLDER_SCRIPT = "module.exports = async () => false;\n"  # replaced before the folder shows


@dataclass
class Nl2ScratchImport:
    """Tasks made (their ids) and rows skipped ("line N (key): reason")."""

    made: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.made)

    def to_json(self) -> dict[str, Any]:
        return {"made": self.made, "skipped": self.skipped}


def sprite_of(key: str) -> str:
    found = _SPRITE.search(key)
    return found.group(1).strip() if found and found.group(1).strip() else "Sprite1"


def task_id_of(key: str, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_.-]+", "_", key).strip("_.")[:80] or "row"
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    taken.add(name)
    return name


def _static_reason(scripts: list[Any]) -> str | None:
    blocks = [b for s in scripts for b in s.blocks if isinstance(b, TextBlock)]
    if not blocks:
        return "the program has no blocks"
    tops = [s.blocks[0] for s in scripts]
    if not any(isinstance(t, TextBlock) and t.opcode in HAT_OPCODES for t in tops):
        return "the program has no hat block, so it never runs"
    if all(b.opcode in HAT_OPCODES for b in blocks):
        return "the program is nothing but a hat: no behaviour to observe"
    return None


def _task_json(task_id: str, row: dict[str, Any], rendered: str) -> dict[str, Any]:
    return {
        "id": task_id,
        "category": "create",
        "instruction": str(row["nl"]).strip() or "(no description)",
        "evaluation": {"script": "evaluate.js", "timeout_s": 30},
        "author": "imported from NL2Scratch",
        "metadata": {
            "tags": ["nl2scratch"],
            "nl2scratch": {
                "key": row["key"],
                "nl": row["nl"],
                "pseudocode": row["pseudocode"],
                "sprite": sprite_of(str(row["key"])),
                "rendered": rendered,
            },
        },
    }


async def import_nl2scratch(
    path: Path,
    dest: Path,
    evaluator: Evaluator,
    options: ProposeOptions | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> Nl2ScratchImport:
    """Import the rows of `path` into the library `dest` (see the module doc)."""
    report = Nl2ScratchImport()
    rows, problems = read_rows(path, ("key", "nl", "pseudocode"))
    report.skipped += [str(p) for p in problems]
    dest.mkdir(parents=True, exist_ok=True)
    taken = {p.name for p in dest.iterdir()}
    texts = [("\n".join(program_lines(row["pseudocode"])), 1) for _, row in rows]
    readings = read_texts(texts)
    for index, ((number, row), (text, _), (scripts, bad)) in enumerate(
        zip(rows, texts, readings, strict=True)
    ):
        where = f"line {number} ({str(row['key'])[:80]})"
        if progress:
            progress(index, len(rows), where)
        reason = f"the program cannot be parsed: {bad[0]}" if bad else _static_reason(scripts)
        if reason:
            report.skipped.append(f"{where}: {reason}")
            continue
        task_id = task_id_of(str(row["key"]), taken)
        try:
            await _make_task(dest, task_id, row, text, scripts, options, evaluator)
        except (StudioError, OSError) as exc:
            taken.discard(task_id)
            report.skipped.append(f"{where}: {exc}")
            continue
        report.made.append(task_id)
    return report


async def _make_task(
    dest: Path,
    task_id: str,
    row: dict[str, Any],
    text: str,
    scripts: list[TextScript],
    options: ProposeOptions | None,
    evaluator: Evaluator,
) -> None:
    """Build the folder in a staging place beside DEST, derive its script, then move it in."""
    sprite = sprite_of(str(row["key"]))
    try:
        golden = build_project(text, f"row {row['key']}", sprite, scripts)
    except BlockTextError as exc:
        raise StudioError(f"the program cannot be built: {exc.problems[0]}") from None
    initial = build_into(golden.data, "golden.sb3", f"// sprite: {sprite}\n", "initial")
    staging = Path(tempfile.mkdtemp(prefix=f".{task_id}.", dir=dest))
    try:
        (staging / "golden.sb3").write_bytes(golden.data)
        (staging / "initial.sb3").write_bytes(initial.data)
        (staging / "evaluate.js").write_text(_PLACEHOLDER_SCRIPT, "utf-8")
        rendered = project_text(read_project_json(golden.data), sprite)
        task = _task_json(task_id, row, rendered)
        (staging / "task.json").write_text(json.dumps(task, indent=2, ensure_ascii=False), "utf-8")
        try:
            result = await propose(evaluator, load_task(staging), options)
        except ProposalError as exc:
            raise StudioError(f"nothing to observe: {_after_folder(str(exc))}") from None
        except StudioError as exc:
            raise StudioError(f"no script could be proposed: {_after_folder(str(exc))}") from None
        atomic.write_text(staging / "evaluate.js", result.script)
        staging.rename(dest / task_id)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def _after_folder(message: str) -> str:
    """A proposer message without the staging folder's name in front."""
    head, sep, tail = message.partition(": ")
    return tail if sep and "/" in head else message

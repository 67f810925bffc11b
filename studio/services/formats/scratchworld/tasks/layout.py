"""The ScratchWorld folder layout: where things live, JSON file style, golden-project matching."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

__all__ = [
    "FAMILY_BOUNDARIES", "GOLDEN_SUFFIX", "HELPER_NAME", "MAX_INDENT", "PROJECTS_DIR",
    "SCRIPTS_DIR", "TASKS_DIR", "JsonStyle", "family_of", "match_golden", "resolve_dirs", "sha256",
]  # fmt: skip

TASKS_DIR = Path("tasks")
SCRIPTS_DIR = Path("scratch-bench-api/api/evaluation_scripts")
PROJECTS_DIR = Path("scratch-gui/static")
HELPER_NAME = "evaluation_utils.js"
GOLDEN_SUFFIX = "_golden.sb3"
MAX_INDENT = 16  # spaces or tabs of one level of a JSON file's indent
# A family golden only matches at a word boundary of the id, so `cat_golden.sb3` is not the golden
# of `catch_game`.
FAMILY_BOUNDARIES = ("_", "-", ".")


class JsonStyle(BaseModel):
    """How a JSON file was written, so that writing it back gives the same bytes."""

    model_config = ConfigDict(extra="forbid")

    indent: int | str | None = 2
    newline: bool = True
    ascii: bool = False
    compact: bool = False  # one line without spaces after , and : (as JSON.stringify writes)

    @field_validator("indent")
    @classmethod
    def _small_indent(cls, value: int | str | None) -> int | str | None:
        """An indent is at most `MAX_INDENT` spaces (a number) or whitespace (a string): any
        other text would be written between the values, and the file would not be JSON."""
        if isinstance(value, bool) or (isinstance(value, int) and not 0 <= value <= MAX_INDENT):
            raise ValueError(f"indent must be a number from 0 to {MAX_INDENT}")
        if isinstance(value, str) and (len(value) > MAX_INDENT or value.strip(" \t") != ""):
            raise ValueError(f"indent must be at most {MAX_INDENT} spaces or tabs")
        return value

    @classmethod
    def detect(cls, text: str) -> JsonStyle:
        """Guess indent, final newline and escaping of non-ASCII characters from the text."""
        lines = text.splitlines()
        indent: int | str | None = None
        if len(lines) > 1:
            second = lines[1]
            space = second[: len(second) - len(second.lstrip())]
            indent = len(space) if space and set(space) == {" "} else (space or None)
            if len(space) > MAX_INDENT or space.strip(" \t"):  # not an indent we can write
                indent = 2
        return cls(
            indent=indent,
            newline=text.endswith("\n"),
            ascii=text.isascii() and "\\u" in text,
            compact=indent is None and '":' in text and '": ' not in text,
        )

    def dump(self, value: Any) -> str:
        separators = (",", ":") if self.compact else None
        text = json.dumps(value, indent=self.indent, ensure_ascii=self.ascii, separators=separators)
        return text + "\n" if self.newline else text


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def family_of(golden_name: str) -> str | None:
    """`pong_starter_golden.sb3` -> `pong_starter`; None for a name that is not a golden."""
    if not golden_name.endswith(GOLDEN_SUFFIX) or len(golden_name) == len(GOLDEN_SUFFIX):
        return None
    return golden_name[: -len(GOLDEN_SUFFIX)]


def match_golden(task_id: str, names: Iterable[str]) -> str | None:
    """The golden project of `task_id` among file names: `<id>_golden.sb3` first, then the
    longest `<family>_golden.sb3` whose family is a prefix of the id (at a word boundary)."""
    families = {f: n for n in names if (f := family_of(n)) is not None}
    if task_id in families:
        return families[task_id]
    fitting = [
        f for f in families if task_id.startswith(f) and task_id[len(f)] in FAMILY_BOUNDARIES
    ]
    return families[max(fitting, key=len)] if fitting else None


def resolve_dirs(
    root: Path, tasks_dir: Path | None, scripts_dir: Path | None, projects_dir: Path | None
) -> tuple[Path, Path, Path]:
    """The three folders of a set: the given overrides, else the published layout under root."""
    return (
        Path(tasks_dir) if tasks_dir else root / TASKS_DIR,
        Path(scripts_dir) if scripts_dir else root / SCRIPTS_DIR,
        Path(projects_dir) if projects_dir else root / PROJECTS_DIR,
    )

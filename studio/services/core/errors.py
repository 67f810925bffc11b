"""Errors the core raises for bad input; each names the file and the problem.

Problems echo values read from outside (names, fields); `cut` bounds them, so a value of
megabytes never makes a problem line of megabytes: the text keeps its first `MAX_PROBLEM`
characters and says how many were cut. The errors below cut their problem themselves.
"""

from __future__ import annotations

from pathlib import Path

from studio.models.errors import StudioError

__all__ = ["MAX_PROBLEM", "ProjectFileError", "TaskFileError", "cut"]

MAX_PROBLEM = 500  # characters of a problem line (values in it are cut to fit)


def cut(text: str, limit: int = MAX_PROBLEM) -> str:
    """`text` when it has at most `limit` characters, else its start and a marker."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit} more characters cut]"


class TaskFileError(StudioError):
    """A task folder or one of its files is missing or invalid."""

    def __init__(self, path: Path | str, problem: str, field: str | None = None) -> None:
        self.path = Path(path)
        self.problem = problem = cut(problem)
        self.field = field = cut(field, 80) if field else field
        where = f" (field '{field}')" if field else ""
        super().__init__(f"{self.path}{where}: {problem}")


class ProjectFileError(StudioError):
    """A .sb3 file that is not a loadable Scratch 3 project."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem = cut(problem)
        super().__init__(f"{self.path}: {problem}")

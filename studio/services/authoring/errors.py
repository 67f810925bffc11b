"""Errors of the authoring services; each message says what is wrong and what to do."""

from __future__ import annotations

from studio.services.errors import StudioError


class LibraryError(StudioError):
    """A library operation that cannot be done: bad or taken id, missing project, trash."""


class ReviewError(StudioError):
    """A review transition that the task's current state does not allow."""


class RecoveryError(StudioError):
    """An autosave draft that cannot be stored under the given task id or file kind."""

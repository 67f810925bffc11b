"""Sealed ScratchWorld sessions: an agent changes the program only through the editor.

A session is *bound* to a task when it names one: `task_name` on POST /sessions, else the
first evaluate. A bound session

- loads only the projects its task lists as a start (`SwCheckout.starts`): never the task's
  golden, never another task's project. A task that is a bare script lists none; its session
  loads any project of the checkout but a golden (by name or by content). A refusal is a 403
  with a plain-text reason, and nothing is loaded instead (no fallback).
- evaluates only its task: evaluate with another name is a 403. A session bound at its first
  evaluate must not have loaded a project that is not a start of that task (a drag run that
  loaded its item may not then be judged as a task).

`custom_js` (agent JavaScript in the editor page) is refused unless the server was started
with `--allow-custom-js`. The published drag runner's workspace restore (section 9 step 4,
section 11) stays served: a custom_js call whose payload is a `workspace_state` (only the keys
tx, ty, scale, scrollX, scrollY, transform) runs the studio's own restore, never the code sent,
and so does the named call `set_workspace_state`. Every session of a server started with the
flag is marked (`run.json` meta `unsealed`), and `studio report` shows the mark.

The project a session's evaluation judges is read from the VM by a reader captured when the
session's page was set up, before any agent call (`sealedReader` of
resources/js/scratchworld.js, kept as a handle), not through
the page's bridge, which agent code could replace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.models.errors import StudioError
from studio.services.core.store import TaskFolder

__all__ = [
    "CUSTOM_JS_TIMEOUT_S", "RESTORE_API", "RESTORE_KEYS", "UNSEALED_KEY", "UNSEALED_NOTE",
    "Binding", "SwRefused", "bind", "check_load", "is_workspace_restore", "restore_payload",
    "same_task",
]  # fmt: skip

RESTORE_KEYS = frozenset({"tx", "ty", "scale", "scrollX", "scrollY", "transform"})
RESTORE_API = "set_workspace_state"
UNSEALED_KEY = "unsealed"
UNSEALED_NOTE = "custom_js allowed (--allow-custom-js)"
CUSTOM_JS_TIMEOUT_S = 20.0  # a custom_js call this long: its page is probed (the default)


class SwRefused(StudioError):
    """A call a sealed session may not make: answered with `status` and the message."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Binding:
    """The task a session is bound to, and what it loaded before it was bound."""

    name: str | None = None
    task: TaskFolder | None = None
    loaded: list[tuple[str, bool]] = field(default_factory=list)  # (name, is a golden)


def is_workspace_restore(args: dict[str, Any]) -> bool:
    """Whether a custom_js call is the drag runner's workspace restore (by its payload)."""
    payload = args.get("payload")
    return (
        isinstance(payload, dict)
        and bool(payload)
        and set(payload) <= RESTORE_KEYS
        and ("scale" in payload or "scrollX" in payload or "tx" in payload)
        and all(v is None or isinstance(v, int | float | str) for v in payload.values())
    )


def restore_payload(args: dict[str, Any]) -> dict[str, Any]:
    """The workspace state of a restore call (custom_js payload, or set_workspace_state args)."""
    given = args.get("payload")
    payload: dict[str, Any] = given if isinstance(given, dict) else args
    return {k: v for k, v in payload.items() if k in RESTORE_KEYS}


def same_task(a: TaskFolder, b: TaskFolder) -> bool:
    return a.task.id == b.task.id and a.folder == b.folder


def check_load(checkout: Any, binding: Binding, name: str, data: bytes | None = None) -> None:
    """Refuse a project a session bound to its task may not load (SwRefused)."""
    if binding.name is None:
        return
    task = binding.task
    if task is None:  # a name no task answers to: it will never be judged; goldens still not
        if checkout.is_golden(name, data):
            raise SwRefused(f"{name!r} is a golden project; a session loads only starts")
        return
    starts = checkout.starts(task)
    if starts is None:
        if checkout.is_golden(name, data):
            raise SwRefused(
                f"{name!r} is a golden project: this session (task {binding.name!r}) may "
                "load only the task's start"
            )
        return
    if name not in starts:
        listed = ", ".join(sorted(starts))
        raise SwRefused(
            f"{name!r} is not a start of task {binding.name!r}: a session that names its task "
            f"loads only the task's initial project ({listed}) and changes it in the editor"
        )


def bind(checkout: Any, binding: Binding, name: str, task: TaskFolder) -> None:
    """Bind the session to `task` at evaluate; refuse another task or a load it forbids."""
    if binding.task is not None and not same_task(binding.task, task):
        raise SwRefused(
            f"this session is for task {binding.name!r} and evaluates only that task, "
            f"not {name[:120]!r}; open a session per task"
        )
    if binding.name is not None and binding.task is None and name != binding.name:
        raise SwRefused(
            f"this session is for task {binding.name[:120]!r} and evaluates only that task, "
            f"not {name[:120]!r}; open a session per task"
        )
    if binding.task is None:
        starts = checkout.starts(task)
        for loaded, golden in binding.loaded:
            if golden or (starts is not None and loaded not in starts):
                raise SwRefused(
                    f"this session loaded {loaded!r}, which is not a start of task "
                    f"{name[:120]!r}; a session judged on a task starts from the task's "
                    "initial project"
                )
        binding.name, binding.task = name, task

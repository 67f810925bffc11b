"""The ScratchWorld JSON object of a task: the original one with our changes laid over it."""

from __future__ import annotations

import copy
from typing import Any

from studio.models.task import Category, Convention, Task
from studio.services.formats.scratchworld.tasks.record import Baseline, SwRecord
from studio.services.formats.scratchworld.tasks.studio_fields import STUDIO_KEY, studio_fields

__all__ = ["task_json", "timeout_value"]


def timeout_value(seconds: float, unit: str) -> int | float:
    """Seconds in the unit the set used, as an int when whole (30, not 30.0)."""
    value = seconds * 1000 if unit == "ms" else seconds
    return int(value) if float(value).is_integer() else value


def task_json(
    task: Task, record: SwRecord | None, base: Baseline | None, initial: str, script: str
) -> dict[str, Any]:
    """The task object export writes. `initial` and `script` are the file names export chose.

    For an imported task every field whose value did not change keeps its original value, place
    and spelling (and unknown fields stay); changed fields take our value. The studio's own
    fields go under `studio_fields.STUDIO_KEY` when they are not the defaults.
    """
    if record is None or base is None:
        out = _new_task_json(task, initial, script)
    else:
        out = _laid_over(task, record, base, initial, script)
    kept = studio_fields(task)  # the studio's own fields, beside the published ones
    if kept is not None:
        out[STUDIO_KEY] = kept
    else:
        out.pop(STUDIO_KEY, None)
    return out


def _laid_over(
    task: Task, record: SwRecord, base: Baseline, initial: str, script: str
) -> dict[str, Any]:
    out = copy.deepcopy(record.original)
    ev = out["evaluation"]

    def put(obj: dict[str, Any], key: str, current: object, old: object) -> None:
        if current != old:
            obj[key] = current

    put(out, "name", task.id, base.id)
    put(out, "description", task.description, base.description)
    put(out, "type", task.category.value, base.category)
    put(out, "instruction", task.instruction, base.instruction)
    put(out, "initial_project", initial, record.initial_file or base.initial_project)
    function = script if base.function.endswith(".js") else script.removesuffix(".js")
    put(ev, "function", function, base.function)
    if task.evaluation.timeout_s != base.timeout_s:
        ev["timeout"] = timeout_value(task.evaluation.timeout_s, record.timeout_unit)
    put(ev, "description", task.evaluation.description, base.eval_description)
    cases = [c.model_dump() for c in task.evaluation.test_cases]
    if cases != base.test_cases:
        (out if base.test_cases_at == "top" else ev)["test_cases"] = cases
    convention = task.evaluation.convention.value
    if convention != base.convention:
        if convention == Convention.SCRATCHWORLD:
            ev.pop("convention", None)
        else:
            ev["convention"] = convention
    return out


def _new_task_json(task: Task, initial: str, script: str) -> dict[str, Any]:
    ev: dict[str, Any] = {
        "function": script.removesuffix(".js"),
        "timeout": timeout_value(task.evaluation.timeout_s, "s"),
        "description": task.evaluation.description,
    }
    if task.category is Category.COMPUTE or task.evaluation.test_cases:
        ev["test_cases"] = [c.model_dump() for c in task.evaluation.test_cases]
    if task.evaluation.convention is Convention.STUDIO:
        ev["convention"] = Convention.STUDIO.value  # so that import gives it back its contract
    return {
        "name": task.id,
        "description": task.description,
        "type": task.category.value,
        "instruction": task.instruction,
        "initial_project": initial,
        "evaluation": ev,
    }

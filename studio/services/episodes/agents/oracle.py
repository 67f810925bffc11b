"""The oracle agent: rebuilds the golden program through the composite APIs (or, in primitive
mode, with real clicks and drags: see `oracle_primitive`; in patch mode it answers with the
task's minimal fix: see `oracle_patch`; in text mode with the golden's text: `oracle_text`).

It knows the task's initial and golden projects and nothing else; it acts only through the
action space every agent has, reading block indexes from fresh observations. It first creates
the variables and lists the golden project has and the initial one lacks, then visits each
target whose blocks differ and edits it until it matches (see `oracle_plan`), then says done.
A task without a golden project cannot be solved by it: it says failed. In primitive mode it
also draws the strokes a task's `metadata.drawing` gives on the sprites' costumes, with the
paint editor's brush (`paint_plan`), once the code matches.
"""

from __future__ import annotations

import logging
from typing import Any

from studio.models.agent import Mode, Observation
from studio.services.core.blocks import target_name
from studio.services.core.diff import diff_projects
from studio.services.core.sb3 import load_sb3
from studio.services.core.store import TaskFolder
from studio.services.episodes.agents.oracle_patch import PatchOracle, UnderstandOracle
from studio.services.episodes.agents.oracle_plan import Action, TargetPlan, expand_reporters
from studio.services.episodes.agents.oracle_primitive import PrimitiveOracle
from studio.services.episodes.agents.oracle_text import TextOracle
from studio.services.episodes.agents.paint_plan import parse_drawing

__all__ = ["MAX_REFUSALS", "OracleAgent", "data_actions", "targets_to_edit"]

log = logging.getLogger(__name__)
MAX_REFUSALS = 5  # consecutive refused actions before the oracle gives up


def _data(target: dict[str, Any], kind: str) -> set[str]:
    return {str(v[0]) for v in (target.get(kind) or {}).values()}


def data_actions(initial: dict[str, Any], golden: dict[str, Any]) -> dict[str | None, list[Action]]:
    """Variables and lists to create, keyed by sprite (None: for all sprites, from anywhere)."""
    before = {target_name(t): t for t in initial["targets"]}
    out: dict[str | None, list[Action]] = {}
    for target in golden["targets"]:
        name = target_name(target)
        old = before.get(name, {})
        owner = None if target.get("isStage") else name
        scope = "all" if owner is None else "sprite"
        for kind, api in (("variables", "add_variable"), ("lists", "add_list")):
            for data_name in sorted(_data(target, kind) - _data(old, kind)):
                action = {"api": api, "args": {"name": data_name, "scope": scope}}
                out.setdefault(owner, []).append(action)
    return out


def targets_to_edit(initial: dict[str, Any], golden: dict[str, Any]) -> list[str]:
    """Golden targets whose blocks differ from the initial ones, stage first."""
    changed = {edit.sprite for edit in diff_projects(initial, golden).edits}
    names = [target_name(t) for t in golden["targets"]]
    return [n for n in names if n in changed]


class OracleAgent:
    """Solves a task in composite mode from its golden project (an upper bound for checks)."""

    name = "oracle"

    def __init__(self, task: TaskFolder) -> None:
        self.task = task
        golden_path = task.golden_path
        self.golden: dict[str, Any] | None = load_sb3(golden_path)[1] if golden_path else None
        self.initial = load_sb3(task.initial_path)[1]
        self.data: dict[str | None, list[Action]] = {}
        self.todo: list[str] = []
        self.plan: TargetPlan | None = None
        self.refusals = 0
        self.errors: list[str] = []  # every refusal, for checks
        self._refused_last = False
        self._primitive: PrimitiveOracle | None = None
        self._patch: PatchOracle | UnderstandOracle | None = None
        self._text: TextOracle | None = None
        extra = task.task.metadata.model_extra or {}
        self.drawing = parse_drawing(extra.get("drawing"), f"{task.folder}: metadata.drawing")
        if self.golden is not None:
            self.data = data_actions(self.initial, self.golden)
            self.todo = targets_to_edit(self.initial, self.golden)
            self.todo += [n for n in self.data if n is not None and n not in self.todo]

    def feedback(self, error: str) -> None:
        """The environment refused the last action."""
        self.refusals += 1
        self.errors.append(error)
        self._refused_last = True
        if self._primitive is not None:
            self._primitive.feedback(error)
        if isinstance(self._patch, PatchOracle):
            self._patch.feedback(error)
        if self._text is not None:
            self._text.feedback(error)
        log.info("oracle: action refused (%d in a row): %s", self.refusals, error)

    async def act(self, observation: Observation) -> tuple[dict[str, Any], str]:
        if observation.mode in (Mode.PATCH, Mode.UNDERSTAND):  # from the bug record
            if self._patch is None:
                patch = observation.mode is Mode.PATCH
                self._patch = PatchOracle(self.task) if patch else UnderstandOracle(self.task)
            return self._patch.act()
        if observation.mode is Mode.TEXT:  # the golden program's text
            if self._text is None:
                self._text = TextOracle(self.task)
            return self._text.act()
        if self.golden is None:
            return {"api": "failed", "args": {}}, "The oracle cannot act: no golden project."
        if observation.mode is Mode.PRIMITIVE:
            if self._primitive is None:
                self._primitive = PrimitiveOracle(
                    self.initial,
                    self.golden,
                    list(self.todo),
                    {k: list(v) for k, v in self.data.items()},
                    self.drawing,
                )
            return await self._primitive.act(observation)
        if not self._refused_last:
            self.refusals = 0
        self._refused_last = False
        if self.refusals >= MAX_REFUSALS:
            return {"api": "failed", "args": {}}, "Too many refused actions in a row."
        return self._next(observation)

    def _next(self, obs: Observation) -> tuple[Action, str]:
        if self.data.get(None):
            return self.data[None].pop(0), "Create the data the golden program uses."
        while self.plan is not None or self.todo:
            if self.plan is None:
                name = self.todo[0]
                golden = next(t for t in self.golden_targets() if target_name(t) == name)
                self.plan = TargetPlan(name, expand_reporters(golden.get("blocks") or {}))
            if obs.editing_target != self.plan.name:
                return _select(self.plan.name), f"Switch to {self.plan.name}."
            if self.data.get(self.plan.name):
                return self.data[self.plan.name].pop(0), "Create this sprite's own data."
            action = self.plan.next_action(obs.blocks)
            if action is not None:
                return action, f"Make {self.plan.name} match the golden program."
            self.todo.pop(0)
            self.plan = None
        return {"api": "done", "args": {}}, "Every target matches the golden program."

    def golden_targets(self) -> list[dict[str, Any]]:
        assert self.golden is not None
        return list(self.golden["targets"])


def _select(name: str) -> Action:
    if name == "Stage":
        return {"api": "select_stage", "args": {}}
    return {"api": "select_sprite", "args": {"name": name}}

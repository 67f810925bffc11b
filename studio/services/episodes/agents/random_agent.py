"""An agent that takes random valid actions of its mode (a noise floor, and a fuzzer of the env).

Actions are valid for the schema; the environment may still refuse some (a connection that
does not fit), which is part of what this agent exercises. It says done after `max_steps`.
"""

from __future__ import annotations

import random
from typing import Any

from studio.models.agent import Mode, Observation
from studio.models.forge import MECHANISMS
from studio.services.episodes.catalog import OPCODES
from studio.services.episodes.modes import VIEWPORT

__all__ = ["HATS", "KEYS", "KINDS", "LINES", "RandomAgent"]

KINDS = ("stack_before", "stack_after", "statement_into", "value_into", "wrap")
KEYS = ("space", "ArrowLeft", "ArrowRight", "Enter", "a", "1")
HATS = ("when green flag clicked", "when this sprite clicked", "when [space v] key pressed")
LINES = ("move ({n}) steps", "turn right ({n}) degrees", "say [{n}]", "wait ({n}) seconds",
         "change x by ({n})", "change y by ({n})", "hide", "show")  # fmt: skip


class RandomAgent:
    """Random actions from a seeded generator: the same seed and observations, the same run."""

    name = "random"

    def __init__(self, seed: int = 0, max_steps: int = 20) -> None:
        self.rng = random.Random(seed)
        self.max_steps = max_steps
        self.taken = 0

    async def act(self, observation: Observation) -> tuple[dict[str, Any], str]:
        self.taken += 1
        if self.taken > self.max_steps:
            return {"api": "done", "args": {}}, "enough random steps"
        if observation.mode is Mode.COMPOSITE:
            return self._composite(observation), "random composite action"
        if observation.mode is Mode.PATCH:
            return self._patch(observation), "random patch"
        if observation.mode is Mode.TEXT:
            if self.taken > 1:
                return {"api": "done", "args": {}}, "answered"
            return self._text(observation), "a random script"
        if observation.mode is Mode.UNDERSTAND:
            if self.taken > 1:
                return {"api": "done", "args": {}}, "answered"
            triggers = self.rng.sample(["green_flag", "key:space", "click:Stage"], k=1)
            args = {"triggers": triggers, "mechanism": self.rng.choice(MECHANISMS)}
            return {"api": "explain_bug", "args": args}, "a random answer"
        return self._primitive(observation), "random primitive action"

    def _composite(self, obs: Observation) -> dict[str, Any]:
        rng = self.rng
        n = len(obs.blocks)
        choices = ["add_block", "add_block", "add_variable"]
        if n:
            choices += ["connect_blocks"] * 3 + ["set_block_field", "detach_blocks"]
            choices += ["delete_block"]
        targets = _targets(obs.text or "")
        if targets:
            choices.append("select")
        api = rng.choice(choices)
        if api == "add_block":
            opcode = rng.choice(sorted(OPCODES - {"data_variable", "data_listcontents"}))
            return {"api": "add_block", "args": {"blockType": opcode}}
        if api == "add_variable":
            name = f"v{rng.randrange(100)}"
            scope = rng.choice(["sprite", "all"])
            return {"api": "add_variable", "args": {"name": name, "scope": scope}}
        if api == "select":
            name = rng.choice(targets)
            if name == "Stage":
                return {"api": "select_stage", "args": {}}
            return {"api": "select_sprite", "args": {"name": name}}
        block = rng.choice(obs.blocks)
        if api == "connect_blocks":
            other = rng.choice(obs.blocks)
            placement: dict[str, Any] = {"kind": rng.choice(KINDS)}
            names = [*other.inputs] or ["SUBSTACK"]
            if placement["kind"] in ("statement_into", "value_into"):
                placement["inputName"] = rng.choice(names)
            args = {
                "sourceBlockIndex": block.index,
                "targetBlockIndex": other.index,
                "placement": placement,
            }
            return {"api": "connect_blocks", "args": args}
        if api == "set_block_field":
            names = [*block.fields, *block.inputs] or ["VALUE"]
            value = rng.choice([0, 1, 10, -5, "hello", "space"])
            args = {"blockIndex": block.index, "fieldName": rng.choice(names), "value": value}
            return {"api": "set_block_field", "args": args}
        return {"api": api, "args": {"blockIndex": block.index}}

    def _patch(self, obs: Observation) -> dict[str, Any]:
        """A one-edit patch: remove a random block, or change a random field or input of one
        to a random value (done when the program has no blocks)."""
        rng = self.rng
        sites = [
            (sprite, bid, blk)
            for sprite, blocks in sorted((obs.program or {}).items())
            for bid, blk in blocks.items()
            if isinstance(blk, dict) and not blk.get("shadow")
        ]
        if not sites:
            return {"api": "done", "args": {}}
        sprite, bid, blk = rng.choice(sites)
        parts = [f"field:{n}" for n in blk.get("fields", {})]
        parts += [f"input:{n}" for n in blk.get("inputs", {})]
        if not parts or rng.random() < 0.3:
            edit: dict[str, Any] = {"op": "remove", "sprite": sprite, "block_id": bid}
        else:
            what = rng.choice(parts)
            value: Any = [rng.choice(["0", "10", "hello"]), None]
            if what.startswith("input:"):
                value = [1, [4, rng.choice(["0", "1", "10", "-5"])]]
            edit = {"op": "change", "sprite": sprite, "block_id": bid, "what": what}
            edit["value"] = value
        return {"api": "apply_patch", "args": {"edits": [edit]}}

    def _text(self, obs: Observation) -> dict[str, Any]:
        """One script of a random hat and a few random motion and looks lines, under the
        marker of a random sprite the observation lists (unmarked when it lists none)."""
        rng = self.rng
        markers = [m for m in (obs.text or "").splitlines() if m.startswith("// sprite: ")]
        body = [rng.choice(HATS)]
        body += [rng.choice(LINES).format(n=rng.choice((1, 10, -5))) for _ in range(3)]
        head = [rng.choice(markers)] if markers else []
        return {"api": "apply_text", "args": {"text": "\n".join([*head, *body])}}

    def _primitive(self, obs: Observation) -> dict[str, Any]:
        rng = self.rng
        w, h = VIEWPORT["width"], VIEWPORT["height"]

        def point(prefix: str = "") -> dict[str, Any]:
            if obs.elements and rng.random() < 0.5:
                return {f"{prefix}index": rng.choice(obs.elements).index}
            return {f"{prefix}x": rng.randrange(w), f"{prefix}y": rng.randrange(h)}

        api = rng.choice(["click", "click", "drag_and_drop", "drag_and_drop", "scroll", "type"])
        if api == "click":
            return {"api": "click", "args": point()}
        if api == "drag_and_drop":
            return {"api": "drag_and_drop", "args": {**point("start_"), **point("end_")}}
        if api == "scroll":
            direction = rng.choice(["up", "down", "left", "right"])
            return {"api": "scroll", "args": {"direction": direction, **point()}}
        if rng.random() < 0.5:
            return {"api": "type", "args": {"text": rng.choice(["10", "hello", "x"])}}
        return {"api": "key", "args": {"key": rng.choice(KEYS)}}


def _targets(text: str) -> list[str]:
    """The target names listed in a composite observation's text."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == "## All Available Targets" and i + 1 < len(lines):
            names = [n.strip() for n in lines[i + 1].split(",")]
            return [n for n in names if n and n != "None"]
    return []

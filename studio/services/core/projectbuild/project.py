"""The project under construction: the stage, sprites, their data and scripts, and the .sb3."""

from __future__ import annotations

import re
from typing import Any

from studio.services.core.projectbuild.assets import Costume, Sound
from studio.services.core.projectbuild.blocks import Block, ScriptEmitter
from studio.services.core.projectbuild.spec import extension_of
from studio.services.core.sb3 import build_sb3

__all__ = ["ProjectBuilder", "Target"]


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_") or "x"


class Target:
    """A stage or sprite under construction: costumes, sounds, properties, data and scripts."""

    def __init__(self, name: str, costumes: list[Costume], props: dict[str, Any]) -> None:
        if not costumes:
            raise ValueError(f"{name} needs at least one costume")
        self.name = name
        self.slug = _slug(name)
        self.is_stage = bool(props.get("isStage"))
        self.costumes = list(costumes)
        self.sounds: list[Sound] = []
        self.props = props
        self.variables: dict[str, Any] = {}
        self.lists: dict[str, list[Any]] = {}
        self.scripts: list[list[Block]] = []

    def add_variable(self, name: str, value: Any = 0) -> None:
        """Declare a variable owned by this target (on the stage: for all sprites)."""
        self.variables[name] = value

    def add_list(self, name: str, items: list[Any] | tuple[Any, ...] = ()) -> None:
        """Declare a list owned by this target (on the stage: for all sprites)."""
        self.lists[name] = list(items)

    def add_costume(self, costume: Costume) -> None:
        """Add a costume (on the stage: a backdrop) after the existing ones."""
        if any(c.name == costume.name for c in self.costumes):
            raise ValueError(f"{self.name} already has a costume named {costume.name!r}")
        self.costumes.append(costume)

    def add_sound(self, sound: Sound) -> None:
        if any(s.name == sound.name for s in self.sounds):
            raise ValueError(f"{self.name} already has a sound named {sound.name!r}")
        self.sounds.append(sound)

    def add_script(self, *blocks: Block) -> None:
        """Add a script: its hat block (or first block) followed by the stack below it."""
        if not blocks:
            raise ValueError("a script needs at least one block")
        self.scripts.append(list(blocks))

    def variable_id(self, name: str) -> str:
        return f"{self.slug}-var-{_slug(name)}"

    def list_id(self, name: str) -> str:
        return f"{self.slug}-list-{_slug(name)}"


class ProjectBuilder:
    """A whole project: the stage, the sprites (in layer order) and the broadcast messages."""

    def __init__(self, backdrop: Costume | None = None) -> None:
        self.stage = Target("Stage", [backdrop or Costume.backdrop()], {"isStage": True})
        self.sprites: list[Target] = []
        self.broadcasts: list[str] = []
        self.tempo = 60

    def add_sprite(
        self, name: str, costumes: list[Costume], x: float = 0, y: float = 0, **props: Any
    ) -> Target:
        """Add a sprite; `props` override project.json fields (size, direction, visible...)."""
        if name == "Stage" or any(s.name == name for s in self.sprites):
            raise ValueError(f"a target named {name!r} already exists")
        base = {"isStage": False, "visible": True, "x": x, "y": y, "size": 100}
        sprite = Target(name, costumes, base | {"direction": 90, "draggable": False} | props)
        self.sprites.append(sprite)
        return sprite

    def sprite(self, name: str) -> Target:
        return next(s for s in self.sprites if s.name == name)

    def add_variable(self, name: str, value: Any = 0) -> None:
        """Declare a stage variable (visible to every sprite)."""
        self.stage.add_variable(name, value)

    def add_list(self, name: str, items: list[Any] | tuple[Any, ...] = ()) -> None:
        """Declare a stage list (visible to every sprite)."""
        self.stage.add_list(name, items)

    def add_backdrop(self, backdrop: Costume) -> None:
        self.stage.add_costume(backdrop)

    def add_broadcast(self, name: str) -> None:
        if name not in self.broadcasts:
            self.broadcasts.append(name)

    def broadcast_id(self, name: str) -> str:
        if name not in self.broadcasts:
            raise ValueError(f"unknown message {name!r}: declare it with add_broadcast")
        return f"broadcast-{_slug(name)}-{self.broadcasts.index(name) + 1}"

    def assets(self) -> dict[str, bytes]:
        """Every costume and sound file the project needs, keyed by md5ext."""
        files: dict[str, bytes] = {}
        for target in [self.stage, *self.sprites]:
            files.update((c.md5ext, c.data) for c in target.costumes)
            files.update((s.md5ext, s.data) for s in target.sounds)
        return files

    def to_json(self) -> dict[str, Any]:
        """The project.json content."""
        targets = [
            self._target_json(t, layer) for layer, t in enumerate([self.stage, *self.sprites])
        ]
        extensions: dict[str, None] = {}  # in order of first use, as the VM lists them
        for target in targets:
            for blk in target["blocks"].values():
                ext = extension_of(blk["opcode"])
                if ext:
                    extensions.setdefault(ext)
        meta = {"semver": "3.0.0", "vm": "0.2.0", "agent": "Scratch Bench Studio projectbuild"}
        return {"targets": targets, "monitors": [], "extensions": list(extensions), "meta": meta}

    def build(self) -> bytes:
        """The .sb3 file: project.json plus every costume and sound."""
        return build_sb3(self.to_json(), self.assets())

    def _target_json(self, target: Target, layer: int) -> dict[str, Any]:
        emitter = ScriptEmitter(self, target)
        for index, script in enumerate(target.scripts):
            emitter.emit_stack(script, None, (48, 48 + 320 * index))
        out: dict[str, Any] = {
            "isStage": target.is_stage,
            "name": target.name,
            "variables": {target.variable_id(n): [n, v] for n, v in target.variables.items()},
            "lists": {target.list_id(n): [n, list(v)] for n, v in target.lists.items()},
            "broadcasts": {},
            "blocks": emitter.blocks,
            "comments": {},
            "currentCostume": 0,
            "costumes": [c.entry() for c in target.costumes],
            "sounds": [s.entry() for s in target.sounds],
            "volume": 100,
            "layerOrder": layer,
        }
        if target.is_stage:
            out["broadcasts"] = {self.broadcast_id(n): n for n in self.broadcasts}
            out |= {"tempo": self.tempo, "videoTransparency": 50, "videoState": "on"}
            out["textToSpeechLanguage"] = None
        else:
            out |= {k: v for k, v in target.props.items() if k != "isStage"}
            out.setdefault("rotationStyle", "all around")
        return out

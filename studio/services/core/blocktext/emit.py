"""Writing blocks read from text into a target of a project.json, in the VM's sb3 shapes.

`TargetWriter(project, target, assets)` replaces the target's scripts with the given ones:
inputs with their shadows (compact literals, menu shadow blocks), fields, substacks, custom
blocks (a definition with its prototype and argument reporters; calls with the definition's
argument ids), variable and list reporters as compact primitives. What the text names and the
project lacks is created: variables and lists on the stage (for all sprites), broadcast
messages, and stub costumes, backdrops and sounds; `created` lists them. Ids are fresh in the
whole project and follow from the order of the blocks, so the same text gives the same file.
"""

from __future__ import annotations

import json
from typing import Any

from studio.services.core.blocks import all_block_ids, stage_of
from studio.services.core.blocktext.dialect import KINDS
from studio.services.core.blocktext.reading import Ref, TextBlock, TextScript
from studio.services.core.projectbuild import Costume, Sound
from studio.services.core.projectbuild.spec import (
    BOOL,
    BROADCAST_PRIMITIVE,
    COLOR,
    FIELD,
    LIST,
    LIST_PRIMITIVE,
    MSG,
    MSG_IN,
    STACK,
    TEXT,
    VAR,
    VARIABLE_PRIMITIVE,
)

__all__ = ["TargetWriter"]

_EMPTY = {TEXT: "", COLOR: "#000000"}
_SPRITE_MENUS = frozenset(
    {"TO", "TOWARDS", "TOUCHINGOBJECTMENU", "DISTANCETOMENU", "CLONE_OPTION", "OBJECT"}
)


class TargetWriter:
    """Emits TextScripts into one target; see the module doc."""

    def __init__(
        self, project: dict[str, Any], target: dict[str, Any], assets: dict[str, bytes]
    ) -> None:
        self.project = project
        self.target = target
        self.stage = stage_of(project)
        self.assets = assets
        self.blocks: dict[str, Any] = {}
        self.taken = all_block_ids(project) - set(target.get("blocks", {}))
        self.count = 0
        self.prefix = "t" + str(project["targets"].index(target))
        self.procs: dict[str, tuple[list[str], list[str]]] = {}
        self.created: list[str] = []

    # ---- ids and names ------------------------------------------------------------------
    def new_id(self) -> str:
        while True:
            self.count += 1
            bid = f"{self.prefix}-{self.count}"
            if bid not in self.taken:
                self.taken.add(bid)
                return bid

    def _named(self, table: str, name: str, initial: Any) -> str:
        for owner in (self.target, self.stage):
            for vid, entry in owner.get(table, {}).items():
                if entry[0] == name:
                    return str(vid)
        vid = self.new_id()
        self.stage.setdefault(table, {})[vid] = [name, initial]
        self.created.append(f"{'variable' if table == 'variables' else 'list'} {name!r}")
        return vid

    def variable_id(self, name: str) -> str:
        return self._named("variables", name, 0)

    def list_id(self, name: str) -> str:
        return self._named("lists", name, [])

    def broadcast_id(self, name: str) -> str:
        table = self.stage.setdefault("broadcasts", {})
        for bid, known in table.items():
            if known == name:
                return str(bid)
        bid = self.new_id()
        table[bid] = name
        self.created.append(f"message {name!r}")
        return bid

    def _asset(self, owner: dict[str, Any], key: str, name: str) -> None:
        if not name or any(a.get("name") == name for a in owner.get(key, [])):
            return
        if key == "sounds":
            item: Costume | Sound = Sound.tone(name, 0.2)
        elif owner.get("isStage"):
            item = Costume.backdrop(name)
        else:
            item = Costume.circle(name, 20, "#4c97ff")
        owner.setdefault(key, []).append(item.entry())
        self.assets[item.md5ext] = item.data
        kind = {"sounds": "sound"}.get(key, "backdrop" if owner.get("isStage") else "costume")
        self.created.append(f"{kind} {name!r}")

    def _sprite(self, name: str) -> None:
        if name.startswith("_") or any(t.get("name") == name for t in self.project["targets"]):
            return
        costume = Costume.circle("costume1", 20, "#ffab19")
        self.assets[costume.md5ext] = costume.data
        layer = len(self.project["targets"])
        self.project["targets"].append(
            {
                "isStage": False, "name": name, "variables": {}, "lists": {}, "broadcasts": {},
                "blocks": {}, "comments": {}, "currentCostume": 0, "costumes": [costume.entry()],
                "sounds": [], "volume": 100, "layerOrder": layer, "visible": True, "x": 0,
                "y": 0, "size": 100, "direction": 90, "draggable": False,
                "rotationStyle": "all around",
            }
        )  # fmt: skip
        self.created.append(f"sprite {name!r}")

    # ---- scripts ------------------------------------------------------------------------
    def register(self, scripts: list[TextScript]) -> None:
        """Know the custom blocks the scripts define (calls take their argument ids)."""
        for script in scripts:
            for item in script.blocks:
                if isinstance(item, TextBlock) and item.opcode == "procedures_definition":
                    assert item.proc is not None
                    ids = [self.new_id() for _ in item.proc.names]
                    self.procs[item.proc.proccode] = (ids, item.proc.names)

    def write(self, scripts: list[TextScript]) -> None:
        """Replace the target's blocks with `scripts` (laid out in a column)."""
        if not self.procs:
            self.register(scripts)
        for index, script in enumerate(scripts):
            top = (48.0, 48.0 + 320.0 * index)
            first = script.blocks[0]
            if isinstance(first, Ref):
                self._loose(first, top)
            else:
                self.stack([b for b in script.blocks if isinstance(b, TextBlock)], None, top)
        self.target["blocks"] = self.blocks

    def _loose(self, ref: Ref, top: tuple[float, float]) -> None:
        if ref.kind == "arg":
            bid = self._arg(ref, None)
            self.blocks[bid].update(topLevel=True, x=top[0], y=top[1])
            return
        prim = self._primitive(ref)
        self.blocks[self.new_id()] = [*prim, top[0], top[1]]

    def stack(
        self, stack: list[TextBlock], parent: str | None, top: tuple[float, float] | None = None
    ) -> str | None:
        first = prev = None
        for blk in stack:
            bid = self.emit(blk, prev or parent, top if first is None else None)
            if prev:
                self.blocks[prev]["next"] = bid
            first, prev = first or bid, bid
        return first

    def _entry(self, opcode: str, parent: str | None, top: tuple[float, float] | None) -> str:
        bid = self.new_id()
        entry: dict[str, Any] = {
            "opcode": opcode, "next": None, "parent": parent, "inputs": {}, "fields": {},
            "shadow": False, "topLevel": top is not None,
        }  # fmt: skip
        if top is not None:
            entry["x"], entry["y"] = top
        self.blocks[bid] = entry
        return bid

    def emit(self, blk: TextBlock, parent: str | None, top: tuple[float, float] | None) -> str:
        bid = self._entry(blk.opcode, parent, top)
        entry = self.blocks[bid]
        if blk.opcode == "procedures_definition":
            self._definition(blk, bid)
            return bid
        if blk.opcode == "procedures_call":
            self._call(blk, bid)
            return bid
        mouths = iter(blk.mouths)
        for name, kind in KINDS[blk.opcode].items():
            if kind == STACK:
                first = self.stack(next(mouths, []), bid)
                if first:
                    entry["inputs"][name] = [2, first]
                continue
            self._argument(entry, bid, name, kind, blk.args.get(name))
        if blk.opcode == "control_stop":
            others = blk.args.get("STOP_OPTION") == "other scripts in sprite"
            hasnext = str(others).lower()
            entry["mutation"] = {"tagName": "mutation", "children": [], "hasnext": hasnext}
        return bid

    def _argument(self, entry: dict[str, Any], bid: str, name: str, kind: Any, value: Any) -> None:
        inputs, fields = entry["inputs"], entry["fields"]
        opcode = entry["opcode"]
        if kind == BOOL:
            if value is not None:
                inputs[name] = [2, self._reporter(value, bid)]
        elif kind == FIELD:
            fields[name] = [str(value or ""), None]
            if opcode == "event_whenbackdropswitchesto":
                self._asset(self.stage, "costumes", str(value or ""))
        elif kind == VAR:
            fields[name] = [str(value), self.variable_id(str(value))]
        elif kind == LIST:
            fields[name] = [str(value), self.list_id(str(value))]
        elif kind == MSG:
            fields[name] = [str(value), self.broadcast_id(str(value))]
        elif kind == MSG_IN and isinstance(value, str):
            inputs[name] = [1, [BROADCAST_PRIMITIVE, value, self.broadcast_id(value)]]
        elif isinstance(kind, tuple):
            menu_value = value if isinstance(value, str) else ""
            if isinstance(value, str):
                self._named_menu(name, value)
            menu = self._menu(kind, menu_value, bid)
            if isinstance(value, TextBlock | Ref):
                inputs[name] = [3, self._reporter(value, bid), menu]
            else:
                inputs[name] = [1, menu]
        elif isinstance(value, TextBlock | Ref):
            shadow = [kind if isinstance(kind, int) else TEXT, _EMPTY.get(kind, "")]
            if kind == MSG_IN:
                shadow = [BROADCAST_PRIMITIVE, "", ""]
            inputs[name] = [3, self._reporter(value, bid), shadow]
        else:
            literal = _EMPTY.get(kind, "") if value is None else str(value)
            inputs[name] = [1, [kind, literal]]

    def _named_menu(self, name: str, value: str) -> None:
        if name == "COSTUME":
            self._asset(self.target, "costumes", value)
        elif name == "BACKDROP":
            self._asset(self.stage, "costumes", value)
        elif name == "SOUND_MENU":
            self._asset(self.target, "sounds", value)
        elif name in _SPRITE_MENUS and value not in ("Stage",):
            self._sprite(value)

    def _menu(self, kind: tuple[str, str], value: str, parent: str) -> str:
        mid = self.new_id()
        opcode, field = kind
        self.blocks[mid] = {
            "opcode": opcode, "next": None, "parent": parent, "inputs": {},
            "fields": {field: [value, None]}, "shadow": True, "topLevel": False,
        }  # fmt: skip
        return mid

    def _primitive(self, ref: Ref) -> list[Any]:
        if ref.kind == "list":
            return [LIST_PRIMITIVE, ref.name, self.list_id(ref.name)]
        return [VARIABLE_PRIMITIVE, ref.name, self.variable_id(ref.name)]

    def _reporter(self, value: TextBlock | Ref, parent: str) -> Any:
        """A reporter in an input: a block id, or a compact variable or list primitive."""
        if isinstance(value, Ref):
            return self._arg(value, parent) if value.kind == "arg" else self._primitive(value)
        return self.emit(value, parent, None)

    def _arg(self, ref: Ref, parent: str | None) -> str:
        opcode = "argument_reporter_boolean" if ref.boolean else "argument_reporter_string_number"
        bid = self._entry(opcode, parent, None)
        self.blocks[bid]["fields"] = {"VALUE": [ref.name, None]}
        return bid

    # ---- custom blocks ------------------------------------------------------------------
    def _definition(self, blk: TextBlock, bid: str) -> None:
        assert blk.proc is not None
        ids, names = self.procs[blk.proc.proccode]
        proto = self._entry("procedures_prototype", bid, None)
        self.blocks[proto]["shadow"] = True
        self.blocks[bid]["inputs"]["custom_block"] = [1, proto]
        kinds = [p for p in blk.proc.proccode.split() if p in ("%s", "%b", "%n")]
        for arg_id, name, kind in zip(ids, names, kinds, strict=False):
            arg = self._arg(Ref("arg", name, kind == "%b"), proto)
            self.blocks[arg]["shadow"] = True
            self.blocks[proto]["inputs"][arg_id] = [1, arg]
        self.blocks[proto]["mutation"] = {
            "tagName": "mutation", "children": [], "proccode": blk.proc.proccode,
            "argumentids": json.dumps(ids), "argumentnames": json.dumps(names),
            "argumentdefaults": json.dumps(["false" if k == "%b" else "" for k in kinds]),
            "warp": "false",
        }  # fmt: skip

    def _call(self, blk: TextBlock, bid: str) -> None:
        assert blk.proc is not None
        ids, _names = self.procs[blk.proc.proccode]
        entry = self.blocks[bid]
        kinds = [p for p in blk.proc.proccode.split() if p in ("%s", "%b", "%n")]
        for arg_id, kind, value in zip(ids, kinds, blk.proc.values, strict=False):
            if kind == "%b":
                if value is not None and not isinstance(value, str):
                    entry["inputs"][arg_id] = [2, self._reporter(value, bid)]
            elif isinstance(value, TextBlock | Ref):
                entry["inputs"][arg_id] = [3, self._reporter(value, bid), [TEXT, ""]]
            else:
                entry["inputs"][arg_id] = [1, [TEXT, "" if value is None else str(value)]]
        entry["mutation"] = {
            "tagName": "mutation", "children": [], "proccode": blk.proc.proccode,
            "argumentids": json.dumps(ids), "warp": "false",
        }  # fmt: skip

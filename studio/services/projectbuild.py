"""Build Scratch 3 projects (.sb3 bytes) from a compact Python description.

The bundled task library is generated with this module so that every project can be rebuilt
from source. A project is a stage with a backdrop, sprites with vector costumes (SVG text we
write ourselves), variables, broadcast messages and scripts. A script is a hat block followed
by a stack of blocks; C blocks take their substacks as lists and reporters nest as inputs:

    project = ProjectBuilder()
    cat = project.add_sprite("Cat", [Costume.circle("cat", 30, "#f90")])
    project.add_variable("score")
    cat.add_script(
        block("event_whenflagclicked"),
        block("data_setvariableto", VARIABLE="score", VALUE=0),
        block("control_repeat", TIMES=10, SUBSTACK=[block("motion_movesteps", STEPS=10)]),
    )
    data = project.build()

Block ids, variable ids and message ids are derived from names and positions only, so a rebuild
gives the same project.json.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from studio.services.sb3 import build_sb3

# Shadow primitive types of the sb3 format (the first number of a compact input array).
NUM, POSITIVE, WHOLE, INTEGER, ANGLE, TEXT = 4, 5, 6, 7, 8, 10
BROADCAST_PRIMITIVE, VARIABLE_PRIMITIVE = 11, 12

# How each argument of an opcode is stored. An int is a shadow literal of that type; the
# strings name the other kinds; a tuple is a menu shadow block (menu opcode, its field).
Kind = int | str | tuple[str, str]
BOOL, STACK, FIELD, VAR, MSG, MSG_IN = "bool", "stack", "field", "var", "msg", "msg_in"

_N2: dict[str, Kind] = {"NUM1": NUM, "NUM2": NUM}
_CMP: dict[str, Kind] = {"OPERAND1": TEXT, "OPERAND2": TEXT}
_LOGIC: dict[str, Kind] = {"OPERAND1": BOOL, "OPERAND2": BOOL}
SPEC: dict[str, dict[str, Kind]] = {
    "motion_movesteps": {"STEPS": NUM},
    "motion_turnright": {"DEGREES": NUM},
    "motion_turnleft": {"DEGREES": NUM},
    "motion_goto": {"TO": ("motion_goto_menu", "TO")},
    "motion_gotoxy": {"X": NUM, "Y": NUM},
    "motion_glidesecstoxy": {"SECS": NUM, "X": NUM, "Y": NUM},
    "motion_pointindirection": {"DIRECTION": ANGLE},
    "motion_changexby": {"DX": NUM},
    "motion_setx": {"X": NUM},
    "motion_changeyby": {"DY": NUM},
    "motion_sety": {"Y": NUM},
    "motion_ifonedgebounce": {},
    "motion_setrotationstyle": {"STYLE": FIELD},
    "motion_xposition": {},
    "motion_yposition": {},
    "looks_say": {"MESSAGE": TEXT},
    "looks_sayforsecs": {"MESSAGE": TEXT, "SECS": NUM},
    "looks_think": {"MESSAGE": TEXT},
    "looks_switchcostumeto": {"COSTUME": ("looks_costume", "COSTUME")},
    "looks_nextcostume": {},
    "looks_switchbackdropto": {"BACKDROP": ("looks_backdrops", "BACKDROP")},
    "looks_changesizeby": {"CHANGE": NUM},
    "looks_setsizeto": {"SIZE": NUM},
    "looks_show": {},
    "looks_hide": {},
    "looks_gotofrontback": {"FRONT_BACK": FIELD},
    "looks_costumenumbername": {"NUMBER_NAME": FIELD},
    "event_whenflagclicked": {},
    "event_whenkeypressed": {"KEY_OPTION": FIELD},
    "event_whenthisspriteclicked": {},
    "event_whenstageclicked": {},
    "event_whenbroadcastreceived": {"BROADCAST_OPTION": MSG},
    "event_broadcast": {"BROADCAST_INPUT": MSG_IN},
    "event_broadcastandwait": {"BROADCAST_INPUT": MSG_IN},
    "control_wait": {"DURATION": POSITIVE},
    "control_repeat": {"TIMES": WHOLE, "SUBSTACK": STACK},
    "control_forever": {"SUBSTACK": STACK},
    "control_if": {"CONDITION": BOOL, "SUBSTACK": STACK},
    "control_if_else": {"CONDITION": BOOL, "SUBSTACK": STACK, "SUBSTACK2": STACK},
    "control_wait_until": {"CONDITION": BOOL},
    "control_repeat_until": {"CONDITION": BOOL, "SUBSTACK": STACK},
    "control_stop": {"STOP_OPTION": FIELD},
    "control_start_as_clone": {},
    "control_create_clone_of": {"CLONE_OPTION": ("control_create_clone_of_menu", "CLONE_OPTION")},
    "control_delete_this_clone": {},
    "sensing_askandwait": {"QUESTION": TEXT},
    "sensing_answer": {},
    "sensing_keypressed": {"KEY_OPTION": ("sensing_keyoptions", "KEY_OPTION")},
    "sensing_touchingobject": {
        "TOUCHINGOBJECTMENU": ("sensing_touchingobjectmenu", "TOUCHINGOBJECTMENU")
    },
    "sensing_mousedown": {},
    "sensing_timer": {},
    "sensing_resettimer": {},
    "operator_add": _N2,
    "operator_subtract": _N2,
    "operator_multiply": _N2,
    "operator_divide": _N2,
    "operator_mod": _N2,
    "operator_random": {"FROM": NUM, "TO": NUM},
    "operator_round": {"NUM": NUM},
    "operator_mathop": {"OPERATOR": FIELD, "NUM": NUM},
    "operator_gt": _CMP,
    "operator_lt": _CMP,
    "operator_equals": _CMP,
    "operator_and": _LOGIC,
    "operator_or": _LOGIC,
    "operator_not": {"OPERAND": BOOL},
    "operator_join": {"STRING1": TEXT, "STRING2": TEXT},
    "operator_letter_of": {"LETTER": WHOLE, "STRING": TEXT},
    "operator_length": {"STRING": TEXT},
    "operator_contains": {"STRING1": TEXT, "STRING2": TEXT},
    "data_variable": {"VARIABLE": VAR},
    "data_setvariableto": {"VARIABLE": VAR, "VALUE": TEXT},
    "data_changevariableby": {"VARIABLE": VAR, "VALUE": NUM},
    "data_showvariable": {"VARIABLE": VAR},
    "data_hidevariable": {"VARIABLE": VAR},
}


@dataclass(frozen=True)
class Var:
    """A variable reporter placed in an input, by variable name (sprite's own first, then stage)."""

    name: str


@dataclass
class Block:
    """One block of a script: its opcode and its arguments (inputs and fields) by name."""

    opcode: str
    args: dict[str, Any]


def block(opcode: str, **args: Any) -> Block:
    """Describe a block. Arguments are literals, `Var`, nested `Block`s or lists (substacks)."""
    spec = SPEC.get(opcode)
    if spec is None:
        raise KeyError(f"projectbuild does not know the opcode {opcode!r}")
    unknown = sorted(set(args) - set(spec))
    if unknown:
        raise ValueError(f"{opcode} has no argument {', '.join(unknown)}")
    return Block(opcode, dict(args))


@dataclass(frozen=True)
class Costume:
    """A vector costume: a name, SVG text and the rotation centre in SVG units."""

    name: str
    svg: str
    center: tuple[float, float]

    @property
    def data(self) -> bytes:
        return self.svg.encode("utf-8")

    @property
    def md5ext(self) -> str:
        return hashlib.md5(self.data).hexdigest() + ".svg"

    def entry(self) -> dict[str, Any]:
        """The costume's record in project.json."""
        return {
            "name": self.name,
            "bitmapResolution": 1,
            "dataFormat": "svg",
            "assetId": self.md5ext[:-4],
            "md5ext": self.md5ext,
            "rotationCenterX": self.center[0],
            "rotationCenterY": self.center[1],
        }

    @classmethod
    def shape(cls, name: str, width: float, height: float, body: str) -> Costume:
        """A costume of `width` x `height` drawn by the SVG elements in `body`, centred."""
        svg = (
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width:g}" '
            f'height="{height:g}" viewBox="0 0 {width:g} {height:g}">{body}</svg>'
        )
        return cls(name, svg, (_number(width / 2), _number(height / 2)))

    @classmethod
    def circle(cls, name: str, radius: float, fill: str, stroke: str = "#333333") -> Costume:
        size = 2 * radius + 4
        body = (
            f'<circle cx="{size / 2:g}" cy="{size / 2:g}" r="{radius:g}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="2"/>'
        )
        return cls.shape(name, size, size, body)

    @classmethod
    def rect(cls, name: str, width: float, height: float, fill: str) -> Costume:
        body = (
            f'<rect x="2" y="2" width="{width:g}" height="{height:g}" rx="6" fill="{fill}" '
            'stroke="#333333" stroke-width="2"/>'
        )
        return cls.shape(name, width + 4, height + 4, body)

    @classmethod
    def backdrop(cls, name: str = "backdrop1", fill: str = "#ffffff") -> Costume:
        return cls.shape(name, 480, 360, f'<rect width="480" height="360" fill="{fill}"/>')


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_") or "x"


class Target:
    """A stage or sprite under construction: costumes, properties, variables and scripts."""

    def __init__(self, name: str, costumes: list[Costume], props: dict[str, Any]) -> None:
        if not costumes:
            raise ValueError(f"{name} needs at least one costume")
        self.name = name
        self.is_stage = bool(props.get("isStage"))
        self.costumes = list(costumes)
        self.props = props
        self.variables: dict[str, Any] = {}
        self.scripts: list[list[Block]] = []

    def add_variable(self, name: str, value: Any = 0) -> None:
        """Declare a variable owned by this target (on the stage: for all sprites)."""
        self.variables[name] = value

    def add_script(self, *blocks: Block) -> None:
        """Add a script: its hat block (or first block) followed by the stack below it."""
        if not blocks:
            raise ValueError("a script needs at least one block")
        self.scripts.append(list(blocks))

    def variable_id(self, name: str) -> str:
        return f"{_slug(self.name)}-var-{_slug(name)}"


class ProjectBuilder:
    """A whole project: the stage, the sprites (in layer order) and the broadcast messages."""

    def __init__(self, backdrop: Costume | None = None) -> None:
        self.stage = Target("Stage", [backdrop or Costume.backdrop()], {"isStage": True})
        self.sprites: list[Target] = []
        self.broadcasts: list[str] = []

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

    def add_broadcast(self, name: str) -> None:
        if name not in self.broadcasts:
            self.broadcasts.append(name)

    def broadcast_id(self, name: str) -> str:
        if name not in self.broadcasts:
            raise ValueError(f"unknown message {name!r}: declare it with add_broadcast")
        return f"broadcast-{_slug(name)}-{self.broadcasts.index(name) + 1}"

    def assets(self) -> dict[str, bytes]:
        """Every costume file the project needs, keyed by md5ext."""
        return {c.md5ext: c.data for t in [self.stage, *self.sprites] for c in t.costumes}

    def to_json(self) -> dict[str, Any]:
        """The project.json content."""
        targets = [
            self._target_json(t, layer) for layer, t in enumerate([self.stage, *self.sprites])
        ]
        meta = {"semver": "3.0.0", "vm": "0.2.0", "agent": "Scratch Bench Studio projectbuild"}
        return {"targets": targets, "monitors": [], "extensions": [], "meta": meta}

    def build(self) -> bytes:
        """The .sb3 file: project.json plus every costume."""
        return build_sb3(self.to_json(), self.assets())

    def _target_json(self, target: Target, layer: int) -> dict[str, Any]:
        emitter = _ScriptEmitter(self, target)
        for index, script in enumerate(target.scripts):
            emitter.emit_stack(script, None, (48, 48 + 320 * index))
        out: dict[str, Any] = {
            "isStage": target.is_stage,
            "name": target.name,
            "variables": {target.variable_id(n): [n, v] for n, v in target.variables.items()},
            "lists": {},
            "broadcasts": {},
            "blocks": emitter.blocks,
            "comments": {},
            "currentCostume": 0,
            "costumes": [c.entry() for c in target.costumes],
            "sounds": [],
            "volume": 100,
            "layerOrder": layer,
        }
        if target.is_stage:
            out["broadcasts"] = {self.broadcast_id(n): n for n in self.broadcasts}
            out |= {"tempo": 60, "videoTransparency": 50, "videoState": "on"}
            out["textToSpeechLanguage"] = None
        else:
            out |= {k: v for k, v in target.props.items() if k != "isStage"}
            out.setdefault("rotationStyle", "all around")
        return out


class _ScriptEmitter:
    """Turns the block descriptions of one target into the flat sb3 block table."""

    def __init__(self, project: ProjectBuilder, target: Target) -> None:
        self.project = project
        self.target = target
        self.blocks: dict[str, dict[str, Any]] = {}
        self.prefix = _slug(target.name)

    def new_id(self) -> str:
        return f"{self.prefix}-{len(self.blocks) + 1}"

    def emit_stack(
        self, stack: list[Block], parent: str | None, top: tuple[float, float] | None = None
    ) -> str:
        """Emit a stack; return the id of its first block."""
        first = prev = ""
        for blk in stack:
            bid = self.emit(blk, prev or parent, top if not first else None)
            if prev:
                self.blocks[prev]["next"] = bid
            first, prev = first or bid, bid
        return first

    def emit(self, blk: Block, parent: str | None, top: tuple[float, float] | None) -> str:
        bid = self.new_id()
        entry: dict[str, Any] = {
            "opcode": blk.opcode,
            "next": None,
            "parent": parent,
            "inputs": {},
            "fields": {},
            "shadow": False,
            "topLevel": top is not None,
        }
        if top is not None:
            entry["x"], entry["y"] = top
        self.blocks[bid] = entry
        for name, kind in SPEC[blk.opcode].items():
            if name in blk.args:
                self._argument(entry, bid, name, kind, blk.args[name])
            elif isinstance(kind, int):
                entry["inputs"][name] = [1, [kind, "" if kind == TEXT else "0"]]
            elif kind in (FIELD, VAR, MSG, MSG_IN) or isinstance(kind, tuple):
                raise ValueError(f"{blk.opcode} needs its {name} argument")
        if blk.opcode == "control_stop":
            others = blk.args.get("STOP_OPTION") == "other scripts in sprite"
            entry["mutation"] = {
                "tagName": "mutation",
                "children": [],
                "hasnext": str(others).lower(),
            }
        return bid

    def _argument(self, entry: dict[str, Any], bid: str, name: str, kind: Kind, value: Any) -> None:
        inputs, fields = entry["inputs"], entry["fields"]
        if kind == STACK:
            if value:
                inputs[name] = [2, self.emit_stack(list(value), bid)]
        elif kind == BOOL:
            inputs[name] = [2, self._reporter(value, bid)]
        elif kind == FIELD:
            fields[name] = [str(value), None]
        elif kind == VAR:
            fields[name] = [value, self._variable_id(value)]
        elif kind == MSG:
            fields[name] = [value, self.project.broadcast_id(value)]
        elif kind == MSG_IN:
            inputs[name] = [1, [BROADCAST_PRIMITIVE, value, self.project.broadcast_id(value)]]
        elif isinstance(kind, tuple):
            inputs[name] = [1, self._menu(kind, str(value), bid)]
        elif isinstance(value, Var):
            var = [VARIABLE_PRIMITIVE, value.name, self._variable_id(value.name)]
            inputs[name] = [3, var, [kind, ""]]
        elif isinstance(value, Block):
            inputs[name] = [3, self._reporter(value, bid), [kind, ""]]
        else:
            inputs[name] = [1, [kind, _literal(value)]]

    def _reporter(self, value: Any, parent: str) -> str:
        if not isinstance(value, Block):
            raise TypeError(f"expected a reporter block, got {value!r}")
        return self.emit(value, parent, None)

    def _menu(self, kind: tuple[str, str], value: str, parent: str) -> str:
        mid = self.new_id()
        opcode, field = kind
        self.blocks[mid] = {
            "opcode": opcode,
            "next": None,
            "parent": parent,
            "inputs": {},
            "fields": {field: [value, None]},
            "shadow": True,
            "topLevel": False,
        }
        return mid

    def _variable_id(self, name: str) -> str:
        for owner in (self.target, self.project.stage):
            if name in owner.variables:
                return owner.variable_id(name)
        raise ValueError(f"{self.target.name} uses an undeclared variable {name!r}")


def _number(value: float) -> float:
    return int(value) if float(value).is_integer() else value


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return str(_number(value))
    return str(value)

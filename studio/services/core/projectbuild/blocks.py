"""Block descriptions (`block`, `Var`, `ListVar`) and the emitter that flattens them into the
sb3 block table of one target, in the shapes scratch-vm's serializer writes.

The emitter asks the target and the project (studio.services.core.projectbuild.project, which uses
this module) only what the `Owner` and `Project` protocols below name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from studio.services.core.projectbuild.spec import (
    BOOL,
    BROADCAST_PRIMITIVE,
    COLOR,
    FIELD,
    LIST,
    LIST_PRIMITIVE,
    MSG,
    MSG_IN,
    SPEC,
    STACK,
    TEXT,
    VAR,
    VARIABLE_PRIMITIVE,
    Kind,
)

__all__ = ["Block", "ListVar", "Owner", "Project", "ScriptEmitter", "Var", "block"]

_EMPTY = {TEXT: "", COLOR: "#000000"}  # an omitted literal input; numbers default to "0"


@dataclass(frozen=True)
class Var:
    """A variable reporter placed in an input, by variable name (sprite's own first, then stage)."""

    name: str


@dataclass(frozen=True)
class ListVar:
    """A list reporter (the list's contents) placed in an input, by list name."""

    name: str


@dataclass
class Block:
    """One block of a script: its opcode and its arguments (inputs and fields) by name."""

    opcode: str
    args: dict[str, Any]


def block(opcode: str, **args: Any) -> Block:
    """Describe a block. Arguments are literals, `Var`, `ListVar`, nested `Block`s or lists
    (substacks); fields take their value (a list field: the list's name)."""
    spec = SPEC.get(opcode)
    if spec is None:
        raise KeyError(f"projectbuild does not know the opcode {opcode!r}")
    unknown = sorted(set(args) - set(spec))
    if unknown:
        raise ValueError(f"{opcode} has no argument {', '.join(unknown)}")
    return Block(opcode, dict(args))


def _number(value: float) -> float:
    return int(value) if float(value).is_integer() else value


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return str(_number(value))
    return str(value)


def _compact(value: Any) -> Any:
    """A variable or list reporter block stands for `Var` / `ListVar` (the VM stores those in
    inputs as compact primitives, not as blocks)."""
    if isinstance(value, Block) and value.opcode == "data_variable" and "VARIABLE" in value.args:
        return Var(value.args["VARIABLE"])
    if isinstance(value, Block) and value.opcode == "data_listcontents" and "LIST" in value.args:
        return ListVar(value.args["LIST"])
    return value


class Owner(Protocol):
    """A target as the emitter sees it: its name, id prefix, variables and lists."""

    name: str
    slug: str
    variables: dict[str, Any]
    lists: dict[str, list[Any]]

    def variable_id(self, name: str) -> str: ...

    def list_id(self, name: str) -> str: ...


class Project(Protocol):
    """The project as the emitter sees it: the stage (global variables) and broadcast ids."""

    @property
    def stage(self) -> Owner: ...

    def broadcast_id(self, name: str) -> str: ...


class ScriptEmitter:
    """Turns the block descriptions of one target into the flat sb3 block table."""

    def __init__(self, project: Project, target: Owner) -> None:
        self.project = project
        self.target = target
        self.blocks: dict[str, dict[str, Any]] = {}
        self.prefix = target.slug

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
                entry["inputs"][name] = [1, [kind, _EMPTY.get(kind, "0")]]
            elif kind in (FIELD, VAR, LIST, MSG, MSG_IN) or isinstance(kind, tuple):
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
        value = _compact(value)
        if kind == STACK:
            if value:
                inputs[name] = [2, self.emit_stack(list(value), bid)]
        elif kind == BOOL and isinstance(value, Var | ListVar):
            inputs[name] = [2, self._primitive(value)]
        elif kind == BOOL:
            inputs[name] = [2, self._reporter(value, bid)]
        elif kind == FIELD:
            fields[name] = [str(value), None]
        elif kind == VAR:
            fields[name] = [value, self._variable_id(value)]
        elif kind == LIST:
            fields[name] = [value, self._list_id(value)]
        elif kind == MSG:
            fields[name] = [value, self.project.broadcast_id(value)]
        elif kind == MSG_IN:
            inputs[name] = [1, [BROADCAST_PRIMITIVE, value, self.project.broadcast_id(value)]]
        elif isinstance(kind, tuple):
            if isinstance(value, Block | Var | ListVar):
                raise TypeError(f"{entry['opcode']}.{name} takes a menu value, not {value!r}")
            inputs[name] = [1, self._menu(kind, _literal(value), bid)]
        elif isinstance(value, Var | ListVar):
            inputs[name] = [3, self._primitive(value), [kind, ""]]
        elif isinstance(value, Block):
            inputs[name] = [3, self._reporter(value, bid), [kind, ""]]
        else:
            inputs[name] = [1, [kind, _literal(value)]]

    def _primitive(self, value: Var | ListVar) -> list[Any]:
        """A variable or list reporter in an input, compressed as the VM writes it."""
        if isinstance(value, Var):
            return [VARIABLE_PRIMITIVE, value.name, self._variable_id(value.name)]
        return [LIST_PRIMITIVE, value.name, self._list_id(value.name)]

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

    def _list_id(self, name: str) -> str:
        for owner in (self.target, self.project.stage):
            if name in owner.lists:
                return owner.list_id(name)
        raise ValueError(f"{self.target.name} uses an undeclared list {name!r}")

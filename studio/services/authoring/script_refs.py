"""Names an evaluation script passes as string literals to the helper library.

`EU.getVariableValue(vm, 'score')` says the task needs a variable called score;
`EU.pressKey(vm, 'space')` that the space key matters. The script is split into tokens by a
small lexer (strings, template literals, comments and regular expressions are told apart, so
a quote inside a regex or a comment does not derail it) and the string-literal arguments of
known helper calls are collected. Names built at run time (variables, template strings) are
out of reach and simply not reported. Argument positions follow resources/js/
evaluation_utils.js; every helper takes the VM first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["HELPERS", "METHODS", "K", "L", "M", "Ref", "RefKind", "S", "V", "script_refs", "tokens"]


class RefKind(StrEnum):
    SPRITE = "sprite"
    VARIABLE = "variable"
    LIST = "list"
    KEY = "key"
    MESSAGE = "message"


S, V, L, K, M = RefKind.SPRITE, RefKind.VARIABLE, RefKind.LIST, RefKind.KEY, RefKind.MESSAGE
# helper name -> (argument index, kind) pairs
HELPERS: dict[str, tuple[tuple[int, RefKind], ...]] = {
    **{
        name: ((1, S),)
        for name in (
            "findSprite", "getSprite", "requireSprite", "getClones", "countClones",
            "getSpriteState", "getPosition", "clickSprite", "sayText",
        )
    },
    "isTouching": ((1, S), (2, S)),
    "getVariableValue": ((1, V), (2, S)),
    "setVariableValue": ((1, V), (3, S)),
    "findVariable": ((1, V), (2, S)),  # the kind depends on the type argument, see below
    "getList": ((1, L), (2, S)),
    "keyDown": ((1, K),),
    "keyUp": ((1, K),),
    "pressKey": ((1, K),),
    "broadcast": ((1, M),),
}  # fmt: skip
# Methods of the recorder recordSays returns, called on it: says.texts('Cat').
METHODS: dict[str, tuple[tuple[int, RefKind], ...]] = {"texts": ((0, S),), "last": ((0, S),)}
_SPECIAL_TARGETS = {"_edge_", "_mouse_", "_stage_", "_myself_", "_random_"}
_FIND_KINDS = {"list": L, "broadcast_msg": M}


@dataclass(frozen=True)
class Ref:
    """One name the script passes to a helper: its kind, the name and the script line."""

    kind: RefKind
    name: str
    line: int


@dataclass(frozen=True)
class _Tok:
    kind: str  # id | str | tpl | num | re | p
    text: str
    line: int


_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER = re.compile(r"\d[\w.]*|\.\d[\w]*")
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {"return", "typeof", "case", "in", "of", "void"}
_REGEX_AFTER |= {"delete", "throw", "new", "yield", "await", "else", "do"}


def _skip_string(src: str, i: int) -> tuple[int, str]:
    """From an opening quote at `i`: the index after the closing quote and the value."""
    quote, out, i = src[i], [], i + 1
    while i < len(src) and src[i] != quote:
        if src[i] == "\\" and i + 1 < len(src):
            out.append(src[i + 1])
            i += 2
            continue
        out.append(src[i])
        i += 1
    return i + 1, "".join(out)


def _skip_template(src: str, i: int) -> tuple[int, str | None]:
    """From an opening backtick: the index after the template and its text (None if ${})."""
    out, i, dynamic = [], i + 1, False
    while i < len(src) and src[i] != "`":
        if src[i] == "\\":
            out.append(src[i + 1 : i + 2])
            i += 2
        elif src.startswith("${", i):
            dynamic, depth, i = True, 1, i + 2
            while i < len(src) and depth:
                if src[i] in "'\"`":
                    i = (_skip_template if src[i] == "`" else _skip_string)(src, i)[0]
                    continue
                depth += {"{": 1, "}": -1}.get(src[i], 0)
                i += 1
        else:
            out.append(src[i])
            i += 1
    return i + 1, None if dynamic else "".join(out)


def _skip_regex(src: str, i: int) -> int:
    i, in_class = i + 1, False
    while i < len(src) and src[i] != "\n":
        ch = src[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "/" and not in_class:
            break
        in_class = (in_class or ch == "[") and ch != "]"
        i += 1
    i += 1
    while i < len(src) and (src[i].isalnum() or src[i] == "_"):
        i += 1
    return i


def _regex_allowed(prev: _Tok | None) -> bool:
    """Whether a '/' after `prev` starts a regular expression (not a division)."""
    return prev is None or (prev.kind in ("p", "id") and prev.text in _REGEX_AFTER)


def tokens(src: str) -> Iterator[_Tok]:
    """The script's tokens; comments and whitespace dropped."""
    i, line, prev = 0, 1, None
    while i < len(src):
        ch, start = src[i], i
        if ch.isspace():
            i += 1
        elif src.startswith("//", i):
            i = src.find("\n", i) if "\n" in src[i:] else len(src)
        elif src.startswith("/*", i):
            end = src.find("*/", i + 2)
            i = len(src) if end < 0 else end + 2
        else:
            if ch in "'\"":
                i, text = _skip_string(src, i)
                tok = _Tok("str", text, line)
            elif ch == "`":
                i, maybe = _skip_template(src, i)
                tok = _Tok("str" if maybe is not None else "tpl", maybe or "", line)
            elif m := _IDENT.match(src, i):
                i, tok = m.end(), _Tok("id", m.group(), line)
            elif m := _NUMBER.match(src, i):
                i, tok = m.end(), _Tok("num", m.group(), line)
            elif ch == "/" and _regex_allowed(prev):
                i, tok = _skip_regex(src, i), _Tok("re", "", line)
            else:
                i, tok = i + 1, _Tok("p", ch, line)
            yield tok
            prev = tok
        line += src.count("\n", start, i)


def _arguments(toks: list[_Tok], open_index: int) -> list[list[_Tok]]:
    """The top-level arguments of the call whose '(' is at `open_index`."""
    args: list[list[_Tok]] = [[]]
    depth = 0
    for tok in toks[open_index + 1 :]:
        if tok.kind == "p" and tok.text in "([{":
            depth += 1
        elif tok.kind == "p" and tok.text in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif tok.kind == "p" and tok.text == "," and depth == 0:
            args.append([])
            continue
        args[-1].append(tok)
    return args


def _literal(arg: list[_Tok]) -> str | None:
    return arg[0].text if len(arg) == 1 and arg[0].kind == "str" else None


def script_refs(src: str) -> list[Ref]:
    """Every (kind, name) the script passes as a literal to a helper, in script order."""
    toks = list(tokens(src))
    refs: list[Ref] = []
    for i, tok in enumerate(toks[:-1]):
        if tok.kind != "id" or toks[i + 1].text != "(":
            continue
        before = toks[i - 1].text if i else ""
        if before == "function":
            continue  # a definition of the script's own, not a helper call
        slots = METHODS.get(tok.text) if before == "." else None
        slots = slots or HELPERS.get(tok.text)
        if not slots:
            continue
        args = _arguments(toks, i + 1)
        for index, kind in slots:
            name = _literal(args[index]) if index < len(args) else None
            if tok.text == "findVariable" and index == 1 and len(args) > 3:
                kind = _FIND_KINDS.get(_literal(args[3]) or "", V)
            if name and name not in _SPECIAL_TARGETS:
                refs.append(Ref(kind, name, tok.line))
    return refs

"""Which names a project has and whether an instruction mentions a name.

Sprite names, broadcast messages and keys compare without case (the VM finds sprites and
messages that way); variable and list names compare exactly, as the helper library does. An
instruction mentions a name when the name appears as a whole word, a plural or possessive
allowed ("Coins", "Coin's"). Keys are matched as people write them: "right arrow" is mentioned
by "the left and right arrow keys", "space" by "space bar", a letter key only as "a key",
"the 'a' key" or "key a", never by the article "a".
"""

from __future__ import annotations

import re
from typing import Any

from studio.services.authoring.script_refs import Ref, RefKind

__all__ = ["has_name", "mentions", "project_names", "scratch_key"]

_DIRECTIONS = ("left", "right", "up", "down")
_KEY_ALIASES = {"": "space", "return": "enter"} | {
    alias: f"{d} arrow" for d in _DIRECTIONS for alias in (d, f"arrow{d}")
}


def scratch_key(name: str) -> str:
    """A key as Scratch names it in "when key pressed": 'ArrowLeft' -> 'left arrow'."""
    key = " ".join(name.lower().split())
    return _KEY_ALIASES.get(key, key)


def project_names(project: dict[str, Any] | None, kind: RefKind) -> set[str]:
    """Names of one kind in a project; sprites, keys and messages lower-cased."""
    if project is None:
        return set()
    names: set[str] = set()
    for target in project.get("targets", []):
        if kind is RefKind.SPRITE and not target.get("isStage"):
            names.add(str(target.get("name", "")).lower())
        elif kind in (RefKind.VARIABLE, RefKind.LIST):
            table = target.get("variables" if kind is RefKind.VARIABLE else "lists") or {}
            names.update(str(v[0]) for v in table.values() if isinstance(v, list) and v)
        elif kind is RefKind.MESSAGE:
            names.update(str(v).lower() for v in (target.get("broadcasts") or {}).values())
        elif kind is RefKind.KEY:
            for blk in (target.get("blocks") or {}).values():
                if isinstance(blk, dict) and "KEY_OPTION" in (blk.get("fields") or {}):
                    names.add(scratch_key(str(blk["fields"]["KEY_OPTION"][0])))
    return names


def has_name(project: dict[str, Any] | None, ref: Ref) -> bool:
    """Whether the project has the sprite, variable, list, message or key hat `ref` names."""
    if ref.kind is RefKind.KEY:
        name = scratch_key(ref.name)
    else:
        exact = ref.kind in (RefKind.VARIABLE, RefKind.LIST)
        name = ref.name if exact else ref.name.lower()
    return name in project_names(project, ref.kind)


def _word(text: str, phrase: str) -> bool:
    pattern = rf"(?<!\w){re.escape(phrase)}(?:s|es|'s)?(?!\w)"
    return re.search(pattern, text, re.IGNORECASE) is not None


def mentions(instruction: str, ref: Ref) -> bool:
    """Whether the instruction names `ref` so that an agent knows it (case-insensitive)."""
    if ref.kind is not RefKind.KEY:
        return _word(instruction, ref.name)
    key = scratch_key(ref.name).removesuffix(" arrow")
    if key in _DIRECTIONS:
        return _word(instruction, key) and _word(instruction, "arrow")
    if key == "space":
        return any(_word(instruction, w) for w in ("space", "spacebar", "space bar"))
    if key == "enter":
        return _word(instruction, "enter") or _word(instruction, "return")
    if len(key) > 1:
        return _word(instruction, key)
    k = re.escape(key)
    quoted = rf"['\"]{k}['\"]|(?<!\w){k}[- ]key|\bkey ['\"]?{k}(?!\w)"
    return re.search(quoted, instruction, re.IGNORECASE) is not None

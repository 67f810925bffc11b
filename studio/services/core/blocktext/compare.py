"""The blocks of a script as a comparable value, for "render then parse gives the same blocks".

`script_shape(blocks, top)` is the script with ids, positions and storage details left out:
each block's opcode, its fields' values, each input's content (a literal's text, a menu's
value, a nested block's shape, a variable or list by name; an empty boolean slot is None),
its substacks, and for custom blocks the proccode, argument names (define), argument values
in order (call) and whether it runs without screen refresh (warp, which the text cannot say).
Literal types are not compared: `(10)` and `[10]` hold the same value.
"""

from __future__ import annotations

import json
from typing import Any

from studio.services.core.blocks import Blocks, chain, input_block, input_shadow

__all__ = ["script_shape", "target_shapes"]


def _json_list(text: Any) -> list[Any]:
    try:
        value = json.loads(text or "[]")
    except (TypeError, json.JSONDecodeError):
        return []
    return value if isinstance(value, list) else []


def _content(blocks: Blocks, inp: Any) -> Any:
    if not isinstance(inp, list) or len(inp) < 2:
        return None
    main = inp[1]
    if inp[0] in (2, 3) and main is not None:
        if isinstance(main, list):
            return ("list" if main[0] == 13 else "var", str(main[1]))
        return _block(blocks, main)
    shadow = input_shadow(inp)
    if isinstance(shadow, list) and len(shadow) > 1:
        return str(shadow[1])
    if isinstance(shadow, str) and isinstance(blocks.get(shadow), dict):
        fields = blocks[shadow].get("fields", {})
        return str(next(iter(fields.values()))[0]) if fields else ""
    return None


def _block(blocks: Blocks, bid: str) -> Any:
    blk = blocks.get(bid)
    if isinstance(blk, list):
        return ("list" if blk[0] == 13 else "var", str(blk[1]))
    if not isinstance(blk, dict):
        return None
    opcode = blk["opcode"]
    if opcode == "data_variable":
        return ("var", str(blk["fields"]["VARIABLE"][0]))
    if opcode == "data_listcontents":
        return ("list", str(blk["fields"]["LIST"][0]))
    fields = {name: str(f[0]) for name, f in blk.get("fields", {}).items() if f}
    inputs = blk.get("inputs", {})
    shape: dict[str, Any] = {"op": opcode, "fields": fields}
    mutation = blk.get("mutation") or {}
    if opcode == "procedures_definition":
        proto = blocks.get(input_block(inputs.get("custom_block")) or "") or {}
        m = proto.get("mutation") or {}
        shape |= {
            "proccode": m.get("proccode"),
            "names": _json_list(m.get("argumentnames")),
            "warp": str(m.get("warp", "false")).lower() == "true",
        }
        return shape
    if opcode == "procedures_call":
        ids = _json_list(mutation.get("argumentids"))
        shape |= {
            "proccode": mutation.get("proccode"),
            "args": [_content(blocks, inputs.get(i)) for i in ids],
            "warp": str(mutation.get("warp", "false")).lower() == "true",
        }
        return shape
    shape["inputs"] = {
        name: (
            _stack(blocks, input_block(inp))
            if name.startswith("SUBSTACK")
            else _content(blocks, inp)
        )
        for name, inp in sorted(inputs.items())
    }
    shape["inputs"] = {k: v for k, v in shape["inputs"].items() if v not in (None, "", [])}
    return shape


def _stack(blocks: Blocks, first: str | None) -> list[Any]:
    return [_block(blocks, bid) for bid in chain(blocks, first)]


def script_shape(blocks: Blocks, top: str) -> Any:
    """The comparable value of the script (or loose reporter) starting at `top`."""
    entry = blocks.get(top)
    if isinstance(entry, dict) and entry.get("next"):
        return _stack(blocks, top)
    if isinstance(entry, dict) and not entry.get("next"):
        return [_block(blocks, top)]
    return [_block(blocks, top)]


def target_shapes(blocks: Blocks, tops: list[str]) -> list[Any]:
    return [script_shape(blocks, top) for top in tops]

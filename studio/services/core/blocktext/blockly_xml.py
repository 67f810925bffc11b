"""A target's scripts (Scratch 3 `project.json` blocks) as the Blockly XML the editor reads.

The editor's workspace takes blocks as XML (`Blockly.Xml.domToBlock`); the VM writes that
XML from its own blocks (scratch-vm `Blocks.blockToXML`) and reads `project.json` blocks with
its sb3 deserializer. `script_xml(blocks, top)` goes straight from `project.json` blocks to the
XML the VM would write after deserializing them:

- a block is `<block id type>` (`<shadow>` for a shadow), then its `<mutation>` (every key but
  `tagName` and `children`, children nested), one `<value name>` per input holding its block
  and, when different, its shadow, its `<field name [id] [variabletype]>` (variable fields:
  `""`, list fields: `"list"`, message fields: `"broadcast_msg"`), and `<next>`;
- an input's compressed primitive (`[4, "10"]`, `[12, "score", "id"]`, ...) is the block the
  deserializer makes of it: `math_number` / `math_positive_number` / `math_whole_number` /
  `math_integer` / `math_angle` (field NUM), `colour_picker` (COLOUR), `text` (TEXT),
  `event_broadcast_menu` (BROADCAST_OPTION), `data_variable` (VARIABLE), `data_listcontents`
  (LIST); a shadow when the input is of kind 1 (its own shadow) or sits in the shadow slot;
  it gets no id (Blockly makes one);
- a top-level variable or list reporter, stored as a bare array `[12, name, id, x, y]`, is a
  `data_variable` / `data_listcontents` block.

`target_scripts(target)` lists every script of a target, top to bottom as `studio blocks text`
writes them, with its XML and its position on the canvas.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from studio.services.core.blocktext.writing import top_ids

__all__ = ["PRIMITIVES", "ScriptXml", "script_xml", "target_scripts"]

# sb3 primitive type -> (opcode, field name, variable type or None)
PRIMITIVES: dict[int, tuple[str, str, str | None]] = {
    4: ("math_number", "NUM", None),
    5: ("math_positive_number", "NUM", None),
    6: ("math_whole_number", "NUM", None),
    7: ("math_integer", "NUM", None),
    8: ("math_angle", "NUM", None),
    9: ("colour_picker", "COLOUR", None),
    10: ("text", "TEXT", None),
    11: ("event_broadcast_menu", "BROADCAST_OPTION", "broadcast_msg"),
    12: ("data_variable", "VARIABLE", ""),
    13: ("data_listcontents", "LIST", "list"),
}
_FIELD_TYPES = {"VARIABLE": "", "LIST": "list", "BROADCAST_OPTION": "broadcast_msg"}
MAX_DEPTH = 2000  # deeper nesting than any editor shows: refused rather than overflowing


@dataclass(frozen=True)
class ScriptXml:
    """One script: the XML of its top block (with everything under it) and its position."""

    top: str
    xml: str
    x: float
    y: float


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return str(value)


def _field(name: str, value: Any, fid: Any, var_type: str | None) -> str:
    attrs = f"name={quoteattr(name)}"
    if fid is not None:
        attrs += f" id={quoteattr(_text(fid))}"
    if var_type is not None:
        attrs += f" variabletype={quoteattr(var_type)}"
    return f"<field {attrs}>{escape(_text(value))}</field>"


def _primitive(prim: list[Any], shadow: bool, top: tuple[Any, Any] | None = None) -> str:
    kind = prim[0] if prim else None
    if kind not in PRIMITIVES:
        raise ValueError(f"unknown primitive {prim!r}")
    opcode, field, var_type = PRIMITIVES[kind]
    tag = "shadow" if shadow else "block"
    fid = prim[2] if var_type is not None and len(prim) > 2 else None
    value = prim[1] if len(prim) > 1 else ""
    where = f" x={quoteattr(_text(top[0]))} y={quoteattr(_text(top[1]))}" if top else ""
    return f"<{tag} type={quoteattr(opcode)}{where}>{_field(field, value, fid, var_type)}</{tag}>"


def _mutation(mutation: dict[str, Any]) -> str:
    tag = str(mutation.get("tagName") or "mutation")
    attrs = "".join(
        f" {key}={quoteattr(_text(value))}"
        for key, value in mutation.items()
        if key not in ("tagName", "children")
    )
    children = "".join(_mutation(c) for c in mutation.get("children") or [] if isinstance(c, dict))
    return f"<{tag}{attrs}>{children}</{tag}>"


def _slot(blocks: dict[str, Any], ref: Any, shadow: bool, depth: int) -> str:
    if isinstance(ref, list):
        return _primitive(ref, shadow)
    if isinstance(ref, str) and ref in blocks:
        return _block(blocks, ref, depth + 1)
    return ""


def _block(blocks: dict[str, Any], bid: str, depth: int = 0) -> str:
    if depth > MAX_DEPTH:
        raise ValueError(f"blocks nest deeper than {MAX_DEPTH} levels at {bid}")
    block = blocks[bid]
    if isinstance(block, list):  # a top-level variable or list reporter
        top = (block[3], block[4]) if len(block) > 4 else None
        return _primitive(block, False, top)
    tag = "shadow" if block.get("shadow") else "block"
    where = ""
    if block.get("topLevel"):
        where = f" x={quoteattr(_text(block.get('x', 0)))} y={quoteattr(_text(block.get('y', 0)))}"
    parts = [f"<{tag} id={quoteattr(bid)} type={quoteattr(str(block['opcode']))}{where}>"]
    mutation = block.get("mutation")
    if isinstance(mutation, dict):
        parts.append(_mutation(mutation))
    for name, desc in (block.get("inputs") or {}).items():
        if not isinstance(desc, list) or len(desc) < 2:
            continue
        kind = desc[0]
        held = _slot(blocks, desc[1], kind == 1, depth)
        shade = _slot(blocks, desc[2], True, depth) if kind == 3 and len(desc) > 2 else ""
        if held or shade:
            parts.append(f"<value name={quoteattr(name)}>{held}{shade}</value>")
    for name, desc in (block.get("fields") or {}).items():
        if not isinstance(desc, list) or not desc:
            continue
        fid = desc[1] if len(desc) > 1 else None
        parts.append(_field(name, desc[0], fid, _FIELD_TYPES.get(name)))
    nxt = block.get("next")
    if isinstance(nxt, str) and nxt in blocks:
        parts.append(f"<next>{_block(blocks, nxt, depth + 1)}</next>")
    parts.append(f"</{tag}>")
    return "".join(parts)


def script_xml(blocks: dict[str, Any], top: str) -> str:
    """The XML of the script whose top block is `top` (see the module doc)."""
    return _block(blocks, top)


def target_scripts(target: dict[str, Any]) -> list[ScriptXml]:
    """Every script of `target`, in the order `studio blocks text` writes them."""
    blocks = target.get("blocks") or {}
    out = []
    for top in top_ids(blocks):
        block = blocks[top]
        if isinstance(block, list):
            x, y = (block[3], block[4]) if len(block) > 4 else (0, 0)
        else:
            x, y = block.get("x", 0), block.get("y", 0)
        out.append(ScriptXml(top, script_xml(blocks, top), float(x or 0), float(y or 0)))
    return out

"""Patch mode's observation text: the bug report, then every target's scripts with block ids.

    Bug report
      Symptom: the score stays at 0 after a catch
      Expected: the score goes up by one per catch
      Trigger: green_flag

    Program (a patch addresses a block by its sprite and its [block id])
    == Stage ==
    (no scripts)
    == Cat ==
    [hat1] when flag clicked
    [move] move (10) steps
    [rep] repeat (10) {
      [turn] turn right (15) degrees
        · [sum] operator_add: ((1) + (2))
    }

One statement a line in reading order (the text of `core.render.block_label`), what a C-block
holds indented inside braces; a reporter nested in a statement's inputs follows it on a line of
its own marked `·` with its id, opcode and text, so that a patch can address it too. Scripts are
separated by blank lines, targets follow the project's order (the stage first). The structured
twin (every block as in project.json) goes with the observation as `Observation.program`.
"""

from __future__ import annotations

from typing import Any

from studio.services.core.blocks import Blocks, chain, child_refs, input_block, scripts, target_name
from studio.services.core.render import C_BLOCKS, block_label

__all__ = ["program_by_target", "render_patch_view", "report_lines"]

_REPORT_KEYS = (("symptom", "Symptom"), ("expected", "Expected"), ("trigger", "Trigger"))


def report_lines(report: dict[str, Any] | None) -> list[str]:
    """The bug report section (nothing when the task has no report)."""
    if not report:
        return []
    lines = ["Bug report"]
    lines += [f"  {label}: {report[key]}" for key, label in _REPORT_KEYS if report.get(key)]
    return [*lines, ""]


def _reporters(blocks: Blocks, bid: str) -> list[str]:
    """Reporter blocks nested in `bid`'s inputs (not its C-slots), depth first."""
    out: list[str] = []
    for child in child_refs(blocks[bid]):
        blk = blocks.get(child)
        if not isinstance(blk, dict) or blk.get("shadow") or blk.get("topLevel"):
            continue
        if child in _substacks(blocks[bid]):
            continue
        out.append(child)
        out += _reporters(blocks, child)
    return out


def _substacks(blk: dict[str, Any]) -> set[str]:
    inputs = blk.get("inputs", {})
    return {b for n in ("SUBSTACK", "SUBSTACK2") if (b := input_block(inputs.get(n)))}


def _stack(blocks: Blocks, first: str | None, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    for bid in chain(blocks, first):
        blk = blocks[bid]
        line = f"{pad}[{bid}] {block_label(blocks, bid)}"
        nested = [
            f"{pad}    · [{r}] {blocks[r]['opcode']}: {block_label(blocks, r)}"
            for r in _reporters(blocks, bid)
        ]
        if blk["opcode"] not in C_BLOCKS and "SUBSTACK" not in blk.get("inputs", {}):
            out += [line, *nested]
            continue
        out += [line + " {", *nested]
        _stack(blocks, input_block(blk.get("inputs", {}).get("SUBSTACK")), depth + 1, out)
        if blk["opcode"] == "control_if_else":
            out.append(pad + "} else {")
            _stack(blocks, input_block(blk.get("inputs", {}).get("SUBSTACK2")), depth + 1, out)
        out.append(pad + "}")


def render_patch_view(project: dict[str, Any], report: dict[str, Any] | None) -> str:
    """The observation text of `project` (project.json) with the task's bug report."""
    out = report_lines(report)
    out.append("Program (a patch addresses a block by its sprite and its [block id])")
    for target in project.get("targets", []):
        out.append(f"== {target_name(target)} ==")
        blocks: Blocks = target.get("blocks") or {}
        tops = scripts(blocks)
        if not tops:
            out.append("(no scripts)")
        for i, top in enumerate(tops):
            if i:
                out.append("")
            _stack(blocks, top, 0, out)
    return "\n".join(out)


def program_by_target(project: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Sprite name ("Stage" for the stage) -> its blocks as in project.json."""
    return {target_name(t): dict(t.get("blocks") or {}) for t in project.get("targets", [])}

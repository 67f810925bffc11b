"""Pseudocode and block text share one table of block templates: every block the text
dialect names reads the same in pseudocode, but for the flag hat's words and the extensions'
blocks, which pseudocode shows by opcode."""

from __future__ import annotations

from studio.services.core.blocktext.dialect import TEMPLATES as TEXT
from studio.services.core.render import TEMPLATES as PSEUDOCODE
from studio.services.core.render import render_script


def test_pseudocode_reads_the_dialects_templates() -> None:
    differ = {op for op in TEXT if PSEUDOCODE.get(op) != TEXT[op]}
    assert differ == {"event_whenflagclicked"} | {
        op for op in TEXT if op.startswith(("pen_", "music_"))
    }
    assert set(PSEUDOCODE) - set(TEXT) == {
        "data_variable", "data_listcontents", "argument_reporter_string_number",
        "argument_reporter_boolean",
    }  # fmt: skip


def test_a_block_once_missing_from_pseudocode_now_reads_as_text() -> None:
    blocks = {
        "h": {"opcode": "event_whenflagclicked", "next": "s", "parent": None, "inputs": {},
              "fields": {}, "topLevel": True},
        "s": {"opcode": "sensing_resettimer", "next": "v", "parent": "h", "inputs": {},
              "fields": {}, "topLevel": False},
        "v": {"opcode": "sound_cleareffects", "next": None, "parent": "s", "inputs": {},
              "fields": {}, "topLevel": False},
    }  # fmt: skip
    assert render_script(blocks, "h").splitlines() == [
        "when flag clicked",
        "reset timer",
        "clear sound effects",
    ]

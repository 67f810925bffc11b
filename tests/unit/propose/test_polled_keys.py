"""Keys a program polls with `key pressed?` are tried like keys of `when key pressed` hats."""

from __future__ import annotations

from studio.services.propose.scenarios import build_scenarios


def _project(key: str) -> dict:
    blocks = {
        "flag": {"opcode": "event_whenflagclicked", "next": "loop", "parent": None,
                 "topLevel": True, "inputs": {}, "fields": {}, "shadow": False},
        "loop": {"opcode": "control_forever", "next": None, "parent": "flag",
                 "inputs": {"SUBSTACK": [2, "if"]}, "fields": {}, "shadow": False},
        "if": {"opcode": "control_if", "next": None, "parent": "loop",
               "inputs": {"CONDITION": [2, "pressed"]}, "fields": {}, "shadow": False},
        "pressed": {"opcode": "sensing_keypressed", "next": None, "parent": "if",
                    "inputs": {"KEY_OPTION": [1, "menu"]}, "fields": {}, "shadow": False},
        "menu": {"opcode": "sensing_keyoptions", "next": None, "parent": "pressed",
                 "inputs": {}, "fields": {"KEY_OPTION": [key, None]}, "shadow": True},
    }  # fmt: skip
    return {"targets": [{"isStage": False, "name": "Paddle", "blocks": blocks}]}


def test_a_polled_key_gets_its_scenario() -> None:
    ids = [s.id for s in build_scenarios(_project("right arrow"), _project("left arrow"))]
    assert "key:right arrow" in ids and "key:left arrow" in ids

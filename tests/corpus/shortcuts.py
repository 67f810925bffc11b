"""Short names for the blocks every corpus program uses."""

from __future__ import annotations

from typing import Any

from studio.services.core.projectbuild import Block, block


def flag() -> Block:
    return block("event_whenflagclicked")


def on(message: str) -> Block:
    return block("event_whenbroadcastreceived", BROADCAST_OPTION=message)


def setvar(name: str, value: Any) -> Block:
    return block("data_setvariableto", VARIABLE=name, VALUE=value)

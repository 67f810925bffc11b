"""A fake world for region computations (no browser): what `RegionComputer` uses of
`TrialPages`, over a block whose box takes a press, and a drop that connects when the block's
connection, moved with the mouse from where the block was held, ends within `REACH` px of the
aim. Every drag is recorded in `FakeTrialPages.jobs`, the windows each computation was given
in `FakeTrialPages.given`. Install it with `install(monkeypatch)`; `make_entry` writes an item
of this world.
"""

from __future__ import annotations

import math
import struct
from pathlib import Path
from typing import Any, ClassVar

import pytest

from studio.models.drag_item import ConnectionType, DragItem, EvaluationConfig
from studio.services.diagnostics.drag import regions
from studio.services.diagnostics.drag.item import ItemFolder
from studio.services.diagnostics.drag.page import Verdict
from studio.services.runtime import page_scripts
from studio.services.runtime.page_scripts import DRAG
from tests.helpers.script_page import ScriptHost

BOX = {"x": 400.0, "y": 300.0, "w": 120.0, "h": 40.0}
DRAGGED = (400.0, 300.0)  # the block's connection when the drag begins
AIM = (640.0, 470.0)  # where that connection must go
REACH = 22.0


def inside_box(p: tuple[float, float]) -> bool:
    return BOX["x"] <= p[0] <= BOX["x"] + BOX["w"] and BOX["y"] <= p[1] <= BOX["y"] + BOX["h"]


def connects(start: tuple[float, float], end: tuple[float, float]) -> bool:
    """The world's rule: the connection moves with the mouse from where the block was held."""
    x, y = DRAGGED[0] + end[0] - start[0], DRAGGED[1] + end[1] - start[1]
    return inside_box(start) and math.hypot(x - AIM[0], y - AIM[1]) < REACH


def png_head(width: int, height: int) -> bytes:
    """The start of a PNG of that size: what the screenshot check reads of one."""
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I4sII", 13, b"IHDR", width, height)


class _Page(ScriptHost):
    async def answer(self, name: str, function: str, args: list[Any]) -> Any:
        if function == "emptySpots":
            return [[1000, 200]]
        if function == "ownersAt":
            return [
                {"kind": "canvas", "id": "S-1", "opcode": "looks_say"}
                if inside_box((p[0], p[1]))
                else {"kind": "none"}
                for p in args[0]
            ]
        if function == "snapTargets":
            return None  # the prediction is a disc around the aim, checked by real drags
        raise AssertionError(f"unexpected call {name}.{function}({args})")

    async def screenshot(self) -> bytes:
        return png_head(1280, 720)


class _TrialPage:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.page = _Page()
        self.spec = spec

    async def ask(self, function: str, *args: Any) -> Any:
        return await page_scripts.call(self.page, DRAG, function, *args)

    async def screenshot(self) -> bytes:
        return await self.page.screenshot()

    async def at_baseline(self) -> None:
        return None


class FakeTrialPages:
    """What RegionComputer uses of TrialPages, over the fake world; every drag recorded."""

    jobs: ClassVar[list[tuple[Any, Any]]] = []
    given: ClassVar[list[list[Any] | None]] = []

    def __init__(
        self, context: Any, server: Any, entry: ItemFolder, count: int, windows: Any = None, *_: Any
    ) -> None:
        FakeTrialPages.given.append(windows)
        self.pages = [_TrialPage(entry.item.spec)]
        self.steps = 15
        self.drags = 0
        self.geometry = {
            "source_box": BOX,
            "source_full_box": BOX,
            "aim_point": {"x": AIM[0], "y": AIM[1]},
            "dragged_point": {"x": DRAGGED[0], "y": DRAGGED[1]},
            "snap_radius": 48,
            "scale": 1.0,
            "loose": True,
            "flyout_box": {"x": 0, "w": 250},
        }

    async def __aenter__(self) -> FakeTrialPages:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    def lead(self) -> _TrialPage:
        return self.pages[0]

    async def at_baseline(self) -> None:
        return None

    async def run(self, jobs: list[Any], finished: Any = None) -> list[Verdict]:
        out = []
        for job in jobs:
            start, end = job[0], job[1]
            self.drags += 1
            FakeTrialPages.jobs.append((start, end))
            out.append(Verdict(inside_box(start), connects(start, end)))
        return out


def make_entry(tmp_path: Path, grab: list[float] | None, **extra: Any) -> ItemFolder:
    cfg = EvaluationConfig(
        target_block_opcode="looks_say",
        target_block_id="S-1",
        reference_block_id="R-1",
        reference_block_opcode="looks_show",
        connection_type=ConnectionType.NEXT,
        drag_start_point=grab,
        **extra,
    )
    item = DragItem(id="g1", category="T1", instruction="Drag it.", evaluation_config=cfg)
    folder = tmp_path / "g1"
    folder.mkdir(parents=True)
    (folder / "project.sb3").write_bytes(b"sb3")
    entry = ItemFolder(folder, item)
    entry.save()
    return entry


def install(monkeypatch: pytest.MonkeyPatch) -> None:
    """Region computations run in the fake world from now on (the test's end undoes it)."""
    monkeypatch.setattr(regions, "TrialPages", FakeTrialPages)
    FakeTrialPages.jobs = []
    FakeTrialPages.given = []

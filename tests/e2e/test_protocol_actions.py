"""The ScratchWorld ablation and the stroke action on the real editor page: without the element
list the agent sees none and acts by coordinates; a stroke along a curved path drags a palette
block onto the code area, which the VM sees."""

from __future__ import annotations

from typing import Any

import pytest

from studio.models.agent import ActionError
from studio.services.episodes.primitive import PrimitiveMode
from tests.e2e.test_env_primitive import EMPTY_TASK, Env, editor_page  # noqa: F401 (fixture)
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser


def test_without_the_element_list_a_curved_stroke_adds_a_block(
    loop_thread: LoopThread,
    editor_page: Any,  # noqa: F811
) -> None:
    seeing = Env(loop_thread, editor_page, PrimitiveMode(ocr=False))
    loop_thread.run(seeing.handler.setup(editor_page))
    seeing.load(EMPTY_TASK)
    seeing.show_category("Motion")
    block = seeing.find("blocks", "motion_movesteps")
    x, y = block.x + 12, block.y + block.h / 2

    blind = Env(loop_thread, editor_page, PrimitiveMode(element_list=False))
    loop_thread.run(blind.handler.setup(editor_page))
    obs = blind.observe()
    assert obs.elements == [] and obs.screenshot_png_b64 and "x and y" in (obs.text or "")
    with pytest.raises(ActionError, match="no element list"):
        blind.act({"api": "click", "args": {"index": block.index}})
    assert blind.vm_blocks() == []
    path = [[x, y], [x + 150, y + 120], [x + 300, y + 40], [x + 420, y + 160]]
    out = blind.act({"api": "stroke", "args": {"points": path, "duration": 0.3}})
    assert out.target and "motion_movesteps" in out.target
    opcodes = [b["opcode"] for b in blind.vm_blocks() if not b["shadow"]]
    assert opcodes == ["motion_movesteps"]

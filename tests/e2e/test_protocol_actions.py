"""The ScratchWorld ablation and the stroke action on the real editor page, in both editions:
without the element list the agent sees none and acts by coordinates; a stroke along a curved
path drags a palette block onto the code area, which the VM sees."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from studio.models.agent import ActionError
from studio.services.episodes.modes import VIEWPORT
from studio.services.episodes.primitive import PrimitiveMode
from studio.services.runtime.editions import Edition, info
from tests.e2e.test_env_primitive import EMPTY_TASK, Env
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser


@pytest.fixture(params=[Edition.CURRENT, Edition.CLASSIC], ids=["current", "classic"])
def edition_page(request: pytest.FixtureRequest, loop_thread: LoopThread) -> Iterator[Any]:
    pool = request.getfixturevalue(
        "classic_pool" if request.param is Edition.CLASSIC else "browser_pool"
    )

    async def open_page() -> Any:
        page = await pool.context.new_page()
        await page.set_viewport_size(VIEWPORT)
        url = pool.server.url(info(request.param).editor_page)
        await page.goto(url, wait_until="domcontentloaded", timeout=120_000)
        await page.wait_for_function("window.studioEditorReady === true", timeout=120_000)
        return page

    page = loop_thread.run(open_page())
    yield page
    loop_thread.run(page.close())


def test_without_the_element_list_a_curved_stroke_adds_a_block(
    loop_thread: LoopThread, edition_page: Any
) -> None:
    seeing = Env(loop_thread, edition_page, PrimitiveMode(ocr=False))
    loop_thread.run(seeing.handler.setup(edition_page))
    seeing.load(EMPTY_TASK)
    seeing.show_category("Motion")
    block = seeing.find("blocks", "motion_movesteps")
    x, y = block.x + 12, block.y + block.h / 2

    blind = Env(loop_thread, edition_page, PrimitiveMode(element_list=False))
    loop_thread.run(blind.handler.setup(edition_page))
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


def test_a_scratchworld_campaign_records_and_reports_its_settings(tmp_path: Any) -> None:
    """`studio run --protocol scratchworld` on the real editor: the episode plays under the
    published step budget, run.json records the protocol and its one evaluation, the report
    labels the row and lists the settings, and the campaign is a leaderboard file."""
    import json

    from tests.helpers.cli import studio_here as studio
    from tests.helpers.tasks import make_task

    task = make_task(tmp_path / "lib" / "t", task_id="create_t")
    out = studio("run", str(task), "--agent", "idle", "--mode", "primitive",
                 "--protocol", "scratchworld", "--out", str(tmp_path / "runs"))  # fmt: skip
    assert out.returncode == 0, out.stderr
    (run_json,) = (tmp_path / "runs").rglob("run.json")
    run = json.loads(run_json.read_text())
    assert run["step_limit"] == 50 and run["meta"]["protocol"]["name"] == "scratchworld"
    assert run["meta"]["protocol"]["settings"]["element_list"] is True
    assert len(run["meta"]["evaluations"]) == 1
    report = studio("report", str(tmp_path / "runs"))
    assert "idle [scratchworld]" in report.stdout and "steps 50" in report.stdout
    sub = studio("export", "submission", str(run_json.parent.parent), "--out",
                 str(tmp_path / "s.jsonl"))  # fmt: skip
    assert sub.returncode == 0, sub.stderr
    row = json.loads((tmp_path / "s.jsonl").read_text())
    assert (row["take"], row["type"], row["mode"], row["interactions"]) == (
        "create_t", "create", "primitive", [],
    )  # fmt: skip

"""A study end to end: 4 participants on 6 tasks from 4 browser contexts at once.

Each participant's page is the real participant page of `studio study serve` (the real editor,
served by the study server) in a context of its own; the primitive oracle plays each task
through the page with real mouse and keyboard input (it sees the page's element list, as a
primitive agent does), the page records it, and Finish sends the program to the studio's
evaluator. One participant is idle and gives up every task; every participant gives up the
practice task. One participant closes its tab mid-task and resumes in a new one (a second tab
meanwhile is refused). Then the board and the study's results show what happened.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import async_playwright

from studio.models.action_parse import parse_action
from studio.models.agent import ActionError, Mode
from studio.services.core import paths
from studio.services.episodes.agents import OracleAgent
from studio.services.episodes.primitive import PrimitiveMode
from studio.services.studies.board import read_board
from studio.services.studies.plan import load_study, new_study
from studio.services.studies.results import study_results
from studio.services.studies.server import StudyServer
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser

TASKS = [
    "create_cat_walk", "create_button_click", "create_arrow_keys", "debug_score_reset",
    "compute_sum_to_n", "extend_frog_jump",
]  # fmt: skip
VIEWPORT = {"width": 1280, "height": 776}  # the editor gets 1280x720 below the page's bar
MAX_STEPS = 300


async def _screen(page: Any, name: str) -> None:
    await page.wait_for_function(
        "n => window.studioStudy && window.studioStudy.state() && "
        "window.studioStudy.state().screen === n",
        arg=name,
        timeout=240_000,
    )


async def _go(page: Any) -> None:
    await page.locator("#go").click()


async def _task_shown(page: Any) -> None:
    await page.wait_for_function("window.studioTaskShown === true", timeout=120_000)


async def _play_oracle(page: Any, task_id: str, stop_after: int | None = None) -> int:
    """The oracle's actions through the page; the number of actions played."""
    from studio.services.core.store import load_task

    task = load_task(paths.BUNDLED_TASKS / task_id)
    agent, mode = OracleAgent(task), PrimitiveMode(ocr=False)
    await mode.setup(page)
    for step in range(1, MAX_STEPS):
        observation = await mode.observe(page, step)
        action, _ = await agent.act(observation)
        parsed = parse_action(action, Mode.PRIMITIVE)
        if parsed.api in ("done", "failed"):
            assert parsed.api == "done", f"{task_id}: the oracle failed: {action}"
            return step - 1
        try:
            await mode.execute(page, parsed)
        except ActionError as exc:
            agent.feedback(str(exc))
        if stop_after is not None and step >= stop_after:
            return step
    raise AssertionError(f"{task_id}: the oracle did not finish in {MAX_STEPS} steps")


async def _finish(page: Any, outcome: str) -> None:
    if outcome == "done":
        await page.locator("#finish").click()
    else:
        await page.locator("#giveup").click()
        # one press only arms it, also right after a Give up in the task before
        armed = await page.locator("#message").text_content()
        assert "again" in (armed or ""), f"a single press of Give up did not just arm it: {armed!r}"
        await page.locator("#giveup").click()
    await page.wait_for_function("window.studioTaskShown === false", timeout=120_000)


async def _participant(ctx: Any, link: str, queue: list[str], idle: bool, resume: Any) -> None:
    page = await ctx.new_page()
    await page.goto(link, wait_until="commit")
    await _screen(page, "consent")
    await _go(page)
    await _screen(page, "practice")
    await _go(page)
    await _task_shown(page)
    await _finish(page, "give up")  # the practice task
    for number, task_id in enumerate(queue, 1):
        await _screen(page, "ready")
        await _go(page)
        await _task_shown(page)
        if idle:
            await _finish(page, "give up")
            continue
        if resume is not None and number == 1:
            page = await resume(ctx, page, link, task_id)
        await _play_oracle(page, task_id)
        await _finish(page, "done")
    await _screen(page, "done")
    await page.close()


def test_four_participants_at_once(loop_thread: LoopThread, browser_pool: Any, tmp_path: Path):
    os.environ["STUDIO_OCR"] = "off"
    study = tmp_path / "study"
    plan = new_study(paths.BUNDLED_TASKS, study, 4, per=2, seed=3, task_ids=TASKS)
    plan.break_s = 0
    from studio.services.studies.plan import save_study

    save_study(study, plan)
    # counterbalanced: every task given to 1 or 2 participants, every queue mixes categories
    assert sorted(plan.design.per_task.values()) == [1, 1, 1, 1, 2, 2]
    assert plan.practice is not None and plan.practice not in TASKS

    async def resume(ctx: Any, page: Any, link: str, task_id: str) -> Any:
        await _play_oracle(page, task_id, stop_after=4)
        run = study / "runs" / plan.participants[0].code / f"01-{task_id}"
        # the page checkpoints every 5 s once the project changed: wait for the server's answer
        # to one (it writes the file before it answers, in this loop, so none can slip by)
        if not (run / "checkpoint.sb3").is_file():
            await page.wait_for_event(
                "response",
                lambda r: r.url.endswith("/api/checkpoint") and r.ok,
                timeout=120_000,
            )
        assert (run / "checkpoint.sb3").is_file()
        second = await ctx.new_page()
        await second.goto(link, wait_until="commit")
        await second.wait_for_selector("text=already open in another tab", timeout=120_000)
        await second.close()
        steps_before = json.loads((run / "run.json").read_text())["steps"]
        await page.close()
        page = await ctx.new_page()
        await page.set_viewport_size(VIEWPORT)
        await page.goto(link, wait_until="commit")
        await _task_shown(page)
        state = await page.evaluate("window.studioStudy.state()")
        assert state["screen"] == "task" and state["task"]["elapsed_s"] > 0
        assert json.loads((run / "run.json").read_text())["steps"] >= steps_before >= 1
        return page

    async def scenario() -> None:
        server = StudyServer(study, lease_s=30, pool=browser_pool)
        await server.start()
        links = server.links()
        try:
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=str(paths.chromium_path()))
                contexts = [await browser.new_context(viewport=VIEWPORT) for _ in links]
                await asyncio.gather(
                    *(
                        _participant(
                            ctx, links[p.code], p.queue, i == 3, resume if i == 0 else None
                        )
                        for i, (ctx, p) in enumerate(zip(contexts, plan.participants, strict=True))
                    )
                )
                await browser.close()
        finally:
            await server.close()

    loop_thread.run(scenario(), timeout=1800)
    os.environ.pop("STUDIO_OCR", None)
    if os.environ.get("STUDIO_KEEP_STUDY"):  # to look at the board and the report afterwards
        shutil.copytree(study, os.environ["STUDIO_KEEP_STUDY"], dirs_exist_ok=True)

    plan = load_study(study)
    board = read_board(study, plan)
    idle = plan.participants[3].code
    for code, cells in board.rows.items():
        for cell in cells:
            if code == idle:
                assert cell.state == "gave up", cell
            else:
                assert (cell.state, cell.verdict) == ("finished", "passed"), cell
                assert cell.actions > 0
    first = board.rows[plan.participants[0].code][0]
    run = json.loads((Path(first.folder or "") / "run.json").read_text())
    assert run["meta"]["resumed"] == 1 and run["meta"]["participant"] == plan.participants[0].code
    results = study_results(plan, board)
    solved = {f.name: f.solved for f in results.participants}
    assert solved[idle] == 0 and sum(solved.values()) == 6

"""Text mode in the real editor and VM: the oracle solves a bundled extend task by answering
with its golden's scratchblocks text, judged by the task's own script; an answer with a line
that cannot be placed is refused naming that line, and the page's program stays as it was.

The episodes run in the session's shared browser (`browser_pool`), judged on the virtual clock
as `studio run` judges.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import ActionError, Mode
from studio.models.evaluation import Clock
from studio.services.core.blocks import find_target
from studio.services.episodes.agents import IdleAgent, OracleAgent, run_episode
from studio.services.episodes.manager import EpisodeManager
from studio.services.runtime import page_scripts
from tests.helpers.loop_thread import LoopThread
from tests.helpers.tasks import copy_bundled

pytestmark = pytest.mark.browser


def test_the_oracle_solves_an_extend_task_with_the_goldens_text_and_idle_does_not(
    manager: EpisodeManager, loop_thread: LoopThread, tmp_path: Path
) -> None:
    task = copy_bundled("extend_balloon_pops", tmp_path)
    agent = OracleAgent(task)
    result, folder = loop_thread.run(
        run_episode(manager, task, Mode.TEXT, agent, tmp_path / "oracle", Clock.VIRTUAL)
    )
    assert result.success, [d for d in result.details if not d.passed] or result.error
    assert agent.errors == []
    assert folder is not None and (folder / "final.sb3").is_file()
    idle, _ = loop_thread.run(
        run_episode(manager, task, Mode.TEXT, IdleAgent(), tmp_path / "idle", Clock.VIRTUAL)
    )
    assert idle.error is None, idle.error
    assert not idle.success and idle.passed_tests < idle.total_tests


def test_a_malformed_answer_fails_naming_its_line_and_changes_nothing(
    manager: EpisodeManager, loop_thread: LoopThread, tmp_path: Path
) -> None:
    task = copy_bundled("debug_score_reset", tmp_path)
    answer = "// sprite: Coin\nwhen flag clicked\nset [score v] to (0)\nend\nshow\n"

    async def play() -> tuple[str, str, Any, Any]:
        episode = await manager.create(task, Mode.TEXT)
        try:
            obs = await episode.observe()
            before = await page_scripts.call(episode.page, page_scripts.EDITOR, "program")
            try:
                await episode.step({"api": "apply_text", "args": {"text": answer}})
                error = ""
            except ActionError as exc:
                error = str(exc)
            after = await page_scripts.call(episode.page, page_scripts.EDITOR, "program")
            return obs.text or "", error, before, after
        finally:
            await manager.delete(episode.id)

    text, error, before, after = loop_thread.run(play())
    assert text.startswith("Task (debug)\n") and "// sprite: Coin\n" in text
    assert "line 4: " in error and "nothing was built" in error
    assert find_target(after, "Coin")["blocks"] == find_target(before, "Coin")["blocks"]

"""Painting is held on trial pages while a batch of trial drags runs, and nowhere else.

A batch (`TrialPages.run`) holds each page's painting (resources/js/trial-paint.js) before its
first drag and releases it after its last, also when a drag fails; `painted=True` leaves the
pages drawing. A single `TrialPage`, the page an agent looks at (drag/run.py), never holds it,
and nothing but `TrialPages.run` calls the script (the user's window and every other page
draw as they always did). What holding does to a real page (opacity only; layout and hit
testing as before) is checked on the real editor in tests/e2e/test_drag_regions.py.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from studio.services.core import paths
from studio.services.diagnostics.drag.page import TrialPage, TrialPages, Verdict
from studio.services.runtime import page_scripts
from studio.services.runtime.page_scripts import TRIAL_PAINT


class _ScriptPage:
    """Answers page-script calls as an editor page holding every script would; logs them."""

    def __init__(self, log: list[str]) -> None:
        self.log = log
        self.mouse = self  # mouse.move/down/up log too

    async def evaluate(self, expression: str, arg: Any = None) -> Any:
        if expression == page_scripts.CALL_JS:
            name, _version, function, _args = arg
            self.log.append(f"{name}.{function}")
            if name == "studioDrag" and function == "finish":
                return {"moved": True, "connected": False}
            return True
        return []  # HELD_JS: nothing missing

    async def move(self, x: float, y: float) -> None:
        self.log.append("move")

    async def down(self) -> None:
        self.log.append("down")

    async def up(self) -> None:
        self.log.append("up")


class _Trial:
    """A set-up trial page: its drags are logged in its page's log."""

    def __init__(self, fail_at: int | None = None) -> None:
        self.log: list[str] = []
        self.page = _ScriptPage(self.log)
        self.fail_at = fail_at

    async def trial(self, start: Any, end: Any, steps: Any = None) -> Verdict:
        await asyncio.sleep(0)
        self.log.append("trial")
        if self.fail_at is not None and self.log.count("trial") == self.fail_at:
            raise RuntimeError("the page crashed")
        return Verdict(True, False)


def _batch(trials: list[_Trial], jobs: int, painted: bool = False) -> list[Verdict]:
    pages = TrialPages(None, None, None, len(trials), painted=painted)  # type: ignore[arg-type]
    pages.pages = trials  # type: ignore[assignment]
    return asyncio.run(pages.run([((i, 0), (0, i)) for i in range(jobs)]))


HOLD, RELEASE = f"{TRIAL_PAINT.name}.hold", f"{TRIAL_PAINT.name}.release"


def test_a_batch_holds_each_pages_painting_around_its_drags() -> None:
    trials = [_Trial(), _Trial()]
    assert len(_batch(trials, 5)) == 5
    for t in trials:
        assert t.log[0] == HOLD and t.log[-1] == RELEASE
        assert set(t.log[1:-1]) == {"trial"} and t.log.count("trial") >= 1


def test_a_failed_drag_still_releases_the_page() -> None:
    trial = _Trial(fail_at=2)
    with pytest.raises(RuntimeError, match="crashed"):
        _batch([trial], 4)
    assert trial.log == [HOLD, "trial", "trial", RELEASE]


def test_painted_pages_and_empty_batches_are_left_alone() -> None:
    painted = _Trial()
    _batch([painted], 3, painted=True)
    assert painted.log == ["trial"] * 3
    idle = _Trial()
    assert _batch([idle], 0) == []
    assert idle.log == []


def test_an_agents_single_trial_page_draws_throughout() -> None:
    log: list[str] = []
    page = TrialPage.__new__(TrialPage)  # set up as `setup` leaves it, without an editor
    page.page = _ScriptPage(log)
    page.spec, page.view, page.steps, page.drags, page.reloads = {}, {}, 3, 0, 0
    verdict = asyncio.run(page.trial((10, 10), (40, 40)))
    assert verdict == Verdict(True, False)
    assert "down" in log and "studioDrag.finish" in log
    assert not [c for c in log if c.startswith(TRIAL_PAINT.name)]


def test_only_a_batch_of_trial_drags_calls_the_script() -> None:
    """No view, agent page, episode or evaluation holds painting: the user sees every page
    as before."""
    users = set()
    for path in Path(paths.PROJECT_ROOT, "studio").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if re.search(r"\bTRIAL_PAINT\b|studioTrialPaint|trial-paint\.js", text):
            users.add(path.relative_to(paths.PROJECT_ROOT).as_posix())
    assert users == {
        "studio/services/runtime/page_scripts.py",  # where every page script is listed
        "studio/services/diagnostics/drag/page.py",  # TrialPages.run
    }
    js = Path(paths.JS_DIR)
    assert [p.name for p in js.glob("*.js") if "studioTrialPaint" in p.read_text()] == [
        "trial-paint.js"
    ]

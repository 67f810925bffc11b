"""The published ScratchWorld evaluation protocol, run as a reference for verdicts.

The published service evaluates a task on the VM of a live Scratch editor page (1280x720, small
stage): the project is loaded into that VM, the set's `evaluation_utils.js` is installed as
`window.EvaluationUtils`, and the task script is called as `fn(vm, {}, cleanup)` with
`cleanup = vm.stopAll`, in real time, with one 120 s cap on the whole script; randomness is not
seeded. `PublishedProtocol` does the same in one of our editor pages, with the evaluation
runner the studio's own pages use (`StudioEval.runOn`), so that the studio's verdicts (GUI-less
page, virtual clock) can be compared with the protocol's on any task set. The page is of the
pool's editor edition (the classic one is the published service's own editor).

It costs what the protocol costs: real time, a full editor per evaluation. Use it to verify,
not to check (`studio eval --protocol published`, bench/bench_published.py).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from studio.models.evaluation import Clock, ErrorKind, EvalError, EvalResult
from studio.models.task import SCRATCHWORLD_CAP_S, ScriptLimit
from studio.services.core.store import TaskFolder
from studio.services.episodes.editor_pages import EditorPages
from studio.services.runtime import page_scripts
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.evaluator import prepare, run_in_page

if TYPE_CHECKING:
    from playwright.async_api import Page

__all__ = ["PUBLISHED_LIMIT", "PublishedProtocol"]

PUBLISHED_LIMIT = ScriptLimit(SCRATCHWORLD_CAP_S, "the published protocol's cap on a whole script")


class PublishedProtocol:
    """Evaluates tasks as the published service does, on a fresh editor page each time."""

    def __init__(self, pool: BrowserPool) -> None:
        self.pool = pool

    async def evaluate(
        self,
        entry: TaskFolder,
        project: bytes | Path | None = None,
        project_name: str | None = None,
    ) -> EvalResult:
        prepared = prepare(
            entry, project, project_name, PUBLISHED_LIMIT, Clock.REAL, seed=0, config={}
        )
        if isinstance(prepared, EvalResult):
            return prepared
        result = prepared.result
        server = self.pool.server
        assert server is not None, "the pool is started"
        pages = EditorPages(server, self.pool.context, spares=0, edition=self.pool.edition)
        t0 = time.perf_counter()
        try:
            page = await pages.acquire()
        except Exception as exc:  # browser or bundle missing: a setup problem, not a verdict
            result.error = EvalError(kind=ErrorKind.SETUP, message=f"no editor page: {exc}")
            return result
        try:
            result.timings.page_ready_s = time.perf_counter() - t0
            await _prepare_page(page, server.url)
            await self.pool.contain_loaded(page)  # the script is untrusted here too
            await run_in_page(page, page_scripts.RUN_ON_EDITOR_VM_JS, prepared)
        finally:
            with contextlib.suppress(Exception):
                await page.close(run_before_unload=False)
        result.clock_note = "the published protocol: live editor page, real time, config {}"
        result.timings.total_s = time.perf_counter() - prepared.t0
        return result


async def _prepare_page(page: Page, url_of: Callable[[str], str]) -> None:
    with contextlib.suppress(Exception):
        await page.bring_to_front()  # a back tab gets fewer frames; the service shows its page
    # the published service clicks "Switch to small stage"; the editor keeps its VM either way
    await page_scripts.call(page, page_scripts.HELPERS, "clickSmallStage")
    await page_scripts.add_runner(page, url_of)

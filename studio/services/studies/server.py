"""`studio study serve`: the participant pages of a study on host:port, with the evaluator.

`StudyServer(study)` reads the plan and the library's tasks (the study's and the practice
task), makes a desk per participant (which marks runs a killed server left running as
interrupted), opens a browser pool of the library's edition for the final evaluations (the
task's script runs in the studio's evaluator: a throwaway or proved-clean page with the
script's time limit, on the clock the task's evaluations use: virtual unless the task asks
for real time or its script needs it) and serves `web.StudyWeb` with uvicorn on the current
event loop (studio.services.api.listener, as the agent API).
Verdicts a stopped server left pending are computed at the start; `close` waits for the
ones being computed. A `pool` given (a running BrowserPool) is used and left open.
`links()` gives each participant's link. The host is loopback unless another one is given;
each link carries the participant's own secret token either way.
"""

from __future__ import annotations

import socket
from pathlib import Path

from studio.models.errors import StudioError
from studio.models.evaluation import EvalResult
from studio.services.api.listener import Listener, url_of
from studio.services.core.store import TaskFolder, scan_library
from studio.services.runtime import editions
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.clock_agreement import evaluate_on_chosen_clock
from studio.services.runtime.evaluator import Evaluator
from studio.services.studies.desk import LEASE_S, ParticipantDesk
from studio.services.studies.plan import StudyPlan, load_study
from studio.services.studies.web import StudyWeb

__all__ = ["STUDY_BACKLOG", "StudyServer", "load_tasks"]

STUDY_BACKLOG = 128


def load_tasks(plan: StudyPlan) -> dict[str, TaskFolder]:
    """The plan's tasks and practice task from its library; StudioError naming what is gone."""
    scan = scan_library(Path(plan.library))
    by_id = {t.task.id: t for t in scan.tasks}
    wanted = [t.id for t in plan.tasks] + ([plan.practice] if plan.practice else [])
    missing = [t for t in wanted if t not in by_id]
    if missing:
        raise StudioError(f"{plan.library}: the study's task {', '.join(missing)} is missing")
    return {t: by_id[t] for t in wanted}


class StudyServer:
    """Serves one study (see the module docstring); `async with` or start()/close()."""

    def __init__(
        self,
        study: Path,
        host: str = "127.0.0.1",
        port: int = 0,
        lease_s: float = LEASE_S,
        pool: BrowserPool | None = None,
    ) -> None:
        self.study = Path(study)
        self.plan = load_study(self.study)
        self.edition = editions.Edition.parse(self.plan.edition, "study.json edition")
        editions.require_installed(self.edition, f"study {self.plan.name}")
        self.tasks = load_tasks(self.plan)
        self.host = host
        self.desks = {
            p.token: ParticipantDesk(self.study, self.plan, p, self.tasks, self._evaluate, lease_s)
            for p in self.plan.participants
        }
        self.web = StudyWeb(self.study, self.desks, self.edition)
        # kept-alive connections idle 5 s are closed; at close, uploads are let finish
        self.listener = Listener(self.web.app, host, port, backlog=STUDY_BACKLOG)
        self._own_pool = pool is None
        self._pool: BrowserPool | None = pool
        self._evaluator: Evaluator | None = None

    @property
    def port(self) -> int:
        """The port asked for; once started, the one bound."""
        return self.listener.port

    @property
    def base_url(self) -> str:
        """The address participants use: the host asked for, or this machine's name when the
        server listens on every address (0.0.0.0, ::)."""
        host = socket.gethostname() if self.host in ("0.0.0.0", "::", "") else self.host
        return url_of(host, self.port)

    def links(self) -> dict[str, str]:
        """Each participant's link, by code."""
        return {p.code: f"{self.base_url}/p/{p.token}/" for p in self.plan.participants}

    async def _evaluate(self, task: TaskFolder, sb3: bytes) -> EvalResult:
        if self._evaluator is None:
            raise StudioError("the study server is not running")
        return await evaluate_on_chosen_clock(self._evaluator, task, sb3, project_name="final.sb3")

    async def start(self) -> None:
        if self._pool is None:
            self._pool = BrowserPool(spares=1, edition=self.edition)
            await self._pool.__aenter__()
        self._evaluator = Evaluator(self._pool)
        for desk in self.desks.values():
            desk.judge_pending()
        try:
            await self.listener.start()
        except OSError as exc:
            await self.close()
            raise StudioError(f"cannot listen on {self.host}:{self.port} ({exc})") from None

    async def serve_forever(self) -> None:
        if not self.listener.running:
            await self.start()
        await self.listener.wait()

    async def close(self) -> None:
        await self.listener.close()
        for desk in self.desks.values():  # the verdicts being computed are written first
            await desk.settle()
        if self._pool is not None and self._own_pool:
            pool, self._pool = self._pool, None
            await pool.__aexit__(None, None, None)
        self._evaluator = None

    async def __aenter__(self) -> StudyServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

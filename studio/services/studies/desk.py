"""One participant's side of a study on the server: screens, the task being solved, recording.

A `ParticipantDesk` answers the participant page (through `server`) and keeps what it must
survive in the study folder: `participants/CODE.json` (consent, the end of the last break,
breaches and refusals) and the runs. The page goes through these screens: `consent` (the
protocol card and what is recorded; nothing starts before it is accepted), `practice` (the
practice task, recorded under `practice/` as agent `human-practice`, apart from the
study), `ready` (the next task), `task` (the editor, the instruction, the clock, Finish /
Give up), `break` (between tasks, `break_s` long) and `done`.

One page at a time: a page `claim`s the desk with a tab id; a second tab is refused while the
first one was heard from in the last `lease_s` seconds (or until it says it is gone), and a
page whose claim was taken over is refused. A new page after a closed tab resumes the task
where it was: the same run, clock and recording; the project is the page's last checkpoint.
Runs left running by a server that was killed are marked interrupted when a desk is made
(status closed, `meta.interrupted`, an environment failure; the last checkpoint becomes the
final project), and the participant resumes in a new attempt from that checkpoint, the time
already spent carried in `meta.prior_seconds`.

Everything refused (a crafted batch, a bad upload, a second tab) raises `Refused` with the
HTTP status and the message for the page, and is written into the participant's file.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.models.agent import EpisodeStatus
from studio.models.errors import StudioError
from studio.models.evaluation import EvalResult
from studio.models.trajectory import FINAL_PROJECT, RUN_FILE, STEPS_FILE, RunInfo
from studio.services.core import atomic
from studio.services.core.sb3 import check_sb3
from studio.services.core.store import TaskFolder
from studio.services.core.untrusted_json import JsonInputError, read_json
from studio.services.episodes.human.coalesce import EventCoalescer
from studio.services.episodes.human.session import HumanSessionRecorder
from studio.services.studies.board import attempt_folder, attempts, cell_state, run_seconds
from studio.services.studies.events import MAX_PROJECT_BYTES, Crafted, check_batch
from studio.services.studies.plan import Participant, StudyPlan

__all__ = [
    "CHECKPOINT", "LEASE_S", "OUTCOMES", "PRACTICE_AGENT", "TIME_GRACE_S", "EvaluateTask",
    "ParticipantDesk", "Refused", "mark_interrupted",
]  # fmt: skip

CHECKPOINT = "checkpoint.sb3"
PRACTICE_AGENT = "human-practice"
LEASE_S = 15.0  # a page not heard from this long no longer holds the desk
TIME_GRACE_S = 30.0  # a Finish this late after the time limit counts as the time limit
OUTCOMES = {"done": EpisodeStatus.DONE, "give up": EpisodeStatus.FAILED}
OUTCOMES["time limit"] = EpisodeStatus.FAILED
_TAB = re.compile(r"[A-Za-z0-9_-]{8,64}")
MAX_NOTES = 500

EvaluateTask = Callable[[TaskFolder, bytes], Awaitable[EvalResult]]


class Refused(StudioError):
    """A request the desk does not take; `status` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class _Active:
    recorder: HumanSessionRecorder
    coalescer: EventCoalescer
    task: TaskFolder
    index: int | None  # queue position; None for the practice task
    start_project: Path
    prior_seconds: float


def mark_interrupted(folder: Path) -> bool:
    """Close a run a killed server left running; True if it was one."""
    path = folder / RUN_FILE
    try:
        run = RunInfo.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if run.ended_at is not None:
        return False
    written = [p.stat().st_mtime for p in (path, folder / STEPS_FILE) if p.exists()]
    run.ended_at = max(run.started_at, datetime.fromtimestamp(max(written), UTC))
    run.status = EpisodeStatus.CLOSED
    run.meta.update(interrupted=True, failure="environment", stopped="server stopped")
    checkpoint = folder / CHECKPOINT
    if checkpoint.is_file():
        atomic.write_bytes(folder / FINAL_PROJECT, checkpoint.read_bytes())
    atomic.write_text(path, run.model_dump_json(indent=2) + "\n")
    return True


class ParticipantDesk:
    """The server side of one participant (see the module docstring)."""

    def __init__(
        self,
        study: Path,
        plan: StudyPlan,
        participant: Participant,
        tasks: dict[str, TaskFolder],
        evaluate: EvaluateTask,
        lease_s: float = LEASE_S,
    ) -> None:
        self.study, self.plan, self.p = Path(study), plan, participant
        self.tasks, self.evaluate, self.lease_s = tasks, evaluate, lease_s
        self.file = self.study / "participants" / f"{participant.code}.json"
        self.notes: dict[str, Any] = {
            "code": participant.code, "consented_at": None, "practice_done": False,
            "break_until": None, "breaches": [], "refusals": [],
        }  # fmt: skip
        if self.file.is_file():
            try:
                self.notes.update(read_json(self.file))
            except JsonInputError as exc:
                raise StudioError(f"{self.file}: {exc.problem}") from None
        self.tab: str | None = None
        self.tab_seen = 0.0
        self.active: _Active | None = None
        self.lock = asyncio.Lock()
        self.judging: set[asyncio.Future[None]] = set()
        for part in ("runs", "practice"):
            base = self.study / part / participant.code
            for folder in sorted(base.iterdir()) if base.is_dir() else []:
                mark_interrupted(folder)

    # ---- notes ------------------------------------------------------------------------------
    def _save(self) -> None:
        atomic.write_json(self.file, self.notes)

    def _note(self, kind: str, what: str) -> None:
        entries = self.notes[kind]
        if len(entries) < MAX_NOTES:
            entries.append({"at": datetime.now(UTC).isoformat(), "what": what[:300]})
            self._save()

    def refuse(self, status: int, message: str) -> Refused:
        """Record a refusal and return the exception to raise."""
        self._note("refusals", message)
        return Refused(status, message)

    # ---- tabs -------------------------------------------------------------------------------
    def claim(self, tab: Any) -> dict[str, Any]:
        """This page takes the desk (a new page after a closed one resumes)."""
        if not isinstance(tab, str) or not _TAB.fullmatch(tab):
            raise self.refuse(400, "the page sent no valid tab id")
        now = time.monotonic()
        if self.tab not in (None, tab) and now - self.tab_seen < self.lease_s:
            raise self.refuse(
                409,
                "This study is already open in another tab or window. Keep working there; "
                "if you closed it, wait a few seconds and reload this page.",
            )
        if self.tab != tab and self.active is not None:
            self._record_ready(flush=True)  # what the closed page left half done
            meta = self.active.recorder.run.meta
            meta["resumed"] = int(meta.get("resumed", 0)) + 1
        self.tab, self.tab_seen = tab, now
        return self.state()

    def release(self, tab: Any) -> None:
        if tab == self.tab:
            self.tab = None

    def check_tab(self, tab: Any) -> None:
        if tab != self.tab or self.tab is None:
            raise self.refuse(
                409,
                "This page is no longer the study's page (it was opened again in another tab "
                "or window). Close this one, or reload it to continue here.",
            )
        self.tab_seen = time.monotonic()

    # ---- screens ----------------------------------------------------------------------------
    def next_index(self) -> int | None:
        for index, task_id in enumerate(self.p.queue):
            found = attempts(self.study, self.p.code, index, task_id)
            if cell_state(found[-1][1] if found else None) not in ("finished", "gave up"):
                return index
        return None

    def elapsed_s(self) -> float:
        a = self.active
        return 0.0 if a is None else a.prior_seconds + a.recorder.elapsed_s()

    def state(self) -> dict[str, Any]:
        """What the page shows now."""
        card = self.plan.protocol
        state: dict[str, Any] = {
            "code": self.p.code, "total": len(self.p.queue), "done": 0,
            "protocol": card.model_dump(mode="json", exclude={"participant", "notes"}),
            "practice": self.plan.practice is not None,
        }  # fmt: skip
        index = self.next_index()
        state["done"] = len(self.p.queue) if index is None else index
        if not self.notes["consented_at"]:
            state["screen"] = "consent"
        elif self.active is not None:
            a = self.active
            state["screen"] = "task"
            state["task"] = {
                "instruction": a.task.task.instruction,
                "practice": a.index is None,
                "number": None if a.index is None else a.index + 1,
                "elapsed_s": round(self.elapsed_s(), 3),
                "time_limit_s": card.time_limit_s,
            }
        elif self.plan.practice and not self.notes["practice_done"]:
            state["screen"] = "practice"
        elif index is None:
            state["screen"] = "done"
        else:
            left = (self.notes["break_until"] or 0) - time.time()
            state["screen"] = "break" if left > 0 else "ready"
            state["break_left_s"] = max(0.0, round(left, 1))
            state["next"] = index + 1
        return state

    def consent(self) -> dict[str, Any]:
        if not self.notes["consented_at"]:
            self.notes["consented_at"] = datetime.now(UTC).isoformat()
            self._save()
        return self.state()

    # ---- tasks ------------------------------------------------------------------------------
    def start(self) -> dict[str, Any]:
        """Start the practice task or the next one (after the break); the state."""
        if self.active is not None:
            return self.state()
        screen = self.state()["screen"]
        if screen in ("consent", "break", "done"):
            raise self.refuse(409, f"nothing can start now ({screen})")
        if screen == "practice":
            assert self.plan.practice is not None
            task = self.tasks[self.plan.practice]
            n = len(attempts(self.study, self.p.code, -1, task.task.id, "practice")) + 1
            folder = attempt_folder(self.study, self.p.code, -1, task.task.id, n, "practice")
            self._begin(task, None, folder, task.initial_path, 0.0, None)
            return self.state()
        index = self.next_index()
        assert index is not None
        task = self.tasks[self.p.queue[index]]
        found = attempts(self.study, self.p.code, index, task.task.id)
        folder = attempt_folder(self.study, self.p.code, index, task.task.id, len(found) + 1)
        start, prior, previous = task.initial_path, 0.0, None
        if found:  # an interrupted attempt: go on from what it had
            previous = found[-1][0]
            prior = sum(run_seconds(r) for _, r in found)
            if (previous / CHECKPOINT).is_file():
                start = previous / CHECKPOINT
        self._begin(task, index, folder, start, prior, previous)
        return self.state()

    def _begin(
        self, task: TaskFolder, index: int | None, folder: Path, start: Path, prior: float,
        previous: Path | None,
    ) -> None:  # fmt: skip
        card = self.plan.protocol.model_copy(update={"participant": self.p.code})
        recorder = HumanSessionRecorder(folder, task, card, self.p.code)
        recorder.run.task_folder = None  # no path of the host's disk in a participant's run
        if index is None:  # a row of its own in reports, never mixed with the study's tasks
            recorder.run.agent = PRACTICE_AGENT
        recorder.run.meta.update(
            study=self.plan.name, practice=index is None, queue_index=index,
            attempt=1 if previous is None else int(folder.name.rsplit("-a", 1)[-1]),
            prior_seconds=round(prior, 3), resumed_from=previous.name if previous else None,
            coordinates="CSS px relative to the editor's top left corner",
        )  # fmt: skip
        atomic.write_text(folder / RUN_FILE, recorder.run.model_dump_json(indent=2) + "\n")
        self.active = _Active(recorder, EventCoalescer(), task, index, start, prior)

    # ---- verdicts ---------------------------------------------------------------------------
    def _judge_later(self, folder: Path, task: TaskFolder) -> None:
        job = asyncio.ensure_future(self.judge(folder, task))
        self.judging.add(job)
        job.add_done_callback(self.judging.discard)

    async def judge(self, folder: Path, task: TaskFolder) -> None:
        """Evaluate a finished run's final project and write the verdict into its run.json."""
        meta: dict[str, Any] = {"evaluation": "done"}
        result: EvalResult | None = None
        try:
            result = await self.evaluate(task, (folder / FINAL_PROJECT).read_bytes())
        except Exception as exc:  # the run keeps the project, and why it has no verdict
            meta = {"evaluation": "failed", "eval_error": str(exc)[:500], "failure": "environment"}
        path = folder / RUN_FILE
        run = RunInfo.model_validate_json(path.read_text(encoding="utf-8"))
        run.eval = result
        run.meta.update(meta)
        atomic.write_text(path, run.model_dump_json(indent=2) + "\n")

    def judge_pending(self) -> int:
        """Evaluate again the runs a stopped server finished but did not judge; how many."""
        count = 0
        for part in ("runs", "practice"):
            base = self.study / part / self.p.code
            for folder in sorted(base.iterdir()) if base.is_dir() else []:
                try:
                    run = RunInfo.model_validate_json((folder / RUN_FILE).read_text("utf-8"))
                except (OSError, ValueError):
                    continue
                pending = run.meta.get("evaluation") == "pending" and run.ended_at is not None
                if pending and run.task_id in self.tasks and (folder / FINAL_PROJECT).is_file():
                    self._judge_later(folder, self.tasks[run.task_id])
                    count += 1
        return count

    async def settle(self) -> None:
        """Wait for the verdicts being computed."""
        while self.judging:
            await asyncio.gather(*list(self.judging), return_exceptions=True)

    def _need_active(self) -> _Active:
        if self.active is None:
            raise self.refuse(409, "no task is in progress")
        return self.active

    def project(self) -> bytes:
        """The project the page shows: the last checkpoint of this run, else its start."""
        a = self._need_active()
        checkpoint = a.recorder.folder / CHECKPOINT
        return (checkpoint if checkpoint.is_file() else a.start_project).read_bytes()

    def _record_ready(self, flush: bool = False) -> int:
        a = self._need_active()
        ready = a.coalescer.flush() if flush else a.coalescer.pop_ready(time.time() * 1000)
        for action in ready:
            a.recorder.record(action, None, None)
        return len(ready)

    def events(self, body: Any) -> dict[str, Any]:
        """Take a batch of input events; what was recorded and the time left."""
        a = self._need_active()
        try:
            checked = check_batch(body)
        except Crafted as exc:
            raise self.refuse(400, f"events refused: {exc}") from None
        a.coalescer.feed_all(checked)
        recorded = self._record_ready()
        limit = self.plan.protocol.time_limit_s
        elapsed = self.elapsed_s()
        return {
            "recorded": recorded, "steps": a.recorder.steps, "elapsed_s": round(elapsed, 3),
            "over_time": limit is not None and elapsed >= limit,
        }  # fmt: skip

    def _checked_project(self, data: bytes, what: str) -> bytes:
        if len(data) > MAX_PROJECT_BYTES:
            raise self.refuse(413, f"{what} refused: larger than {MAX_PROJECT_BYTES} bytes")
        try:
            check_sb3(data, what)
        except StudioError as exc:
            raise self.refuse(400, f"{what} refused: {exc}") from None
        return data

    def checkpoint(self, data: bytes) -> None:
        a = self._need_active()
        self._checked_project(data, "the checkpoint")
        atomic.write_bytes(a.recorder.folder / CHECKPOINT, data)

    def breach(self, what: Any) -> None:
        text = str(what)[:200] if isinstance(what, str) else "an unknown breach"
        self._note("breaches", text)
        if self.active is not None:
            meta = self.active.recorder.run.meta
            meta.setdefault("protocol_breaches", []).append(self.notes["breaches"][-1])

    async def finish(self, outcome: Any, data: bytes) -> dict[str, Any]:
        """End the task: Finish ("done"), Give up ("give up") or the clock ("time limit").

        The run ends at once (the participant does not wait); its final project is judged in
        the background (`judge`, `meta.evaluation` pending until the verdict is written)."""
        a = self._need_active()
        if outcome not in OUTCOMES:
            raise self.refuse(400, f"unknown outcome {str(outcome)[:40]!r}")
        sb3 = self._checked_project(data, "the final project")
        limit = self.plan.protocol.time_limit_s
        if outcome == "done" and limit is not None and self.elapsed_s() > limit + TIME_GRACE_S:
            outcome = "time limit"
        self._record_ready(flush=True)
        a.recorder.run.meta.update(stopped=outcome, evaluation="pending")
        self.active = None
        a.recorder.finish(OUTCOMES[outcome], sb3=sb3)
        atomic.write_bytes(a.recorder.folder / CHECKPOINT, sb3)
        if a.index is None:
            self.notes["practice_done"] = True
        elif self.next_index() is not None:
            self.notes["break_until"] = time.time() + self.plan.break_s
        self._save()
        self._judge_later(a.recorder.folder, a.task)
        return self.state()

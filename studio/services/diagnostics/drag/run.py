"""Running an agent on drag items: one real drag per attempt, Pass@k from the verdicts.

For each item an editor page is set up as the item says (`page.TrialPage.setup`); for each of
k attempts the agent sees a 1280x720 screenshot of that page and the instruction and gives one
drag, which is performed with the mouse and judged from the VM (the intended relation exists:
`connected`); the page then goes back to the item's state. Attempts are independent tries from
the same screen. The same predictions are also scored point by point against the item's
regions (start and end accuracy, spatial error: `scoring`).

A run folder `<agent>-drag-<timestamp>/` holds `attempts.jsonl` (every attempt with its drag,
verdict, reasoning and error, appended as items finish), `predictions.jsonl` (the format
`studio drag score` reads), `summary.json` and `screens/<id>.png` (what the agent saw first).
An item whose page cannot be set up counts as failed, its attempts carry the error.

Items play in this process's browser (`pages` editor windows), or through an `ItemRunner`
that plays each item elsewhere (a cluster worker: `studio.services.distributed.drags`) and
hands back its `ItemRun`; the run folder is written here either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, is_dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from studio.models.drag_item import VIEWPORT
from studio.services.core import atomic
from studio.services.diagnostics.agents import DragAgent, DragDecision, DragObservation
from studio.services.diagnostics.drag.item import ItemFolder
from studio.services.diagnostics.drag.page import TrialPage, Verdict, item_edition, open_window
from studio.services.diagnostics.drag.scoring import (
    K_MAX,
    Attempt,
    AttemptScore,
    ItemScore,
    score_attempt,
    summarize,
)
from studio.services.runtime.editions import Edition

__all__ = [
    "ATTEMPTS_FILE", "KIND", "PAGE_H", "PAGE_W", "PREDICTIONS_FILE", "SCREENS_DIR", "SUMMARY_FILE",
    "AttemptRecord", "DragRun", "ItemRun", "ItemRunner", "failed_attempt", "new_run_dir",
    "run_dir_name", "run_drag", "run_item",
]  # fmt: skip

log = logging.getLogger(__name__)

KIND = "drag"
ATTEMPTS_FILE = "attempts.jsonl"
PREDICTIONS_FILE = "predictions.jsonl"
SUMMARY_FILE = "summary.json"
SCREENS_DIR = "screens"
PAGE_W, PAGE_H = VIEWPORT["width"], VIEWPORT["height"]


def run_dir_name(agent: str, kind: str, when: datetime | None = None) -> str:
    """`<agent>-<kind>-<timestamp>`, safe as a folder name."""
    stamp = (when or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", agent).strip("_") or "agent"
    return f"{safe}-{kind}-{stamp}"


def new_run_dir(out: Path, agent: str, kind: str) -> Path:
    """A run folder below `out` that does not exist yet (`-2`, `-3`... within one second)."""
    base = out / run_dir_name(agent, kind)
    path, n = base, 1
    while path.exists():
        n += 1
        path = base.with_name(f"{base.name}-{n}")
    return path


def _xy(p: tuple[float, float] | None) -> list[float] | None:
    return None if p is None else [round(p[0], 2), round(p[1], 2)]


@dataclass
class AttemptRecord:
    """One attempt: the agent's decision, the drag's verdict (None: no drag) and its score."""

    decision: DragDecision
    verdict: Verdict | None
    score: AttemptScore
    seconds: float = 0.0  # the agent's time
    error: str | None = None  # why there was no drag
    crashed: bool = False  # the agent raised (its endpoint failed) or the page broke

    def to_json(self) -> dict[str, Any]:
        s = self.score
        return {
            "start": _xy(self.decision.start),
            "end": _xy(self.decision.end),
            "moved": None if self.verdict is None else self.verdict.moved,
            "connected": None if self.verdict is None else self.verdict.connected,
            "success": s.success,
            "start_ok": s.start_ok,
            "end_ok": s.end_ok,
            "start_error_px": s.start_error,
            "end_error_px": s.end_error,
            "error": self.error,
            "crashed": self.crashed,
            "reasoning": self.decision.reasoning,
            "seconds": round(self.seconds, 2),
        }


@dataclass
class ItemRun:
    """How the agent did on one item."""

    entry: ItemFolder
    attempts: list[AttemptRecord] = field(default_factory=list)
    error: str | None = None  # the page could not be set up or broke
    seconds: float = 0.0

    @property
    def label(self) -> str:
        return self.entry.item.id

    @property
    def success(self) -> bool:
        return any(a.score.success for a in self.attempts)

    @property
    def problem(self) -> str | None:
        """Why the item did not run as it should (the page, or the agent raising)."""
        if self.error is not None:
            return self.error
        return next((a.error for a in self.attempts if a.crashed), None)

    def line(self) -> str:
        """One line for the terminal."""
        if self.problem is not None:
            return f"ERROR {self.label}: {self.problem}"
        marks = "".join(
            "+" if a.score.success else ("!" if a.error else "-") for a in self.attempts
        )
        verdict = "PASS " if self.success else "FAIL "
        return f"{verdict} {self.label}: attempts {marks} in {self.seconds:.1f} s"

    def item_score(self) -> ItemScore:
        return ItemScore(self.label, self.entry.item.category, [a.score for a in self.attempts])


@dataclass
class DragRun:
    """All items of a run, the figures over them, and where they are written."""

    run_dir: Path
    agent: str
    k: int
    items_dir: str = ""
    items: list[ItemRun] = field(default_factory=list)
    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    seconds: float = 0.0
    usage: dict[str, Any] | None = None
    protocol: dict[str, Any] | None = None  # studio.models.protocols.ProtocolRecord

    @property
    def errors(self) -> list[dict[str, str]]:
        """Items that did not run as they should (counted as failed)."""
        return [{"id": r.label, "error": r.problem} for r in self.items if r.problem is not None]

    @property
    def no_drag(self) -> int:
        """Attempts where the agent gave no usable drag (an unreadable reply)."""
        return sum(
            a.verdict is None and not a.crashed and a.decision.start is None
            for r in self.items
            for a in r.attempts
        )

    def summary(self) -> dict[str, Any]:
        """Pass@1..k over the real drags, the point-based figures, T1 and T2 apart."""
        scores = [r.item_score() for r in self.items]
        out: dict[str, Any] = {
            "kind": KIND,
            "agent": self.agent,
            "items_dir": self.items_dir,
            "k": self.k,
            "started_at": self.started_at.isoformat(timespec="seconds"),
            "seconds": round(self.seconds, 2),
        }
        out.update(summarize(scores, self.k))
        for category in ("T1", "T2"):
            out[category] = summarize([s for s in scores if s.category == category], self.k)
        out["no_drag"] = self.no_drag
        out["errors"] = self.errors
        if self.usage is not None:
            out["usage"] = self.usage
        if self.protocol is not None:
            out["protocol"] = self.protocol
        return out

    def prediction_lines(self) -> list[dict[str, Any]]:
        """predictions.jsonl: `{"id", "model", "attempts": [{"start", "end"} | {"error"}]}`."""
        lines = []
        for r in self.items:
            attempts: list[dict[str, Any]] = []
            for a in r.attempts:
                d = a.decision
                if d.start is None or d.end is None:
                    attempts.append({"error": a.error or "no drag"})
                else:
                    verdict = None if a.verdict is None else a.verdict.connected
                    attempts.append(
                        {"start": _xy(d.start), "end": _xy(d.end), "connected": verdict}
                    )
            lines.append({"id": r.label, "model": self.agent, "attempts": attempts})
        return lines

    def write(self) -> None:
        """predictions.jsonl and summary.json (atomically)."""
        text = "".join(json.dumps(line) + "\n" for line in self.prediction_lines())
        atomic.write_text(self.run_dir / PREDICTIONS_FILE, text)
        atomic.write_text(self.run_dir / SUMMARY_FILE, json.dumps(self.summary(), indent=2) + "\n")


def _append(path: Path, run: ItemRun) -> None:
    row = {
        "id": run.label,
        "category": run.entry.item.category,
        "error": run.error,
        "seconds": round(run.seconds, 2),
        "attempts": [a.to_json() for a in run.attempts],
    }
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")


def _inside(p: tuple[float, float]) -> bool:
    return 0 <= p[0] < PAGE_W and 0 <= p[1] < PAGE_H


def failed_attempt(
    entry: ItemFolder, decision: DragDecision, error: str, crashed: bool = False
) -> AttemptRecord:
    score = score_attempt(entry.item, Attempt(decision.start, decision.end, error))
    score.executed = False
    return AttemptRecord(decision, None, score, error=error, crashed=crashed)


async def _attempt(tp: TrialPage, agent: DragAgent, n: int, screens: Path | None) -> AttemptRecord:
    entry = tp.entry
    png = await tp.page.screenshot(type="png")
    if screens is not None:
        atomic.write_bytes(screens / f"{entry.item.id}.png", png)
    obs = DragObservation(entry.item.id, entry.item.instruction, png, n, PAGE_W, PAGE_H)
    t0 = time.perf_counter()
    try:
        decision = await agent.drag(obs)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # the agent's endpoint failed: this attempt, not the run
        log.warning("%s: agent failed: %s", entry.item.id, exc)
        error = f"agent error: {exc}"
        record = failed_attempt(entry, DragDecision.refused(error), error, crashed=True)
        record.seconds = time.perf_counter() - t0
        return record
    seconds = time.perf_counter() - t0
    start, end = decision.start, decision.end
    if start is None or end is None:
        record = failed_attempt(entry, decision, decision.error or "no drag")
    elif not (_inside(start) and _inside(end)):
        record = failed_attempt(entry, decision, f"a point lies outside the {PAGE_W}x{PAGE_H} page")
    else:
        verdict = await tp.trial(start, end)
        score = score_attempt(entry.item, Attempt(start, end))
        score.executed = verdict.connected
        record = AttemptRecord(decision, verdict, score)
    record.seconds = seconds
    return record


async def run_item(
    window: Any,
    entry: ItemFolder,
    agent: DragAgent,
    k: int,
    run_dir: Path,
    edition: Edition | None = None,
    server: Any = None,
) -> ItemRun:
    """The item's k attempts in `window` (an editor page, taken to the item's edition when
    `server` is given and it shows another); its first screen goes to
    `run_dir/screens/<id>.png`."""
    t0 = time.perf_counter()
    run = ItemRun(entry)
    tp = TrialPage(window, entry, edition, server)
    try:
        await tp.setup()
        for n in range(k):
            if n:
                await tp.at_baseline()
            screens = run_dir / SCREENS_DIR if n == 0 else None
            run.attempts.append(await _attempt(tp, agent, n, screens))
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        log.warning("%s: %s", entry.item.id, exc, exc_info=True)
        run.error = str(exc) or type(exc).__name__
        while len(run.attempts) < k:
            refused = DragDecision.refused(run.error)
            run.attempts.append(failed_attempt(entry, refused, run.error, crashed=True))
    run.seconds = time.perf_counter() - t0
    return run


class ItemRunner(Protocol):
    """Plays one item somewhere else and hands back how it went (screens written here)."""

    async def run_item(
        self, entry: ItemFolder, agent: DragAgent, k: int, run_dir: Path
    ) -> ItemRun: ...


async def run_drag(
    context: Any,
    server: Any,
    entries: list[ItemFolder],
    agent: DragAgent,
    run_dir: Path,
    k: int = 1,
    pages: int = 1,
    on_done: Callable[[int, int, ItemRun], None] | None = None,
    items_dir: str = "",
    windows: list[Any] | None = None,
    runner: ItemRunner | None = None,
    edition: Edition | None = None,
    protocol: dict[str, Any] | None = None,
) -> DragRun:
    """Run `agent` on every item, `pages` items at a time (an editor window each); write the
    run folder; the run with its summary. `windows`: editor pages the caller opened
    (`page.open_window`), used instead of new ones and left open. `runner`: plays the items
    instead (all handed to it at once; it bounds how many run together). Each item plays on
    `edition`, else on the edition its library records. `protocol` (the run's protocol
    record) goes into summary.json."""
    if not 1 <= k <= K_MAX:
        raise ValueError(f"k must be 1 to {K_MAX}")
    (run_dir / SCREENS_DIR).mkdir(parents=True, exist_ok=True)
    run = DragRun(run_dir, agent.name, k, items_dir, protocol=protocol)
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(len(entries)):
        queue.put_nowait(i)
    results: list[ItemRun | None] = [None] * len(entries)
    t0 = time.perf_counter()

    def finished(i: int, item: ItemRun) -> None:
        results[i] = item
        _append(run_dir / ATTEMPTS_FILE, item)
        if on_done is not None:
            on_done(sum(r is not None for r in results), len(entries), item)

    async def elsewhere(i: int) -> None:
        assert runner is not None
        finished(i, await runner.run_item(entries[i], agent, k, run_dir))

    async def worker(given: Any) -> None:
        window = given
        try:
            while not queue.empty():
                i = queue.get_nowait()
                if window is None:
                    wanted = item_edition(entries[i], edition)
                    window = await open_window(context, server, wanted)
                item = await run_item(window, entries[i], agent, k, run_dir, edition, server)
                if item.error is not None and window is not given:  # take a fresh page
                    with contextlib.suppress(Exception):
                        await window.close()
                    window = None
                finished(i, item)
        finally:
            if window is not None and window is not given:
                with contextlib.suppress(Exception):
                    await window.close()

    if runner is not None:
        await asyncio.gather(*(elsewhere(i) for i in range(len(entries))))
    else:
        slots = list(windows or [None] * max(1, min(pages, len(entries))))
        await asyncio.gather(*(worker(w) for w in slots))
    run.items = [r for r in results if r is not None]
    run.seconds = time.perf_counter() - t0
    usage = getattr(agent, "usage", None)
    if is_dataclass(usage) and not isinstance(usage, type):
        run.usage = asdict(usage)
    run.write()
    return run

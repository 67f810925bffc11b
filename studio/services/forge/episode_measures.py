"""Repair measures of a debug episode, taken once it ends and kept in its run.json.

After each episode of a *debug* task, in any mode, `EpisodeMeasures.measure(folder)` computes

- `d_edit`: |E_gold Δ E_model| against the task's minimal fix (`runs.repair_measures.run_d_edit`:
  the bug record's inverse patch, else initial → golden), from the episode's final program;
- `drift`: semantic drift (`propose.drift.trace_drift`) of the final program's behaviour from
  the golden's, both recorded by the behaviour trace recorder under the task's scenarios
  (`propose.scenarios.build_scenarios` from the golden and initial programs) on the virtual
  clock with the same seed: 0 for the same behaviour, 1 as different as can be;

and stores them under `meta.repair` of the episode's run.json (atomically, the rest of the file
kept): `{"d_edit": int | None, "drift": float | None}`, with `drift_error` saying why drift is
missing (no golden project, a program the recorder cannot run, no browser to run it in). The
golden program's recording is made once per task and reused. The recordings run on the
evaluator given (this process's browser, or a cluster's workers: any `Evaluates`); with none
and `own_browser`, on a browser of this process started at the first debug episode that needs
one (episodes played on a served API) and closed by `aclose`. Episodes of other
categories, and episodes without a final program, are left alone (None).

An episode of understanding mode changes no program: its last `explain_bug` answer (from its
steps.jsonl) is scored against the task's bug record instead (`forge.understanding`) and kept
under `meta.understanding`: `{"trigger_f1": float, "mechanism_correct": bool, "answered": bool}`
(no answer scores as an empty one: F1 0 unless the record names no trigger, mechanism wrong).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.models.forge import BUG_FILE, BugRecord
from studio.models.trajectory import FINAL_PROJECT, RUN_FILE, STEPS_FILE, RunInfo
from studio.services.core import atomic
from studio.services.core.jsonl import json_lines
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import TaskFolder, load_task
from studio.services.forge.understanding import score_understanding
from studio.services.propose import trace
from studio.services.propose.drift import trace_drift
from studio.services.propose.model import Traces
from studio.services.propose.pipeline import read_projects
from studio.services.propose.scenarios import build_scenarios
from studio.services.runs.repair_measures import run_d_edit
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.evaluator import Evaluates, Evaluator

__all__ = ["EpisodeMeasures"]

SEED = 0


@dataclass
class _Watched:
    """One task's recorder, in a scratch folder, and the golden's recording under it."""

    runner: trace.ScriptRunner
    folder: Any  # the scratch folder (a TemporaryDirectory), removed with `close`
    golden: Traces


async def _watch(evaluator: Evaluates, entry: TaskFolder) -> _Watched:
    golden, gj, _initial, ij = read_projects(entry)
    scenarios = build_scenarios(gj, ij, entry.task.instruction)
    folder = trace.scratch_folder()
    try:
        runner = trace.ScriptRunner(evaluator, entry, Path(folder.name))
        trace.use_trace_script(runner, scenarios)
        name = entry.task.golden_project or "golden.sb3"
        traces = trace.traces_of(await runner.run(golden, name, SEED), name)
    except BaseException:
        folder.cleanup()
        raise
    return _Watched(runner, folder, traces)


@dataclass
class EpisodeMeasures:
    """Measures debug episodes as they end; `evaluator` None and not `own_browser`: d_edit
    only, drift left out with the reason."""

    evaluator: Evaluates | None
    own_browser: bool = False
    _watched: dict[str, _Watched] = field(default_factory=dict)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one golden recording per task
    _pool: BrowserPool | None = None  # the browser started here (own_browser)

    async def measure(self, folder: Path) -> dict[str, Any] | None:
        """Compute and store the measures of the episode recorded in `folder` (None when it
        is not a debug episode with a final program)."""
        path = folder / RUN_FILE
        try:
            run = RunInfo.model_validate_json(path.read_text(encoding="utf-8"))
            entry = load_task(Path(run.task_folder or ""))
        except (OSError, ValueError, StudioError):
            return None
        if run.mode is Mode.UNDERSTAND:
            return self._understanding(run, entry, folder)
        final = folder / FINAL_PROJECT
        if entry.task.category.value != "debug" or not final.is_file():
            return None
        figures: dict[str, Any] = {"d_edit": run_d_edit(run, folder), "drift": None}
        if self.evaluator is None and not self.own_browser:
            figures["drift_error"] = "no browser where the episodes played"
        else:
            try:
                figures["drift"] = await self._drift(entry, final.read_bytes())
            except StudioError as exc:
                figures["drift_error"] = str(exc)
        run.meta["repair"] = figures
        atomic.write_text(path, run.model_dump_json(indent=2))
        return figures

    def _understanding(
        self, run: RunInfo, entry: TaskFolder, folder: Path
    ) -> dict[str, Any] | None:
        try:
            record = BugRecord.model_validate_json((entry.folder / BUG_FILE).read_text("utf-8"))
        except (OSError, ValueError):
            return None  # no bug record: nothing to score the answer against
        answer: dict[str, Any] = {}
        with contextlib.suppress(OSError, StudioError):
            for _n, step in json_lines(folder / STEPS_FILE):
                action = step.get("action") if isinstance(step, dict) else None
                ok = isinstance(step, dict) and step.get("ok") is not False
                if ok and isinstance(action, dict) and action.get("api") == "explain_bug":
                    answer = action.get("args") or {}
        triggers = [str(t) for t in answer.get("triggers") or []]
        score = score_understanding(record, triggers, str(answer.get("mechanism") or ""))
        figures: dict[str, Any] = {
            "trigger_f1": score.trigger_f1,
            "mechanism_correct": score.mechanism_correct,
            "answered": bool(answer),
        }
        run.meta["understanding"] = figures
        atomic.write_text(folder / RUN_FILE, run.model_dump_json(indent=2))
        return figures

    async def _drift(self, entry: TaskFolder, program: bytes) -> float:
        read_project_json(program, FINAL_PROJECT)  # a final program that is no project is named
        key = str(entry.folder.resolve())
        async with self._lock:
            if key not in self._watched:
                self._watched[key] = await _watch(await self._evaluator(), entry)
        watched = self._watched[key]
        traces = trace.traces_of(await watched.runner.run(program, FINAL_PROJECT, SEED), "final")
        return trace_drift(watched.golden, traces)

    async def _evaluator(self) -> Evaluates:
        """The evaluator given, else this process's browser, started now (under the lock)."""
        if self.evaluator is None:
            pool = BrowserPool(spares=1)
            await pool.start()
            self._pool, self.evaluator = pool, Evaluator(pool)
        return self.evaluator

    def close(self) -> None:
        """Remove the scratch folders."""
        for watched in self._watched.values():
            with contextlib.suppress(OSError):
                watched.folder.cleanup()
        self._watched.clear()

    async def aclose(self) -> None:
        """Remove the scratch folders and close the browser started here, if any."""
        self.close()
        pool, self._pool = self._pool, None
        if pool is not None:
            self.evaluator = None
            await pool.close()

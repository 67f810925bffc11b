"""`propose`: from a task folder to a proposed evaluation script, with what it kills.

1. Refuse what cannot be watched reproducibly: no golden project, a program that reads the
   real time of day.
2. Record the golden program (two seeds) and the initial program under every scenario; a golden
   that does not run, or an initial that behaves exactly like the golden, stops here.
3. Propose candidate tests, run them all in one script on the golden (one run per rerun seed),
   the initial program and each mutant of the golden, keep a small covering set.
4. Optionally (off by default) let a model rename the kept tests: names only, never checks.
5. Return the report with the script of the kept tests; `write_script` puts it beside the task
   (never over the task's own script unless asked).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.models.errors import StudioError
from studio.models.task import Category
from studio.services.checking.mutant_trials import Subject, run_gated
from studio.services.checking.mutation.engine import generate_mutants, mutant_sb3
from studio.services.core import atomic
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import TaskFolder
from studio.services.episodes.agents.llm import LlmSettings, Usage
from studio.services.propose import codegen, trace
from studio.services.propose.llm_words import rename
from studio.services.propose.model import Proposal, ProposalError, Traces
from studio.services.propose.proposals import propose_tests
from studio.services.propose.scenarios import Scenario, build_scenarios, realtime_blocks
from studio.services.propose.selection import Selection, Verdicts, select, verdicts
from studio.services.runtime.evaluator import Evaluator

__all__ = [
    "DEFAULT_OUT", "INITIAL_PASSES", "ProgressFn", "ProposalReport", "ProposeOptions",
    "output_path", "propose", "read_projects", "write_script",
]  # fmt: skip

DEFAULT_OUT = "evaluate.proposed.js"
# Said first when no kept test fails the initial program (none of the usable ones did).
INITIAL_PASSES = (
    "no proposed test fails the initial program: the script passes the task's starting "
    "project, so an agent that does nothing would score 100 %; add a test of what the task "
    "asks to change before using it"
)
ProgressFn = Callable[[int, int, str], None]  # (done, total, what is running)


@dataclass
class ProposeOptions:
    mutants: int = 10
    seed: int = 0
    reruns: int = 3
    workers: int = 2
    llm: LlmSettings | None = None  # the optional step that renames the kept tests


@dataclass
class ProposalReport:
    """What `propose` found and kept, and the script of the kept tests."""

    task_id: str
    category: str
    scenarios: list[Scenario]
    candidates: list[Proposal]
    selection: Selection
    golden_passed: bool
    script: str
    seconds: float = 0.0
    golden_traces: Traces = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    own_helpers: bool = False  # the task has its own helper library: embed the studio's
    mutant_words: dict[str, str] = field(default_factory=dict)  # id: "Sprite: what changed"

    def mutant_text(self, mutant_id: str) -> str:
        """A mutant in words (its sprite and change), its id after; the id alone if unknown."""
        words = self.mutant_words.get(mutant_id)
        return f"{words} ({mutant_id})" if words else mutant_id

    @property
    def kept(self) -> list[Proposal]:
        return self.selection.kept

    @property
    def catches_initial(self) -> bool:
        """Does the script fail the initial program (so doing nothing does not pass it)?"""
        return self.selection.initial_failed

    def section(self, proposals: list[Proposal] | None = None) -> str:
        chosen = self.kept if proposals is None else proposals
        return codegen.section(chosen, self.scenarios, self.own_helpers)

    def script_for(self, proposals: list[Proposal]) -> str:
        return codegen.whole_script(self.task_id, proposals, self.scenarios, self.own_helpers)

    def to_json(self) -> dict[str, Any]:
        s = self.selection
        return {
            "task": self.task_id,
            "tests": [p.to_json() for p in self.kept],
            "golden_passed": self.golden_passed,
            "initial_failed": s.initial_failed,
            "mutants_total": s.mutants_total,
            "mutants_killed": s.mutants_killed,
            "survivors": s.survivors,
            "killed_nothing": s.killed_nothing,
            "candidates": len(self.candidates),
            "usable_candidates": s.usable,
            "scenarios": [sc.words for sc in self.scenarios],
            "seconds": round(self.seconds, 2),
            "warnings": list(self.warnings),
        }


def read_projects(entry: TaskFolder) -> tuple[bytes, dict[str, Any], bytes, dict[str, Any]]:
    """Golden and initial .sb3 bytes and project.json; ProposalError for what cannot be watched."""
    if entry.golden_path is None or not entry.golden_path.is_file():
        raise ProposalError(f"{entry.folder}: the task has no golden project to watch")
    golden = entry.golden_path.read_bytes()
    initial = entry.initial_path.read_bytes()
    gj = read_project_json(golden, entry.golden_path)
    ij = read_project_json(initial, entry.initial_path)
    for path, project in ((entry.golden_path, gj), (entry.initial_path, ij)):
        found = realtime_blocks(project)
        if found:
            raise ProposalError(
                f"{path}: the program reads the real time of day ({'; '.join(found)}), so its "
                "behaviour changes from day to day and cannot be turned into tests"
            )
    return golden, gj, initial, ij


def _same_behaviour(golden: Traces, initial: Traces) -> bool:
    for sid, g in golden.items():
        i = initial.get(sid)
        if i is None or g.says != i.says or g.broadcasts != i.broadcasts:
            return False
        if any(g.sequence(k) != i.sequence(k) or g.end.get(k) != i.end.get(k) for k in g.changes):
            return False
    return True


class _Counter:
    def __init__(self, progress: ProgressFn | None, total: int) -> None:
        self.progress, self.total, self.done = progress, total, 0

    def step(self, what: str) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total, what)


async def propose(
    evaluator: Evaluator,
    entry: TaskFolder,
    options: ProposeOptions | None = None,
    progress: ProgressFn | None = None,
) -> ProposalReport:
    """Propose a script for `entry`; ProposalError (or a ProjectFileError) says why not."""
    options = options or ProposeOptions()
    t0 = time.perf_counter()
    golden, gj, initial, ij = read_projects(entry)
    scenarios = build_scenarios(gj, ij, entry.task.instruction)
    mutants = generate_mutants(gj, ij, max(0, options.mutants), options.seed)
    reruns = max(1, options.reruns)
    counter = _Counter(progress, 3 + reruns + 1 + len(mutants))
    gate = asyncio.Semaphore(max(1, options.workers))
    with trace.scratch_folder() as tmp:
        runner = trace.ScriptRunner(evaluator, entry, Path(tmp))

        def step(subject: Subject) -> None:
            counter.step(subject.label)

        trace.use_trace_script(runner, scenarios)
        golden_name = entry.task.golden_project or "golden.sb3"
        initial_name = entry.task.initial_project
        s = options.seed
        recording = [
            Subject(golden, golden_name, (s, s + 1), "recording the golden program"),
            Subject(initial, initial_name, (s,), "recording the initial program"),
        ]
        (r0, r1), (ri,) = await run_gated(runner.run, recording, gate, step)
        g0, g1 = trace.traces_of(r0, golden_name), trace.traces_of(r1, golden_name)
        i0 = trace.traces_of(ri, initial_name)
        if _same_behaviour(g0, i0):
            raise ProposalError(
                f"{entry.folder}: the golden and initial programs behave the same under every "
                "scenario tried, so no test can tell them apart"
            )
        candidates = propose_tests(scenarios, [g0, g1], i0, entry.task.instruction)
        if not candidates:
            raise ProposalError(f"{entry.folder}: the golden program shows no behaviour to test")
        runner.use(codegen.whole_script(entry.task.id, candidates, scenarios),
                   trace.total_ms(scenarios))  # fmt: skip
        golden_path = entry.golden_path or golden_name
        subjects = [
            Subject(golden, golden_name, [s + k for k in range(reruns)], "golden program"),
            Subject(initial, initial_name, (s,), "initial program"),
            *(Subject(mutant_sb3(golden, m, golden_path), f"{m.id}.sb3", (s,), "mutants")
              for m in mutants),
        ]  # fmt: skip
        golden_results, (initial_result,), *mutant_results = await run_gated(
            runner.run, subjects, gate, step
        )
    golden_v: list[Verdicts | None] = [verdicts(r) for r in golden_results]
    initial_v = verdicts(initial_result)
    mutant_v = {m.id: verdicts(r) for m, (r,) in zip(mutants, mutant_results, strict=True)}
    selection = select(candidates, golden_v, initial_v, mutant_v)
    if not selection.kept:
        raise ProposalError(
            f"{entry.folder}: none of the {len(candidates)} proposed tests passes the golden "
            f"program on all {reruns} seeded runs"
        )
    if entry.task.category is Category.DEBUG and not selection.initial_failed:
        raise ProposalError(
            f"{entry.folder}: no proposed test that passes the golden program fails the "
            "initial program, so the bug of this debug task would not be caught"
        )
    own_helpers = entry.task.evaluation.helper_library is not None
    warnings = _limit_warnings(entry, selection, scenarios)
    if not selection.initial_failed:  # the cover keeps such a test whenever one is usable
        warnings.insert(0, INITIAL_PASSES)
    if options.llm is not None:
        warnings += await _rename(options.llm, entry.task.instruction, selection)
    return ProposalReport(
        warnings=warnings,
        task_id=entry.task.id,
        category=entry.task.category.value,
        scenarios=scenarios,
        candidates=candidates,
        selection=selection,
        golden_passed=True,
        own_helpers=own_helpers,
        script=codegen.whole_script(entry.task.id, selection.kept, scenarios, own_helpers),
        seconds=time.perf_counter() - t0,
        golden_traces=g0,
        mutant_words={m.id: f"{m.sprite}: {m.description}" for m in mutants},
    )


async def _rename(settings: LlmSettings, instruction: str, selection: Selection) -> list[str]:
    """The optional LLM step: new names for the kept tests; a failure keeps their own."""
    try:
        changed = await rename(settings, instruction, selection.kept, Usage())
    except StudioError as exc:
        return [f"the model did not rename the tests: {exc}"]
    selection.killed_nothing = [p.words for p in selection.kept if not p.kills]
    return [] if changed else ["the model's reply renamed no test"]


def _limit_warnings(
    entry: TaskFolder, selection: Selection, scenarios: list[Scenario]
) -> list[str]:
    """The kept tests play their scenarios on the virtual clock: do they fit the task's limit?"""
    used = {p.scenario for p in selection.kept}
    needed = sum(s.duration for s in scenarios if s.id in used) / 1000
    limit = entry.task.evaluation.limit()
    if needed <= limit.seconds * 0.8:
        return []
    return [
        f"the kept tests play {needed:.0f} s of scenarios (virtual time), close to or past the "
        f"script's limit of {limit.seconds:g} s ({limit.source})"
    ]


def output_path(entry: TaskFolder, out: Path | None) -> Path:
    return out if out is not None else entry.folder / DEFAULT_OUT


def write_script(entry: TaskFolder, script: str, out: Path | None, replace: bool) -> Path:
    """Write the proposed script; the task's own script only with `replace`."""
    path = output_path(entry, out)
    if path.resolve() == entry.script_path.resolve() and not replace:
        raise ProposalError(
            f"{path} is the task's own evaluation script; pass --replace to overwrite it"
        )
    atomic.write_text(path, script)
    return path

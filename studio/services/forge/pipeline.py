"""The inject-and-validate loop (ScratchEval's Bug Forge) over one golden task.

1. The golden runs its own script R times (seeds S..S+R-1, the virtual clock unless the task
   asks for real time). A script that cannot run, or a golden passing in less than θ_pass of
   the runs, stops this golden with an error that says so; nothing is forged from it.
2. Up to K candidate bugs come from the forge's mutation operators (`mechanisms.FORGE_OPERATORS`,
   narrowed by the mechanisms wanted), most relevant first (`generate_mutants`), duplicates of
   the golden or of each other dropped there. A candidate without an atomic inverse patch (the
   minimal fix, `core.patch.patch_between`) is rejected.
3. Every candidate runs the golden's own script R times, all through one gate
   (`mutant_trials.run_gated`) on the warm page pool. Caught: the bugged program passes in at
   most θ_fail of the runs and some test that the golden passes in at least θ_pass of its runs
   fails in at least 1 - θ_fail of the bugged runs.
4. A candidate the own script does not catch gets tests derived from behaviour, as `propose`
   derives them (golden → bugged), and is caught when the derived script, which passes the
   golden on all R runs, fails on at least 1 - θ_fail of R bugged runs.
5. A caught candidate whose failures (tests and messages, run by run) equal those of a bug kept
   before for this golden is behaviourally equivalent to it and rejected.
6. The others are confirmed on R fresh seeds (S+R..S+2R-1, which no step above used): the
   golden (under the tests that caught the bug) must pass in at least θ_pass of these runs, the
   bugged program in at most θ_fail, and some test must again tell them apart under the same
   rule; otherwise the bug was caught by tests that hold on the forge's seeds only (a random
   program's end state, say) and is rejected. So is a bug under which a test other than those
   that tell it passes the bugged program in some of its 2R runs and not in others (`studio
   check` calls that flaky). The confirmed ones are kept, up to N per golden, each written as
   a whole debug task (`writer.write_task`), which an independent `studio check` with other
   seeds then passes.

An evaluation whose page crashed or stopped answering gave no verdict: it runs again on a fresh
page (ATTEMPTS in all), and a golden still without verdicts is named as such, not as failing.

Each judged candidate is told to `on_verdict` (when given) as a `Verdict`: its task id,
mechanism and operator, the pass/fail of every bugged rerun, kept or the reason it was
rejected, and the bugged program, so a front end can show candidates as they are validated.
"""

from __future__ import annotations

import asyncio
import hashlib
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from studio.models.evaluation import Clock, ErrorKind, EvalResult
from studio.models.forge import MECHANISMS, BugRecord, FailingTest, ForgeOutcome, Site
from studio.models.mutation import Mutant
from studio.models.task import TASK_FILE, Category, ClockPreference, Convention
from studio.services.checking.mutant_trials import Subject, flaky_tests, run_gated
from studio.services.checking.mutation.engine import generate_mutants, mutant_sb3
from studio.services.core import atomic
from studio.services.core.patch import patch_between
from studio.services.core.sb3 import read_project_json
from studio.services.core.store import TaskFolder
from studio.services.forge import mechanisms, rates, writer
from studio.services.forge.bug_report import bug_report
from studio.services.propose.model import ProposalError
from studio.services.propose.pipeline import ProposeOptions, propose
from studio.services.runtime.evaluator import Evaluates, Evaluator

__all__ = [
    "ATTEMPTS",
    "ForgeOptions",
    "ProgressFn",
    "Verdict",
    "VerdictFn",
    "forge_golden",
    "forged_task_id",
]

ProgressFn = Callable[[str, str], None]  # (golden id, what happened)
_SCRIPT_FAULTS = {ErrorKind.SYNTAX, ErrorKind.SETUP, ErrorKind.RESULT}
# A page that crashed or stopped answering gave no verdict (a loaded machine can do that): the
# evaluation runs again on a fresh page, up to ATTEMPTS times in all.
_ENVIRONMENT = {ErrorKind.CRASH, ErrorKind.STALLED}
ATTEMPTS = 3


async def _settled(call: Callable[[], Awaitable[EvalResult]]) -> EvalResult:
    """`call()`, again while it ends in a crashed or stalled page (at most ATTEMPTS in all)."""
    result = await call()
    for _ in range(ATTEMPTS - 1):
        if result.error is None or result.error.kind not in _ENVIRONMENT:
            break
        result = await call()
    return result


@dataclass(frozen=True)
class Verdict:
    """One judged candidate: `kept`, or `reason` says why it was rejected. `reruns` are the
    bugged program's pass (True) or fail per seeded rerun under the tests that judged it
    (`tests_from`: "own" or "derived"); `sb3` is the bugged program."""

    golden: str
    task_id: str
    mechanism: str
    operator: str
    description: str
    reruns: tuple[bool, ...]
    tests_from: str
    kept: bool
    reason: str
    sb3: bytes


VerdictFn = Callable[[Verdict], None]


@dataclass
class ForgeOptions:
    per_golden: int = 3
    reruns: int = 5
    seed: int = 0
    tries: int = 20  # K: candidates tried per golden
    theta_pass: float = 0.9
    theta_fail: float = 0.1
    workers: int = 2
    mechanisms: Sequence[str] = field(default_factory=lambda: list(MECHANISMS))
    derive: bool = True  # derive tests where the golden's own script misses a bug


def forged_task_id(golden_id: str, mutant: Mutant) -> str:
    digest = hashlib.sha256(mutant.id.encode()).hexdigest()[:8]
    return f"{golden_id}--{mutant.operator.lower()}-{digest}"


@dataclass
class _Candidate:
    mutant: Mutant
    task_id: str
    mechanism: str
    inverse: list
    sb3: bytes
    runs: list[EvalResult] = field(default_factory=list)


class _Forge:
    def __init__(
        self,
        evaluator: Evaluates,
        entry: TaskFolder,
        library: Path,
        opts: ForgeOptions,
        progress: ProgressFn | None,
        on_verdict: VerdictFn | None = None,
        kept_in: Sequence[Path] = (),
    ) -> None:
        self.evaluator, self.entry, self.library, self.opts = evaluator, entry, library, opts
        self.kept_in = list(kept_in)
        self.progress = progress or (lambda _g, _w: None)
        self.on_verdict = on_verdict or (lambda _v: None)
        self.gate = asyncio.Semaphore(max(1, opts.workers))
        self.seeds = [opts.seed + i for i in range(max(1, opts.reruns))]
        self.fresh = [s + len(self.seeds) for s in self.seeds]  # step 6's seeds
        self._golden_fresh: list[EvalResult] | None = None
        self.out = ForgeOutcome(golden=entry.task.id)
        real = entry.task.evaluation.clock is ClockPreference.REAL
        self.clock = Clock.REAL if real else Clock.VIRTUAL

        self._eval = self._evaluating(entry, self.clock)

    def _evaluating(
        self, entry: TaskFolder, clock: Clock
    ) -> Callable[[bytes | Path, str, int], Awaitable[EvalResult]]:
        """A function evaluating a project of `entry` on `clock` (counted; run again on a fresh
        page while its page crashes or stalls)."""

        async def ev(project: bytes | Path, name: str, seed: int) -> EvalResult:
            async def once() -> EvalResult:
                self.out.evaluations += 1
                return await self.evaluator.evaluate(
                    entry, project, project_name=name, clock=clock, seed=seed
                )

            return await _settled(once)

        return ev

    async def run(self) -> ForgeOutcome:
        entry, opts = self.entry, self.opts
        if entry.golden_path is None or not entry.golden_path.is_file():
            self.out.error = f"{entry.folder}: the task has no golden project"
            return self.out
        golden_bytes = entry.golden_path.read_bytes()
        gj = read_project_json(golden_bytes, entry.golden_path)
        ij = read_project_json(entry.initial_path.read_bytes(), entry.initial_path)
        t0 = time.perf_counter()
        (golden_runs,) = await run_gated(
            self._eval, [Subject(golden_bytes, "golden.sb3", self.seeds, "golden")], self.gate
        )
        fault = next(
            (r.error for r in golden_runs if r.error and r.error.kind in _SCRIPT_FAULTS), None
        )
        self.out.spent("golden", time.perf_counter() - t0)
        if fault is not None:
            where = f" line {fault.line}" if fault.line else ""
            self.out.error = (
                f"{entry.script_path}: the script cannot run ({fault.kind.value} "
                f"error{where}): {fault.message[:300]}"
            )
            return self.out
        lost = [r.error for r in golden_runs if r.error and r.error.kind in _ENVIRONMENT]
        if lost and rates.pass_rate(golden_runs) < opts.theta_pass:
            self.out.error = (
                f"{entry.folder}: the golden could not be evaluated in {len(lost)} of "
                f"{len(golden_runs)} runs, even on fresh pages ({lost[0].kind.value} error: "
                f"{lost[0].message[:200]}); is the machine overloaded?"
            )
            return self.out
        if rates.pass_rate(golden_runs) < opts.theta_pass:
            self.out.error = (
                f"{entry.folder}: the golden fails its own tests "
                f"(passes {sum(r.success for r in golden_runs)} of "
                f"{len(golden_runs)} runs)"
            )
            return self.out
        self.progress(entry.task.id, "golden passes its own tests")
        candidates = self._candidates(gj, ij, golden_bytes)
        if not candidates and not self.out.tried:
            self.out.error = (
                f"{entry.folder}: nothing to mutate (no site for the forge's operators)"
            )
            return self.out
        done = writer.forged_ids(self.library).union(*map(writer.forged_ids, self.kept_in))
        fresh = []
        for c in candidates:
            if c.task_id in done:
                self.out.kept_before += 1
            else:
                fresh.append(c)
        want = max(0, opts.per_golden - self.out.kept_before)
        signatures: list[tuple] = []
        while fresh and self.out.kept < want:
            # a batch twice the size of what is still wanted keeps the pages busy without
            # running many candidates that would never be judged
            size = max(opts.workers, 2 * (want - self.out.kept))
            batch, fresh = fresh[:size], fresh[size:]
            t0 = time.perf_counter()
            self.out.candidates_run += len(batch)
            results = await run_gated(
                self._eval,
                [Subject(c.sb3, f"{c.mutant.id}.sb3", self.seeds, c.mutant.id) for c in batch],
                self.gate,
            )
            self.out.spent("candidates", time.perf_counter() - t0)
            for c, runs in zip(batch, results, strict=True):
                if self.out.kept >= want:
                    break
                await self._judge(c, runs, golden_runs, golden_bytes, gj, signatures)
        return self.out

    def _candidates(self, gj: dict, ij: dict, golden_bytes: bytes) -> list[_Candidate]:
        wanted = set(self.opts.mechanisms)
        mutants = generate_mutants(
            gj,
            ij,
            max(0, self.opts.tries) * 4,
            self.opts.seed,
            operators=list(mechanisms.FORGE_OPERATORS),
        )
        out = []
        for m in mechanisms.coverage_order(mutants, gj, self.library)[: max(0, self.opts.tries)]:
            self.out.tried += 1
            mech = mechanisms.mechanism_of(m.operator, gj, m.sprite, m.block_id)
            if mech is None or mech not in wanted:
                self.out.reject("mechanism not wanted")
                continue
            inverse = patch_between(m.project, gj)
            if inverse is None:
                self.out.reject("no atomic inverse patch")
                continue
            try:
                sb3 = mutant_sb3(golden_bytes, m, self.entry.golden_path or "golden.sb3")
            except Exception:
                self.out.reject("could not be built")
                continue
            tid = forged_task_id(self.entry.task.id, m)
            out.append(_Candidate(m, tid, mech, [e.model_dump() for e in inverse], sb3))
        return out

    async def _judge(
        self,
        c: _Candidate,
        runs: list[EvalResult],
        golden_runs: list[EvalResult],
        golden_bytes: bytes,
        gj: dict,
        signatures: list[tuple],
    ) -> None:
        opts = self.opts
        if any(r.error and r.error.kind is ErrorKind.PROJECT for r in runs):
            self._tell(c, runs, "own", "the VM cannot load it")
            return
        failing = (
            rates.failing_tests(golden_runs, runs, opts.theta_pass, opts.theta_fail)
            if rates.pass_rate(runs) <= opts.theta_fail
            else []
        )
        derived: str | None = None
        tests_from, g_rate, b_rate = "own", rates.pass_rate(golden_runs), rates.pass_rate(runs)
        if not failing and opts.derive:
            t0 = time.perf_counter()
            found = await self._derive(c, golden_bytes)
            self.out.spent("derive", time.perf_counter() - t0)
            if found is not None:
                derived, failing, runs, g_rate, b_rate = found
                tests_from = "derived"
        if not failing:
            self._tell(c, runs, tests_from, "not caught by the tests")
            return
        sig = rates.outcome_signature(runs)
        if sig in signatures:
            self._tell(c, runs, tests_from, "equivalent to a bug kept before")
            return
        signatures.append(sig)
        reason = await self._confirmed(c, golden_bytes, derived, runs)
        if reason:
            self._tell(c, runs, tests_from, reason)
            return
        record = self._record(c, gj, failing, tests_from, g_rate, b_rate)
        bugged_sb3 = c.sb3
        writer.write_task(self.library, c.task_id, self.entry, bugged_sb3, record, derived)
        self.out.kept += 1
        self.out.records[c.task_id] = record
        self._tell(c, runs, tests_from, "")
        self.progress(self.entry.task.id, f"kept {c.task_id} ({c.mechanism})")

    def _tell(self, c: _Candidate, runs: list[EvalResult], tests_from: str, reason: str) -> None:
        """Reject `c` for `reason` (kept when empty) and tell `on_verdict`."""
        if reason:
            self.out.reject(reason)
        m = c.mutant
        self.on_verdict(
            Verdict(
                golden=self.entry.task.id,
                task_id=c.task_id,
                mechanism=c.mechanism,
                operator=m.operator,
                description=m.description,
                reruns=tuple(bool(r.success) for r in runs),
                tests_from=tests_from,
                kept=not reason,
                reason=reason,
                sb3=c.sb3,
            )
        )

    async def _confirmed(
        self, c: _Candidate, golden_bytes: bytes, derived: str | None, runs: list[EvalResult]
    ) -> str:
        """Step 6: golden and bugged on the fresh seeds, under the golden's own script (the
        golden's runs made once per golden) or the `derived` one, still tell them apart, and
        every other test gives the bugged program the same verdict in all its runs (`runs` and
        the fresh ones), as `studio check` asks of a task's initial program. The reason to reject,
        or '' when confirmed."""
        opts, t0 = self.opts, time.perf_counter()
        bugged_subject = Subject(c.sb3, f"{c.mutant.id}.sb3", self.fresh, c.mutant.id)
        try:
            if derived is None:
                if self._golden_fresh is None:
                    golden_subject = Subject(golden_bytes, "golden.sb3", self.fresh, "golden")
                    (self._golden_fresh,) = await run_gated(self._eval, [golden_subject], self.gate)
                (bugged,) = await run_gated(self._eval, [bugged_subject], self.gate)
                golden = self._golden_fresh
            else:
                with tempfile.TemporaryDirectory(prefix="studio-forge-") as tmp:
                    _, ev = self._scratch(Path(tmp), golden_bytes, c.sb3, derived)
                    golden, bugged = await run_gated(
                        ev,
                        [Subject(golden_bytes, "golden.sb3", self.fresh), bugged_subject],
                        self.gate,
                    )
        finally:
            self.out.spent("confirm", time.perf_counter() - t0)
        caught = rates.failing_tests(golden, bugged, opts.theta_pass, opts.theta_fail)
        if not (
            rates.pass_rate(golden) >= opts.theta_pass
            and rates.pass_rate(bugged) <= opts.theta_fail
            and caught
        ):
            return "not caught on fresh seeds"
        telling = {f.name for f in caught}  # their passes are θ_fail's to allow
        if any(f.test not in telling for f in flaky_tests([*runs, *bugged], "initial")):
            return "a test's verdict differs between reruns"
        return ""

    def _scratch(
        self, folder: Path, golden_bytes: bytes, bugged: bytes, script: str | None = None
    ) -> tuple[TaskFolder, Callable[[bytes | Path, str, int], Awaitable[EvalResult]]]:
        """A debug task golden → `bugged` in `folder` (with `script` as its evaluate.js when
        given), and a function evaluating a project of it on the virtual clock."""
        task = self.entry.task.model_copy(deep=True)
        task.category = Category.DEBUG
        task.initial_project, task.golden_project = "initial.sb3", "golden.sb3"
        task.evaluation.script, task.evaluation.helper_library = "evaluate.js", None
        task.evaluation.convention = Convention.STUDIO  # as propose runs its scripts
        atomic.write_bytes(folder / "golden.sb3", golden_bytes)
        atomic.write_bytes(folder / "initial.sb3", bugged)
        atomic.write_text(folder / TASK_FILE, task.model_dump_json())
        if script is not None:
            atomic.write_text(folder / "evaluate.js", script)
        entry = TaskFolder(task, folder)
        return entry, self._evaluating(entry, Clock.VIRTUAL)

    async def _derive(
        self, c: _Candidate, golden_bytes: bytes
    ) -> tuple[str, list[FailingTest], list[EvalResult], float, float] | None:
        """Tests derived from behaviour that catch `c` under the R/θ rule, or None."""
        opts = self.opts
        with tempfile.TemporaryDirectory(prefix="studio-forge-") as tmp:
            folder = Path(tmp)
            tmp_entry, ev = self._scratch(folder, golden_bytes, c.sb3)
            popts = ProposeOptions(
                mutants=0, seed=opts.seed, reruns=len(self.seeds), workers=opts.workers
            )
            try:
                # propose calls nothing but `evaluate`, which a cluster's evaluator has too
                report = await propose(cast(Evaluator, self.evaluator), tmp_entry, popts)
            except ProposalError:
                return None
            atomic.write_text(folder / "evaluate.js", report.script)
            # propose kept only tests that pass the golden on these same R seeds
            (bugged,) = await run_gated(ev, [Subject(c.sb3, "initial.sb3", self.seeds)], self.gate)
        if rates.pass_rate(bugged) > opts.theta_fail:
            return None
        b = rates.test_rates(bugged)
        failing = [
            FailingTest(
                name=p.words,
                golden_pass_rate=1.0,
                bugged_pass_rate=b.get(p.words, 0.0),
                message=rates.failure_message(bugged, p.words),
            )
            for p in report.kept
            if b.get(p.words, 0.0) <= opts.theta_fail
        ]
        return (report.script, failing, bugged, 1.0, rates.pass_rate(bugged)) if failing else None

    def _record(
        self,
        c: _Candidate,
        gj: dict,
        failing: list[FailingTest],
        tests_from: str,
        g_rate: float,
        b_rate: float,
    ) -> BugRecord:
        m = c.mutant
        site_ids = [m.block_id] + [
            str(e["block_id"])
            for e in c.inverse
            if e.get("sprite") == m.sprite and e["block_id"] != m.block_id
        ]
        return BugRecord(
            golden_task=self.entry.task.id,
            mechanism=c.mechanism,
            operator=m.operator,
            description=m.description,
            site=Site(sprite=m.sprite, block_ids=site_ids),
            inverse_patch=c.inverse,
            failing_tests=failing,
            tests_from=tests_from,
            reruns=len(self.seeds),
            golden_pass_rate=g_rate,
            bugged_pass_rate=b_rate,
            report=bug_report(gj, m, failing),
        )


async def forge_golden(
    evaluator: Evaluates,
    entry: TaskFolder,
    library: Path,
    opts: ForgeOptions,
    progress: ProgressFn | None = None,
    on_verdict: VerdictFn | None = None,
    kept_in: Sequence[Path] = (),
) -> ForgeOutcome:
    """Forge debug tasks from `entry` into `library`; the outcome names an error, if any.
    `on_verdict` hears of every judged candidate (see the module doc); a task already in
    `library` or in one of `kept_in` counts as kept before and is not forged again."""
    t0 = time.perf_counter()
    writer.clean_leftovers(library)
    try:
        out = await _Forge(evaluator, entry, library, opts, progress, on_verdict, kept_in).run()
    except ProposalError as exc:
        out = ForgeOutcome(golden=entry.task.id, error=str(exc))
    out.seconds = time.perf_counter() - t0
    return out

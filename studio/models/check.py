"""The outcome of checking tasks: does the script pass the golden project, fail the initial
project, kill mutants of the golden project, and give the same verdicts on every rerun?"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, Field, computed_field

from studio.models.evaluation import EvalResult, Timings

__all__ = [
    "CheckReport", "CheckSummary", "FlakyTest", "MutantTrial", "PhaseTimes", "Survivor",
    "TaskCheck", "Verdict", "WeakScript",
]  # fmt: skip


class Verdict(StrEnum):
    VALID = "valid"  # golden passes, initial fails where it must, no unexplained survivor
    WEAK = "weak"  # valid, but some mutants survive that nobody marked equivalent
    FLAKY = "flaky"  # some test gives different verdicts across reruns
    INVALID = "invalid"  # golden fails, debug initial passes, or the task cannot be read


class Survivor(BaseModel):
    """A mutant the script did not kill."""

    id: str
    operator: str
    sprite: str = ""
    block_id: str
    description: str
    flaky: bool = False  # killed in some reruns only
    equivalent_reason: str | None = None  # the author's note when marked equivalent


class FlakyTest(BaseModel):
    """A test whose verdict changed between reruns of the same project."""

    project: str
    test: str
    passed_runs: int
    runs: int


class MutantTrial(BaseModel):
    """The verdicts of one mutant over the reruns."""

    id: str
    operator: str
    sprite: str = ""
    block_id: str
    description: str
    status: str  # killed | survived | flaky | invalid
    passes: list[bool] = Field(default_factory=list)
    note: str = ""


class PhaseTimes(BaseModel):
    """Mean seconds per evaluation in each phase (wall time; evaluations overlap), and the
    script phase in parts (means over every evaluation; 0 for real-clock ones, which are not
    profiled): see studio.models.evaluation.ScriptProfile."""

    page_ready_s: float = 0.0  # loading a page, mostly ahead of need
    page_wait_s: float = 0.0  # waiting for a loaded page
    project_load_s: float = 0.0
    script_s: float = 0.0
    total_s: float = 0.0
    release_s: float = 0.0  # the page putting back what the evaluation changed
    check_s: float = 0.0  # the post-run check of the page by the pool
    vm_steps: float = 0.0  # the VM's frames
    vm_step_s: float = 0.0
    vm_passes: float = 0.0  # the sequencer's passes over the threads
    vm_skipped: float = 0.0  # of them, fast-forwarded (every thread still waiting on time)
    draws: float = 0.0  # the stage drawn for real
    draw_s: float = 0.0
    timers: float = 0.0  # the helper library's and the script's timers fired
    timer_s: float = 0.0
    turns: float = 0.0  # page turns between timers (the script's own code runs there)
    turn_s: float = 0.0
    idle_s: float = 0.0

    @staticmethod
    def values(timings: Timings) -> dict[str, float]:
        """What one evaluation adds to each field of the means."""
        found = timings.model_dump(include=set(PhaseTimes.model_fields))
        if timings.profile is not None:
            found.update(timings.profile.model_dump(include=set(PhaseTimes.model_fields)))
        return {name: float(found.get(name) or 0.0) for name in PhaseTimes.model_fields}

    @staticmethod
    def mean(sums: dict[str, float], count: int) -> PhaseTimes:
        """The means of `sums` over `count` evaluations, to the millisecond."""
        return PhaseTimes(**{k: round(v / max(1, count), 3) for k, v in sums.items()})


class TaskCheck(BaseModel):
    """Verdict on one task folder."""

    id: str
    category: str | None = None
    folder: str
    golden_passed: bool | None = None
    initial_failed: bool | None = None
    ok: bool = False
    verdict: Verdict = Verdict.INVALID
    errors: list[str] = Field(default_factory=list)
    clock: str = "real"
    clock_note: str = ""
    reruns: int = 1
    mutants_total: int = 0
    mutants_killed: int = 0
    mutants_invalid: int = 0
    mutants_equivalent: int = 0
    survivors: list[Survivor] = Field(default_factory=list)
    flaky: list[FlakyTest] = Field(default_factory=list)
    mutants: list[MutantTrial] = Field(default_factory=list)
    golden: EvalResult | None = None
    initial: EvalResult | None = None
    seconds: float = 0.0
    phases: PhaseTimes | None = None  # mean seconds per evaluation of this task, by phase

    @computed_field  # type: ignore[prop-decorator]
    @property
    def kill_rate(self) -> float | None:
        """Share of the mutants that ran (not invalid) which the script killed."""
        ran = self.mutants_total - self.mutants_invalid
        return round(self.mutants_killed / ran, 4) if ran else None


class WeakScript(BaseModel):
    """A task whose script let mutants through, for the summary's list of weakest scripts."""

    id: str
    kill_rate: float
    mutants_killed: int
    mutants_ran: int
    survivors: int


class CheckSummary(BaseModel):
    tasks: int = 0
    ok: int = 0
    failed: int = 0
    evaluations: int = 0
    seconds: float = 0.0
    evaluations_per_minute: float = 0.0
    mutants_total: int = 0
    mutants_killed: int = 0
    kill_rate: float | None = None
    weakest: list[WeakScript] = Field(default_factory=list)  # lowest kill rates first
    phases: PhaseTimes = Field(default_factory=PhaseTimes)


class CheckReport(BaseModel):
    tasks: list[TaskCheck] = Field(default_factory=list)
    summary: CheckSummary = Field(default_factory=CheckSummary)

    @property
    def ok(self) -> bool:
        return bool(self.tasks) and all(t.ok for t in self.tasks)

"""The outcome of running an evaluation script against a project."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Clock", "ErrorKind", "EvalError", "EvalResult", "ScriptProfile", "TestDetail", "Timings",
]  # fmt: skip


class TestDetail(BaseModel):
    """One test of a script, in the ScratchWorld result shape."""

    __test__ = False  # not a pytest test class

    model_config = ConfigDict(extra="allow")

    name: str = ""
    passed: bool = False
    timeout: bool = False
    duration_ms: float | None = None
    error: str | None = None
    meta: dict[str, Any] | None = None


class ErrorKind(StrEnum):
    """Why an evaluation produced no verdict of the script's own."""

    PROJECT = "project"  # the .sb3 is broken or the VM refused it
    SYNTAX = "syntax"  # the script (or helper library) does not parse
    SCRIPT = "script"  # the script threw
    TIMEOUT = "timeout"  # the script did not finish in time
    RESULT = "result"  # the script returned something that is not a result
    CRASH = "crash"  # the browser page died
    STALLED = "stalled"  # the page stopped answering: the watchdog ended the run, page discarded
    SETUP = "setup"  # browser or bundle missing


class EvalError(BaseModel):
    kind: ErrorKind
    message: str
    file: str | None = None
    line: int | None = None


class ScriptProfile(BaseModel):
    """Where the script phase of a virtual-clock evaluation went (real seconds; counts).

    `vm_steps`/`vm_step_s`: the VM's frames and their time (drawing included), `vm_passes` the
    sequencer's passes over the threads within them; `draws`/`draw_s`:
    the stage drawn for real (only when something reads pixels: a snapshot, a touching-colour
    test, a draw the script asks for); `timers`/`timer_s`: the other timers fired (the helper
    library's sleeps and polls, the script's own timers); `turns`/`turn_s`: the page's turns
    between timers, where the script's and helper library's code runs once a timer resolved what
    it awaits; `idle_s`: real time waited while real work (a request, a decode) was under way.
    """

    vm_steps: int = 0
    vm_step_s: float = 0.0
    vm_passes: int = 0  # the sequencer's polls of its work timer (about one per pass)
    vm_skipped: int = 0  # of them, passes fast-forwarded (every thread still waiting on time)
    draws: int = 0
    draw_s: float = 0.0
    timers: int = 0
    timer_s: float = 0.0
    turns: int = 0
    turn_s: float = 0.0
    idle_s: float = 0.0


class Timings(BaseModel):
    """Seconds spent in each phase of one evaluation."""

    page_ready_s: float = 0.0  # loading the page (usually done ahead of need, as a spare)
    page_wait_s: float = 0.0  # how long the evaluation waited for its page
    project_load_s: float = 0.0
    script_s: float = 0.0
    total_s: float = 0.0
    program_s: float | None = None  # virtual time the program ran (accelerated runs only)
    release_s: float = 0.0  # the page putting back what the evaluation changed (in the page)
    check_s: float = 0.0  # the post-run check: the page proved clean (or closed) by the pool
    profile: ScriptProfile | None = None  # the script phase in parts (virtual clock only)


class Clock(StrEnum):
    """How time passes in the evaluation page."""

    VIRTUAL = "virtual"  # timers jump ahead: as fast as the CPU allows
    REAL = "real"  # wall-clock time, as in the published benchmark


class EvalResult(BaseModel):
    """What one evaluation produced; `error` is set when the script gave no verdict."""

    task_id: str
    project: str
    clock: Clock = Clock.REAL
    seed: int = 0
    success: bool = False
    passed_tests: int = 0
    total_tests: int = 0
    partial_success_rate: float = 0.0
    details: list[TestDetail] = Field(default_factory=list)
    error: EvalError | None = None
    console: list[str] = Field(default_factory=list)
    timings: Timings = Field(default_factory=Timings)
    limit_s: float | None = None  # the whole-script time limit that applied
    limit_source: str = ""  # where that limit came from (task file, published convention, run)
    clock_hazards: list[str] = Field(default_factory=list)  # what the virtual clock cannot serve
    clock_note: str = ""  # why this clock was used when it is not the task's usual one

    @property
    def ok(self) -> bool:
        """True when every test passed and nothing went wrong."""
        return self.error is None and self.success

    def summary_line(self) -> str:
        if self.error is not None:
            where = f" ({self.error.file}{f':{self.error.line}' if self.error.line else ''})"
            return f"{self.task_id}: ERROR {self.error.kind.value}{where}: {self.error.message}"
        verdict = "PASS" if self.success else "FAIL"
        return (
            f"{self.task_id}: {verdict} {self.passed_tests}/{self.total_tests} tests "
            f"(PSR {self.partial_success_rate:.2f}) in {self.timings.total_s:.1f} s"
        )

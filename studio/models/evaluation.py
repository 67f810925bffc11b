"""The outcome of running an evaluation script against a project."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Clock", "ErrorKind", "EvalError", "EvalResult", "TestDetail", "Timings"]


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


class Timings(BaseModel):
    """Seconds spent in each phase of one evaluation."""

    page_ready_s: float = 0.0  # loading the page (usually done ahead of need, as a spare)
    page_wait_s: float = 0.0  # how long the evaluation waited for its page
    project_load_s: float = 0.0
    script_s: float = 0.0
    total_s: float = 0.0
    program_s: float | None = None  # virtual time the program ran (accelerated runs only)


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

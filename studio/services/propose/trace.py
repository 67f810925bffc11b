"""Running generated scripts on a task's programs: the trace recorder and candidate tests.

Both go through the studio's Evaluator like any evaluation script (a throwaway page, the virtual
clock, a seed), from a scratch task folder that holds only the generated script: the task's
own script is never read or touched. `traces_of` reads the recordings from the
result, or raises ProposalError naming the program when it does not load or the recorder
fails on it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from studio.models.evaluation import Clock, EvalResult
from studio.models.task import Convention
from studio.services.core.store import TaskFolder
from studio.services.propose import codegen
from studio.services.propose.model import ProposalError, TraceError, Traces, recording_from_json
from studio.services.propose.scenarios import Scenario
from studio.services.runtime.evaluator import Evaluates

__all__ = [
    "LIMIT_MARGIN_S", "SCRIPT_NAME", "ScriptRunner", "scratch_folder", "total_ms", "traces_of",
    "use_trace_script",
]  # fmt: skip

SCRIPT_NAME = "proposed.js"
LIMIT_MARGIN_S = 60.0


class ScriptRunner:
    """Evaluates a generated script on programs of one task, from a scratch folder."""

    def __init__(self, evaluator: Evaluates, entry: TaskFolder, folder: Path) -> None:
        self.evaluator = evaluator
        self.task = entry.task.model_copy(deep=True)
        self.task.evaluation.script = SCRIPT_NAME
        self.task.evaluation.helper_library = None
        self.task.evaluation.convention = Convention.STUDIO
        self.entry = TaskFolder(self.task, folder)
        self.limit_s = LIMIT_MARGIN_S

    def use(self, script: str, virtual_ms: int) -> None:
        """Evaluate `script` from now on; it plays about `virtual_ms` of scenarios."""
        (self.entry.folder / SCRIPT_NAME).write_text(script, encoding="utf-8")
        self.limit_s = virtual_ms / 1000 + LIMIT_MARGIN_S

    async def run(self, project: bytes | Path, name: str, seed: int) -> EvalResult:
        return await self.evaluator.evaluate(
            self.entry,
            project,
            project_name=name,
            timeout_s=self.limit_s,
            clock=Clock.VIRTUAL,
            seed=seed,
        )


def scratch_folder() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="studio-propose-")


def total_ms(scenarios: Sequence[Scenario]) -> int:
    return sum(s.duration for s in scenarios)


def traces_of(result: EvalResult, name: str) -> Traces:
    """Every scenario's recording of program `name`, read from the trace script's result."""
    if result.error is not None:
        where = f":{result.error.line}" if result.error.line else ""
        raise ProposalError(
            f"{name} does not run under the recorder ({result.error.kind.value} error"
            f"{where}): {result.error.message}"
        )
    meta = result.details[0].meta if result.details else None
    raw = (meta or {}).get("traces")
    if not isinstance(raw, dict):
        raise ProposalError(f"{name}: the recorder returned no recordings")
    try:
        return {str(sid): recording_from_json(rec, str(sid)) for sid, rec in raw.items()}
    except TraceError as exc:
        raise ProposalError(f"{name}: {exc}") from None


def use_trace_script(runner: ScriptRunner, scenarios: Sequence[Scenario]) -> None:
    runner.use(codegen.trace_script(scenarios), total_ms(scenarios))

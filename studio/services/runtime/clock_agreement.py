"""Which clock evaluates a task, and do virtual-clock and real-time evaluations agree?

A task evaluates on the virtual clock unless it asks for real time or something known about it
says the virtual clock would not give the real-time verdicts: a comparison of both clocks the
user asked for disagreed, or the script used what the virtual clock cannot serve (the page
names it). Those findings are cached, keyed by the bytes that decide them (projects, script,
helper library, time limit and our evaluation runtime), so any edit forgets them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from studio.models.evaluation import Clock, EvalResult
from studio.models.task import ClockPreference
from studio.services.core import atomic, paths
from studio.services.core.store import TaskFolder
from studio.services.runtime.evaluator import Evaluator

__all__ = [
    "RUNTIME_FILES", "Agreement", "AgreementCache", "clock_for", "compare_verdicts",
    "evaluate_on_chosen_clock", "fingerprint", "hazards_note", "verdicts",
]  # fmt: skip

RUNTIME_FILES = (
    "eval-runner.js",
    "virtual-clock.js",
    "real-work.js",
    "scratch-classes.js",
    "page-reuse.js",
    "asset-cache.js",
)


@dataclass(frozen=True)
class Agreement:
    agree: bool
    note: str = ""


def verdicts(result: EvalResult) -> tuple[object, ...]:
    """What must match between clocks: error kind, overall success and each test's verdict."""
    kind = result.error.kind.value if result.error else None
    return (kind, result.success, tuple((d.name, d.passed) for d in result.details))


def compare_verdicts(pairs: dict[str, tuple[EvalResult, EvalResult]]) -> Agreement:
    """Compare (real, virtual) results per project; say the first difference."""
    for label, (real, virtual) in pairs.items():
        if verdicts(real) == verdicts(virtual):
            continue
        return Agreement(False, f"on the {label} project, {_difference(real, virtual)}")
    return Agreement(True)


def _difference(real: EvalResult, virtual: EvalResult) -> str:
    if (real.error is None) != (virtual.error is None):
        which = "real" if real.error else "virtual"
        err = real.error or virtual.error
        assert err is not None
        return f"only the {which}-time run failed with {err.kind.value}: {err.message}"
    real_tests = {d.name: d.passed for d in real.details}
    for d in virtual.details:
        if real_tests.get(d.name) != d.passed:
            verdict = "passes" if d.passed else "fails"
            return f"test '{d.name}' {verdict} on the virtual clock only"
    return "the test lists differ"


class AgreementCache:
    """A small JSON file in the user's cache mapping a task fingerprint to an Agreement."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.cache_dir() / "clock-agreement.json"

    def _load(self) -> dict[str, dict[str, object]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return {}
        return data if isinstance(data, dict) else {}

    def lookup(self, entry: TaskFolder) -> Agreement | None:
        hit = self._load().get(fingerprint(entry))
        if not isinstance(hit, dict):
            return None
        return Agreement(bool(hit.get("agree")), str(hit.get("note", "")))

    def store(self, entry: TaskFolder, agreement: Agreement) -> None:
        data = self._load()
        data[fingerprint(entry)] = {
            "agree": agreement.agree,
            "note": agreement.note,
            "task": entry.task.id,
        }
        atomic.write_json(self.path, data)


def fingerprint(entry: TaskFolder) -> str:
    h = hashlib.sha256()
    files = [entry.initial_path, entry.script_path, entry.helper_path]
    if entry.golden_path is not None:
        files.append(entry.golden_path)
    files += [paths.JS_DIR / name for name in RUNTIME_FILES]
    for path in files:
        h.update(path.name.encode())
        h.update(path.read_bytes() if path.is_file() else b"-")
    h.update(repr(entry.task.evaluation.timeout_s).encode())
    h.update(json.dumps(entry.task.eval_config(), sort_keys=True).encode())
    return h.hexdigest()


def clock_for(entry: TaskFolder, realtime: bool, cache: AgreementCache | None) -> Clock:
    """The clock an evaluation of this task should use, without running a comparison."""
    preference = entry.task.evaluation.clock
    if realtime or preference is ClockPreference.REAL:
        return Clock.REAL
    if preference is ClockPreference.AUTO and cache is not None:
        known = cache.lookup(entry)
        if known is not None and not known.agree:
            return Clock.REAL
    return Clock.VIRTUAL


def hazards_note(hazards: list[str] | tuple[str, ...]) -> str:
    """Say what a script uses that the virtual clock cannot serve."""
    return f"the script uses {'; '.join(hazards)}, which the virtual clock cannot serve"


async def evaluate_on_chosen_clock(
    evaluator: Evaluator,
    entry: TaskFolder,
    project: bytes | Path | None = None,
    *,
    realtime: bool = False,
    cache: AgreementCache | None = None,
    project_name: str | None = None,
    timeout_s: float | None = None,
    seed: int = 0,
    script: str | None = None,
) -> EvalResult:
    """Evaluate on the clock `clock_for` picks; a virtual run whose script used what the
    virtual clock cannot serve is done again in real time, and the result says why. `script`:
    the text of the task's script to run instead of its file (unsaved edits)."""
    clock = clock_for(entry, realtime, cache)

    async def run(on: Clock) -> EvalResult:
        return await evaluator.evaluate(
            entry,
            project,
            project_name=project_name,
            timeout_s=timeout_s,
            clock=on,
            seed=seed,
            script=script,
        )

    result = await run(clock)
    auto = entry.task.evaluation.clock is ClockPreference.AUTO
    if clock is Clock.VIRTUAL and result.clock_hazards and auto:
        note = hazards_note(result.clock_hazards)
        if cache is not None:
            cache.store(entry, Agreement(False, note))
        result = await run(Clock.REAL)
        result.clock_note = f"fell back to real time: {note}"
    elif clock is Clock.REAL and auto and not realtime and cache is not None:
        known = cache.lookup(entry)
        result.clock_note = f"real time: {known.note}" if known else ""
    return result

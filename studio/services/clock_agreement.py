"""Do virtual-clock and real-time evaluations of a task agree? Measured once, then cached.

The comparison is keyed by the bytes that decide it (projects, script, helper library,
time limit and our evaluation runtime), so any edit makes the check run again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from studio.models.evaluation import Clock, EvalResult
from studio.models.task import ClockPreference
from studio.services import atomic, paths
from studio.services.store import TaskFolder

RUNTIME_FILES = ("eval-runner.js", "virtual-clock.js", "scratch-classes.js")


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

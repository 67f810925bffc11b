"""Semantic drift: how far a program's behaviour strays from the golden's, from 0 to 1.

Both programs are recorded under the same scenarios (the behaviour trace recorder,
`trace.py`). Per scenario, every signal either recording has (a variable, list, sprite pose,
costume, visibility or backdrop key of `Recording.changes`) is read at checkpoints every
`step_ms` from 0 to the scenario's last event (and at the end state): the value it last took
at or before that time, or nothing yet. A checkpoint's discrepancy is 0 when both values are
equal, |a - b| / max(|a|, |b|, 1) capped at 1 for two numbers, and 1 otherwise (different
texts, a value on one side only). What sprites say and the messages sent are one signal each,
compared as whole sequences (0 same, 1 different). Drift is the mean discrepancy over
signals, checkpoints and scenarios: 0 for identical behaviour, 1 as different as can be.
"""

from __future__ import annotations

from studio.services.propose.model import Recording, Traces, Value

__all__ = ["STEP_MS", "discrepancy", "recording_drift", "trace_drift"]

STEP_MS = 100
_NOTHING = object()


def discrepancy(a: Value | object, b: Value | object) -> float:
    """One checkpoint of one signal: 0 equal, relative difference of numbers, else 1."""
    if a == b:
        return 0.0
    if isinstance(a, float) and isinstance(b, float):
        return min(1.0, abs(a - b) / max(abs(a), abs(b), 1.0))
    return 1.0


def _at(series: list[tuple[int, Value]], t: int) -> Value | object:
    found: Value | object = _NOTHING
    for when, value in series:
        if when > t:
            break
        found = value
    return found


def _last_time(rec: Recording) -> int:
    times = [t for s in rec.changes.values() for t, _v in s]
    times += [t for t, _s, _x in rec.says] + [t for t, _m in rec.broadcasts]
    return max(times, default=0)


def recording_drift(golden: Recording, other: Recording, step_ms: int = STEP_MS) -> float:
    """The mean discrepancy of one scenario's two recordings."""
    keys = sorted(set(golden.changes) | set(other.changes) | set(golden.end) | set(other.end))
    end = max(_last_time(golden), _last_time(other))
    checkpoints = list(range(0, end + 1, max(1, step_ms)))
    total, count = 0.0, 0
    for key in keys:
        g, o = golden.series(key), other.series(key)
        for t in checkpoints:
            total += discrepancy(_at(g, t), _at(o, t))
            count += 1
        total += discrepancy(golden.end.get(key, _NOTHING), other.end.get(key, _NOTHING))
        count += 1
    for mine, theirs in (
        ([(s, x) for _t, s, x in golden.says], [(s, x) for _t, s, x in other.says]),
        (golden.messages(), other.messages()),
    ):
        total += 0.0 if mine == theirs else 1.0
        count += 1
    return total / count


def trace_drift(golden: Traces, other: Traces, step_ms: int = STEP_MS) -> float:
    """The mean over scenarios; a scenario recorded on one side only counts as 1."""
    scenarios = sorted(set(golden) | set(other))
    if not scenarios:
        return 0.0
    drifts = [
        recording_drift(golden[s], other[s], step_ms) if s in golden and s in other else 1.0
        for s in scenarios
    ]
    return sum(drifts) / len(drifts)

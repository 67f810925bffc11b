"""How many evaluation pages and evaluations at once suit this machine.

`machine_cores()` is the number of cores this process may run on (its CPU affinity, as
`os.sched_getaffinity` gives it, else `os.cpu_count()`), or the value of the environment
variable STUDIO_CORES when it is set to a positive whole number (a shared machine, a container
that reports its host's cores, a benchmark). An invalid STUDIO_CORES is an error that names it.

`default_spares()` is the evaluation pages a pool keeps loaded ahead: one per core (at least 2,
at most 8). `default_workers()` is the evaluations a check runs at once: one more than the
cores, so that while every core runs a script, the next evaluation's page is being handed out
and its project loaded (the overlap of issue 28: loading is mostly waiting on the browser's
other processes, which the extra evaluation fills).
"""

from __future__ import annotations

import os

from studio.models.errors import StudioError

__all__ = ["ENV", "default_spares", "default_workers", "machine_cores"]

ENV = "STUDIO_CORES"


def machine_cores() -> int:
    """Cores this process may use, or STUDIO_CORES when set."""
    given = os.environ.get(ENV, "").strip()
    if given:
        try:
            cores = int(given)
        except ValueError:
            cores = 0
        if cores < 1:
            raise StudioError(f"{ENV}={given!r}: the number of cores must be a positive integer")
        return cores
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_spares() -> int:
    """Evaluation pages worth keeping loaded ahead: one per core, between 2 and 8."""
    return max(2, min(8, machine_cores()))


def default_workers() -> int:
    """Evaluations a check runs at once: one per core and one loading while they run."""
    return machine_cores() + 1

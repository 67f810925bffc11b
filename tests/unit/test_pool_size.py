"""The pool and the check size themselves to the cores this process may use, overridable."""

from __future__ import annotations

import os

import pytest

from studio.models.errors import StudioError
from studio.services.runtime import pool_size


def test_cores_are_the_affinity_unless_studio_cores_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(pool_size.ENV, raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1, 2}, raising=False)
    assert pool_size.machine_cores() == 3
    assert pool_size.default_workers() == 4 and pool_size.default_spares() == 3
    monkeypatch.setenv(pool_size.ENV, "1")
    assert pool_size.machine_cores() == 1
    assert pool_size.default_workers() == 2 and pool_size.default_spares() == 2


def test_no_affinity_falls_back_to_the_cpu_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(pool_size.ENV, raising=False)
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 16)
    assert pool_size.machine_cores() == 16 and pool_size.default_spares() == 8


@pytest.mark.parametrize("value", ["0", "-2", "two"])
def test_a_bad_studio_cores_is_named(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(pool_size.ENV, value)
    with pytest.raises(StudioError, match="STUDIO_CORES"):
        pool_size.machine_cores()

"""Synthetic trajectories for the trajectory tests: tiny PNGs, run headers, steps (no Qt)."""

from __future__ import annotations

import struct
import zlib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from studio.models.agent import Element, EpisodeStatus, Mode, Observation, StepRecord
from studio.models.evaluation import EvalResult, TestDetail
from studio.models.trajectory import RunInfo, observation_name, screenshot_name

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def png(shade: int) -> bytes:
    """A valid 1x1 grey PNG; different shades give different bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    pixels = zlib.compress(bytes([0, shade % 256]))
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def result(task_id: str, outcomes: dict[str, bool]) -> EvalResult:
    details = [TestDetail(name=n, passed=p) for n, p in outcomes.items()]
    passed = sum(outcomes.values())
    return EvalResult(
        task_id=task_id,
        project="final.sb3",
        success=passed == len(outcomes),
        passed_tests=passed,
        total_tests=len(outcomes),
        partial_success_rate=passed / len(outcomes) if outcomes else 0.0,
        details=details,
    )


def run_info(task_id: str = "t1", mode: Mode = Mode.PRIMITIVE, **kw: Any) -> RunInfo:
    values: dict[str, Any] = {
        "episode_id": "e1",
        "task_id": task_id,
        "mode": mode,
        "agent": "scripted",
        "started_at": T0,
        "ended_at": T0 + timedelta(seconds=30),
        "status": EpisodeStatus.DONE,
    }
    values.update(kw)
    return RunInfo(**values)


def step(number: int, api: str = "click", /, *, ok: bool = True, **args: Any) -> StepRecord:
    """Step `number` doing `api` with `args` (a click at a point of its own by default)."""
    if api == "click" and not args:
        args = {"x": 10 * number, "y": 20}
    return StepRecord(
        index=number,
        at=T0 + timedelta(seconds=number),
        action={"api": api, "args": args},
        ok=ok,
        error=None if ok else "boom",
        duration_ms=250.0,
        screenshot=screenshot_name(number),
    )


def observation(index: int, elements: list[Element] | None = None, **kw: Any) -> Observation:
    return Observation(
        mode=kw.pop("mode", Mode.PRIMITIVE), step=index, elements=elements or [], **kw
    )


def write_trajectory(
    folder: Path,
    steps: list[StepRecord],
    shots: dict[int, bytes] | None = None,
    run: RunInfo | None = None,
    final_png: bytes | None = None,
    final_sb3: bytes | None = b"PK\x05\x06" + bytes(18),
    observations: dict[int, Observation] | None = None,
) -> Path:
    """Write a trajectory folder; `shots` maps step index -> PNG (default: a distinct PNG each)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "run.json").write_text((run or run_info()).model_dump_json(indent=2))
    lines = "".join(s.model_dump_json() + "\n" for s in steps)
    (folder / "steps.jsonl").write_text(lines)
    shots = {s.index: png(s.index) for s in steps} if shots is None else shots
    for index, data in shots.items():
        (folder / screenshot_name(index)).write_bytes(data)
    for index, obs in (observations or {}).items():
        text = obs.model_dump_json(exclude={"screenshot_png_b64"})
        (folder / observation_name(index)).write_text(text)
    if final_png is not None:
        (folder / "final.png").write_bytes(final_png)
    if final_sb3 is not None:
        (folder / "final.sb3").write_bytes(final_sb3)
    return folder

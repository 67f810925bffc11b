"""What the ScratchWorld routes answer, in the published shapes: the envelope of an action or
composite call (SCRATCHWORLD_API.md section 3), an evaluation (section 7), and an element of
elements_batch as the studio records it."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from studio.models.agent import Element
from studio.models.evaluation import EvalResult

__all__ = ["envelope", "failed_result", "published_result", "recorded_element"]


def _now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def envelope(
    session_id: str,
    api: str,
    requested: dict[str, Any],
    executed: dict[str, Any] | None,
    data: dict[str, Any] | None,
    error: tuple[str, str] | None,
    t0: float,
) -> dict[str, Any]:
    """The reply of an action or composite call (section 3)."""
    return {
        "success": error is None,
        "requested_action": {"api": api, "args": requested},
        "executed_action": {"api": api, "args": executed if executed is not None else requested},
        "data": data or {},
        "error": None if error is None else {"code": error[0], "message": error[1]},
        "meta": {
            "session_id": session_id,
            "timestamp": _now_iso(),
            "duration_ms": round((time.perf_counter() - t0) * 1000, 3),
        },
    }


def published_result(result: EvalResult) -> dict[str, Any]:
    """An evaluation as the published server answers it."""
    stdout = "\n".join(result.console)
    if result.error is not None:
        return failed_result(f"{result.error.kind.value}: {result.error.message}", result.console)
    return {
        "status": "success",
        "result": {
            "success": result.success,
            "passed_tests": result.passed_tests,
            "total_tests": result.total_tests,
            "partial_success_rate": result.partial_success_rate,
            "details": [d.model_dump(mode="json") for d in result.details],
        },
        "message": "",
        "evaluation_method": "browser",
        "stdout": stdout,
    }


def failed_result(error: str, console: list[str]) -> dict[str, Any]:
    return {
        "status": "failed",
        "error": error,
        "result": {},
        "evaluation_method": "browser",
        "stdout": "\n".join(console),
    }


def recorded_element(raw: dict[str, Any]) -> Element:
    pos = raw.get("position") or {}
    return Element(
        index=int(raw.get("index", 0)),
        type=str(raw.get("type", "")),
        text=str(raw.get("block_name") or raw.get("text") or "")[:200],
        x=float(pos.get("x", 0)),
        y=float(pos.get("y", 0)),
        w=float(pos.get("width", 0)),
        h=float(pos.get("height", 0)),
    )

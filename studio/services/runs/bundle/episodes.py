"""One recorded episode as the bundle's page needs it: its verdict, and each step with its
screenshot copied into the bundle and the action's marks in the screenshot's pixels.

The marks are those the run viewer draws (`studio.views.viewer.marks`), computed Qt-free from
`trajectories.geometry.action_point`: `click` / `double_click` (ring at the point, with the
mouse button), `drag` (press ring, release dot, arrow between), `scroll` (ring and an arrow
in the direction), and a `caption` (typed text, keys, composite calls, what could not be
resolved); `box` is the element under the first point, when the observation lists elements.
The page draws them in SVG over the copied screenshot, with a red frame on a failed step.

Screenshots go to `img/<episode>/<name>` inside the bundle (copied, so the folder is whole
on its own); a screenshot the trajectory names but that is missing stays missing, listed.
"""

from __future__ import annotations

import shutil
import struct
from pathlib import Path
from typing import Any

from studio.models.agent import Element
from studio.models.report import RunEntry
from studio.services.runs.trajectories.text import describe_action
from studio.services.runs.trajectories.view import StepView, TrajectoryView, load_view

__all__ = [
    "REASONING_CHARS", "SCREEN", "episode_data", "mark_for", "outcome", "png_size", "step_data",
]  # fmt: skip

SCREEN = (1280, 720)  # the benchmark screen, when a PNG's own size cannot be read
REASONING_CHARS = 4000
_KINDS = {"drag_and_drop": "drag"}


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR (the benchmark screen for anything else)."""
    try:
        with path.open("rb") as f:
            head = f.read(24)
    except OSError:
        return SCREEN
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return SCREEN
    w, h = struct.unpack(">II", head[16:24])
    return (w, h) if w and h else SCREEN


def outcome(entry: RunEntry) -> str:
    """`pass`, `fail` (the program failed a test) or `error` (no verdict of its own)."""
    if entry.error is not None:
        return "error"
    return "pass" if entry.success else "fail"


def mark_for(step: StepView) -> dict[str, Any]:
    """What to draw on the step's screenshot (see the module's docstring)."""
    obs = step.observation()
    geo = step.geometry()
    args = step.record.action.get("args") or {}
    args = args if isinstance(args, dict) else {}
    kind = _KINDS.get(geo.kind, geo.kind)
    mark: dict[str, Any] = {
        "kind": kind,
        "points": [[round(x, 1), round(y, 1)] for x, y in geo.points],
    }
    if kind in ("click", "double_click"):
        mark["button"] = str(args.get("button", "left"))
    elif kind == "scroll":
        mark["direction"] = geo.direction or "down"
        mark["text"] = f"scroll {geo.direction} ×{geo.amount:g}" if geo.amount else "scroll"
    elif kind != "drag":
        mark["kind"] = "caption"
        mark["text"] = describe_action(step.record.action)
    needed = 2 if kind == "drag" else 1
    if kind in ("click", "double_click", "drag", "scroll") and len(geo.points) < needed:
        mark = {"kind": "caption", "points": [], "text": f"{geo.kind}: {'; '.join(geo.unresolved)}"}
    if mark["points"] and obs is not None:
        hit = _hit(obs.elements, *geo.points[0])
        if hit is not None:
            mark["box"] = [hit.x, hit.y, hit.w, hit.h]
    return mark


def _hit(elements: list[Element], x: float, y: float) -> Element | None:
    inside = [e for e in elements if e.x <= x <= e.x + e.w and e.y <= y <= e.y + e.h]
    return min(inside, key=lambda e: e.w * e.h) if inside else None


def _copy(src: Path | None, out: Path, rel: str) -> str | None:
    if src is None:
        return None
    target = out / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        shutil.copyfile(src, target)
    except OSError:
        return None
    return rel


def step_data(step: StepView, out: Path, prefix: str) -> dict[str, Any]:
    """One step for the page, its screenshot copied to `out/prefix/...`."""
    record = step.record
    shot = step.screenshot
    image = _copy(shot, out, f"{prefix}/{shot.name}") if shot is not None else None
    size = png_size(shot) if shot is not None else SCREEN
    return {
        "index": record.index,
        "action": describe_action(record.action),
        "api": str(record.action.get("api", "")),
        "ok": record.ok,
        "error": record.error,
        "flags": sorted(step.flags),
        "missing": step.missing,
        "reasoning": record.reasoning[:REASONING_CHARS],
        "ms": round(record.duration_ms),
        "img": image,
        "w": size[0],
        "h": size[1],
        "mark": mark_for(step),
    }


def episode_data(entry: RunEntry, number: int, run: int, out: Path) -> dict[str, Any]:
    """An episode for the page: verdict and tests from the report's entry, steps from its
    folder (read as the run viewer reads it; a folder that cannot be read is a problem line)."""
    prefix = f"img/{number:05d}"
    data: dict[str, Any] = {
        "id": number,
        "run": run,
        "task": entry.task_id,
        "epoch": entry.epoch,
        "category": entry.category,
        "agent": entry.agent,
        "mode": entry.mode,
        "outcome": outcome(entry),
        "psr": entry.psr,
        "passed": entry.passed_tests,
        "total": entry.total_tests,
        "seconds": entry.seconds,
        "status": entry.status,
        "error": entry.error,
        "folder": entry.folder,
        "steps": [],
        "tests": [],
        "final": None,
        "problems": [],
    }
    try:
        view = load_view(Path(entry.folder))
    except Exception as exc:  # a folder gone or unreadable: the episode still shows its verdict
        data["problems"].append(f"{entry.folder}: {exc}")
        return data
    _fill(data, view, out, prefix)
    return data


def _fill(data: dict[str, Any], view: TrajectoryView, out: Path, prefix: str) -> None:
    data["steps"] = [step_data(step, out, prefix) for step in view.steps]
    data["final"] = _copy(view.final_png, out, f"{prefix}/final.png")
    if view.run is not None and view.run.eval is not None:
        data["tests"] = [
            {"name": d.name, "passed": d.passed, "error": d.error} for d in view.run.eval.details
        ]
    data["problems"] = list(dict.fromkeys(view.problems + view.missing))

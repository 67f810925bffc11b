"""scratch-blocks' snapping replayed over the mouse steps of one drag.

A trial drag moves the mouse from the start to the end in `DRAG_STEPS` equal steps (as an
agent's drag in primitive mode does). At every step Blockly looks for the closest compatible
connection of the workspace within the snap radius of a connection of the dragged block (the
larger connecting radius while a candidate is shown); it keeps the current candidate unless
the new one is more than `preference` closer; the drop connects to the last candidate. While
a candidate is shown at a statement connection an insertion marker sits there and pushes the
blocks below it in its script down by the marker's height.

`snap` is what `window.studioDrag.snapTargets(spec)` returns (screen px): the dragged
connections with their targets `[x, y, aim, id]`, `pushes` by target id, and the radii.

The replay predicts the end region (`simulate_drop`), and it tells which mouse steps of a
trial cannot change what the drop does (`needed_steps`): a step after which Blockly shows the
candidate it showed before, with room to spare for a snapshot that is off by a few px, leaves
the drag's state as it was, so the real drag may leave it out and go straight to the next.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "DRAG_STEPS", "PUBLISHED_DRAG_STEPS", "REACH_MARGIN_PX", "Candidate", "Point", "Step",
    "drop_candidate", "needed_steps", "replay", "simulate_drop",
]  # fmt: skip

DRAG_STEPS = 10
PUBLISHED_DRAG_STEPS = 15  # the published runner's drag_and_drop: max(10, int(0.5 s * 30))
REACH_MARGIN_PX = 24.0  # slack for a snapshot of the connections that is off by a few px

Point = tuple[int, int]
Candidate = tuple[int, int]  # (dragged connection, target) indices


def _pushed(snap: dict[str, Any], cand: Candidate | None) -> tuple[float, set[int]]:
    """How far down, and which targets (by id), the candidate's insertion marker moves."""
    if cand is None:
        return 0.0, set()
    target = snap["connections"][cand[0]]["targets"][cand[1]]
    push = snap.get("pushes", {}).get(str(target[3])) if len(target) > 3 else None
    return (float(push[0]), set(push[1])) if push else (0.0, set())


@dataclass(frozen=True)
class Step:
    """Blockly's drag state after one mouse step, as the replay has it."""

    candidate: Candidate | None
    robust: bool  # the same candidate if every distance were off by up to the margin
    clear: bool  # no target within the connecting radius + margin, with or without markers


def _shifts(snap: dict[str, Any]) -> dict[int, set[float]]:
    """For each target id that some insertion marker moves: the ways down it may be moved."""
    out: dict[int, set[float]] = {}
    for push, ids in snap.get("pushes", {}).values():
        for i in ids:
            out.setdefault(int(i), {0.0}).add(float(push))
    return out


def _decide(
    snap: dict[str, Any],
    cand: Candidate | None,
    move: tuple[float, float],
    margin: float,
    shifts: dict[int, set[float]],
) -> Step:
    """One mouse step, the block moved by `move` from where the press took it."""
    conns = snap["connections"]
    radius = snap["connecting"] if cand else snap["snap"]
    reach = snap["connecting"] + margin
    dy, moved = _pushed(snap, cand)
    dists: list[tuple[float, Candidate]] = []
    clear = True
    for di, d in enumerate(conns):
        px, py = d["x"] + move[0], d["y"] + move[1]
        for ti, target in enumerate(d["targets"]):
            tid = target[3] if len(target) > 3 else None
            ty = target[1] + (dy if tid in moved else 0.0)
            dists.append((math.hypot(px - target[0], py - ty), (di, ti)))
            if clear:
                ways = shifts.get(tid, {0.0}) if tid is not None else {0.0}
                clear = all(math.hypot(px - target[0], py - target[1] - w) > reach for w in ways)
    within = [(dist, k) for dist, k in dists if dist < radius]
    if not within:
        return Step(None, all(dist > radius + margin for dist, _ in dists), clear)
    best_d, best = min(within)
    robust = best_d < radius - margin and all(
        dist > best_d + 2 * margin for dist, k in dists if k != best and dist < radius + margin
    )
    if cand is not None and best != cand:
        d = conns[cand[0]]
        tx, ty = d["targets"][cand[1]][:2]
        keep_at = math.hypot(d["x"] + move[0] - tx, d["y"] + move[1] - ty) - snap["preference"]
        robust = robust and abs(best_d - keep_at) > 2 * margin
        if best_d > keep_at:
            best = cand
    return Step(best, robust, clear)


def replay(
    snap: dict[str, Any],
    start: tuple[float, float],
    end: tuple[float, float],
    steps: int,
    only: Iterable[int] | None = None,
    margin: float = 0.0,
) -> Iterator[Step]:
    """Blockly's state after each mouse step (of `steps`, or just those in `only`)."""
    cand: Candidate | None = None
    shifts = _shifts(snap)
    dx, dy = end[0] - start[0], end[1] - start[1]
    for i in only if only is not None else range(1, steps + 1):
        step = _decide(snap, cand, (dx * i / steps, dy * i / steps), margin, shifts)
        cand = step.candidate
        yield step


def drop_candidate(
    snap: dict[str, Any],
    start: tuple[float, float],
    end: Point,
    steps: int = DRAG_STEPS,
    only: Iterable[int] | None = None,
) -> str | None:
    """What the drop start -> end connects to: "aim", "other" or None (nothing)."""
    cand: Candidate | None = None
    for step in replay(snap, start, end, steps, only):
        cand = step.candidate
    if cand is None:
        return None
    return "aim" if snap["connections"][cand[0]]["targets"][cand[1]][2] == 1 else "other"


def simulate_drop(
    snap: dict[str, Any], start: tuple[float, float], end: Point, steps: int = DRAG_STEPS
) -> bool:
    """Whether Blockly would make the intended connection for a drag start -> end."""
    return drop_candidate(snap, start, end, steps) == "aim"


def needed_steps(
    snap: dict[str, Any] | None,
    start: tuple[float, float],
    end: tuple[float, float],
    steps: int = DRAG_STEPS,
    margin: float = REACH_MARGIN_PX,
) -> tuple[int, ...]:
    """The mouse steps (1..steps) a real drag start -> end must make to do what all do.

    A step may be left out when it leaves Blockly's state (the candidate) as it was: the
    replay has the same candidate before and after it, and that would hold with every
    distance off by up to `margin` px (`Step.robust`), and the state before it is certain:
    since the press, or since the last step at which no target was within the connecting
    radius + `margin` (Blockly shows no candidate after such a step, whatever it showed),
    every step was robust. The last step is always made. Without a snapshot, every step.
    """
    if not snap or not snap.get("connections"):
        return tuple(range(1, steps + 1))
    kept: list[int] = []
    state: Candidate | None = None
    certain = True  # the real state before this step is the replay's
    for i, step in enumerate(replay(snap, start, end, steps, margin=margin), start=1):
        if not (certain and step.robust and step.candidate == state) or i == steps:
            kept.append(i)
        certain = step.clear or (certain and step.robust)
        state = step.candidate
    return tuple(kept)

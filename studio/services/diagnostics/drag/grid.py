"""Grid points and the boundary scan that turns a predicted region into a verified one.

Points are screen pixels on a grid of `step` px (the seed paper uses 5). A region is a set of
grid points. `BoundaryScan` starts from a predicted region and asks for real drags only where
the evidence rule needs them: along each scan line (rows or columns, whichever are fewer) every
maximal run of points must have both end points verified inside and both outside neighbours
verified outside; the points between two verified ends of one run are then implied. Lines just
beyond the region's extreme lines are sampled, so that a region larger than predicted grows.
A verdict that contradicts the prediction moves the run end and asks again, so a poor
prediction costs drags but never a wrong point.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "MAX_ROUNDS", "Axis", "BoundaryScan", "Point", "bbox", "best_axis", "brush", "disc", "distance",
    "inside", "iou", "runs", "snap", "window_points",
]  # fmt: skip

Point = tuple[int, int]
Axis = Literal["row", "col"]
MAX_ROUNDS = 400


def snap(value: float, step: int) -> int:
    """The grid coordinate nearest to `value`."""
    return int(round(value / step) * step)


def window_points(x0: float, y0: float, x1: float, y1: float, step: int) -> list[Point]:
    """Every grid point inside the rectangle [x0, x1] x [y0, y1]."""
    xs = range(math.ceil(x0 / step) * step, math.floor(x1 / step) * step + 1, step)
    ys = range(math.ceil(y0 / step) * step, math.floor(y1 / step) * step + 1, step)
    return [(x, y) for y in ys for x in xs]


def bbox(points: Iterable[Point]) -> tuple[int, int, int, int] | None:
    pts = list(points)
    if not pts:
        return None
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def iou(a: Iterable[Point], b: Iterable[Point]) -> float:
    """Intersection over union of two point sets (1.0 when both are empty)."""
    sa, sb = set(map(tuple, a)), set(map(tuple, b))
    union = sa | sb
    return len(sa & sb) / len(union) if union else 1.0


def inside(point: tuple[float, float], region: Iterable[Point], step: int) -> bool:
    """Whether `point` lies within half a grid step of a point of `region` (FORMATS.md 5)."""
    half = step / 2
    return any(abs(point[0] - x) <= half and abs(point[1] - y) <= half for x, y in region)


def distance(point: tuple[float, float], region: Iterable[Point]) -> float | None:
    """Euclidean distance from `point` to the nearest point of `region` (None if empty)."""
    best: float | None = None
    for x, y in region:
        d = math.hypot(point[0] - x, point[1] - y)
        if best is None or d < best:
            best = d
    return best


def brush(
    region: Iterable[Point], centre: tuple[float, float], radius: float, step: int, add: bool
) -> set[Point]:
    """A labeler's brush stroke: add or erase the grid points within `radius` of `centre`."""
    out = set(map(tuple, region))
    r = max(radius, 0.0)
    for pt in window_points(centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r, step):
        if math.hypot(pt[0] - centre[0], pt[1] - centre[1]) <= r:
            if add:
                out.add(pt)
            else:
                out.discard(pt)
    return out  # type: ignore[return-value]


def disc(centre: tuple[float, float], radius: float, step: int) -> set[Point]:
    return brush((), centre, radius, step, add=True)


def runs(line: list[int], step: int) -> list[tuple[int, int]]:
    """Maximal runs of consecutive grid coordinates: [(first, last), ...]."""
    out: list[tuple[int, int]] = []
    for v in sorted(line):
        if out and v == out[-1][1] + step:
            out[-1] = (out[-1][0], v)
        else:
            out.append((v, v))
    return out


def best_axis(points: Iterable[Point]) -> Axis:
    """Scan along rows when the region is wider than tall (fewer lines), else along columns."""
    box = bbox(points)
    if box is None:
        return "row"
    return "row" if box[2] - box[0] >= box[3] - box[1] else "col"


@dataclass
class BoundaryScan:
    """Verify a predicted region with as few real drags as the evidence rule allows.

    Use: `while not scan.done: verdicts = drag(scan.needed()); scan.record(...)`.
    `verified` maps every dragged point to its verdict (it is the resumable state).
    """

    predicted: set[Point]
    step: int
    axis: Axis = "row"
    verified: dict[Point, bool] = field(default_factory=dict)
    bounds: tuple[int, int, int, int] | None = None  # points outside are never dragged
    sample_every: int = 3  # beyond the extreme lines, check every n-th point
    interior_every: int = 4  # verify the middle of every n-th line's runs too
    candidate: set[Point] = field(init=False)
    rounds: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.candidate = {p for p in self.predicted if self._allowed(p)}

    # ---- coordinates along / across the scan line --------------------------------------
    def _key(self, p: Point) -> tuple[int, int]:
        return (p[1], p[0]) if self.axis == "row" else (p[0], p[1])  # (line, position)

    def _pt(self, line: int, pos: int) -> Point:
        return (pos, line) if self.axis == "row" else (line, pos)

    def _allowed(self, p: Point) -> bool:
        if self.bounds is None:
            return True
        x0, y0, x1, y1 = self.bounds
        return x0 <= p[0] <= x1 and y0 <= p[1] <= y1

    def _lines(self) -> dict[int, list[int]]:
        lines: dict[int, list[int]] = {}
        for p in self.candidate:
            line, pos = self._key(p)
            lines.setdefault(line, []).append(pos)
        return lines

    # ---- the rule ------------------------------------------------------------------------
    def _settle(self) -> list[Point]:
        """Apply known verdicts to the candidate until stable; return the points to drag."""
        s = self.step
        for _ in range(MAX_ROUNDS):
            need: list[Point] = []
            changed = False
            lines = self._lines()
            for line, positions in lines.items():
                line_runs = runs(positions, s)
                for a, b in line_runs:
                    for end, outer in ((a, a - s), (b, b + s)):
                        p, q = self._pt(line, end), self._pt(line, outer)
                        v = self.verified.get(p)
                        if v is False:
                            self.candidate.discard(p)
                            changed = True
                        elif v is None:
                            need.append(p)
                        if self._allowed(q) and q not in self.candidate:
                            w = self.verified.get(q)
                            if w is True:
                                self.candidate.add(q)
                                changed = True
                            elif w is None:
                                need.append(q)
                    if self.interior_every and (line // s) % self.interior_every == 0:
                        mid = self._pt(line, a + ((b - a) // (2 * s)) * s)
                        v = self.verified.get(mid)
                        if v is None:
                            need.append(mid)
                        elif v is False and a != b:
                            self.candidate.discard(mid)  # a hole: the line splits in two runs
                            changed = True
            changed |= self._grow_across(lines, need)
            if not changed:
                return sorted(set(need))
        raise RuntimeError("region scan did not settle")

    def _grow_across(self, lines: dict[int, list[int]], need: list[Point]) -> bool:
        """Sample the lines just beyond the first and last line; add verified points."""
        if not lines:
            return False
        changed = False
        first, last = min(lines), max(lines)
        for line, beyond in ((first, first - self.step), (last, last + self.step)):
            for i, pos in enumerate(sorted(lines[line])):
                q = self._pt(beyond, pos)
                if not self._allowed(q):
                    continue
                w = self.verified.get(q)
                if w is True:
                    self.candidate.add(q)
                    changed = True
                elif w is None and i % self.sample_every == 0:
                    need.append(q)
        return changed

    def needed(self) -> list[Point]:
        """Points whose verdict the rule needs next (empty when the scan is done)."""
        if not self.candidate:
            return []
        return [p for p in self._settle() if p not in self.verified]

    def record(self, verdicts: dict[Point, bool]) -> None:
        self.verified.update(verdicts)
        self.rounds += 1

    @property
    def done(self) -> bool:
        return not self.needed()

    def region(self) -> set[Point]:
        """The verified region: points dragged inside plus points implied between them."""
        self._settle()
        return set(self.candidate)

    def evidence(self) -> dict[str, int]:
        region = self.region()
        dragged = sum(1 for p in region if self.verified.get(p) is True)
        return {"points": len(region), "dragged_inside": dragged, "implied": len(region) - dragged}

"""A counterbalanced design: which tasks each participant gets, and in which order.

Given the study's tasks (each with a category), P participants and K tasks per participant:

1. The tasks are put in one *sequence* that interleaves the categories round robin (the order
   of the categories and of the tasks within each category drawn from the seed), so any K
   consecutive tasks of it span the categories as evenly as their sizes allow.
2. Participant p gets the K tasks of the sequence starting at p*K (cyclically): the windows
   tile the sequence, so every task is given to floor(P*K/T) or ceil(P*K/T) participants.
3. The K tasks are ordered by a row of a Williams Latin square of size K (each task comes
   at each position, and after each other task, equally often over the square's rows; for
   odd K the square is doubled with its mirror rows); the participants who share a window
   get the square's rows one after the other, in an order drawn from the seed, so with enough
   participants every window's tasks take every position equally often.

The same tasks, P, K and seed give the same design (`Design.queues`), and the design keeps
what was drawn (`sequence`, `rows`) and its balance (`per_task`, `per_position`) so a
reader can check it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from pydantic import BaseModel, Field

from studio.models.errors import StudioError

__all__ = ["METHOD", "Design", "draw_design", "williams_rows"]

METHOD = (
    "category-interleaved cyclic windows of the seeded task sequence; order within a queue "
    "by the rows of a Williams Latin square, rows dealt in a seeded order"
)


class Design(BaseModel):
    """What `draw_design` drew and how balanced it came out."""

    method: str = METHOD
    seed: int
    tasks_per_participant: int
    sequence: list[str]
    rows: list[list[int]]
    queues: list[list[str]]
    per_task: dict[str, int] = Field(default_factory=dict)
    per_position: dict[str, list[int]] = Field(default_factory=dict)


def williams_rows(k: int) -> list[list[int]]:
    """The rows of a Williams Latin square of size k (2k rows for odd k, mirrors added)."""
    if k < 1:
        raise ValueError("a Latin square needs at least one column")
    first, low, high = [0], 1, k - 1
    while len(first) < k:
        first.append(low)
        low += 1
        if len(first) < k:
            first.append(high)
            high -= 1
    rows = [[(v + i) % k for v in first] for i in range(k)]
    if k % 2 == 1 and k > 1:
        rows += [list(reversed(r)) for r in rows]
    return rows


def draw_design(
    tasks: Sequence[tuple[str, str]], participants: int, per: int | None, seed: int
) -> Design:
    """Queues for `participants` over `tasks` [(id, category)], `per` tasks each (all by
    default); StudioError when the numbers cannot make a design."""
    ids = [t for t, _ in tasks]
    if not ids:
        raise StudioError("a study needs at least one task")
    if len(set(ids)) != len(ids):
        raise StudioError("the study's tasks must be distinct")
    if participants < 1:
        raise StudioError("a study needs at least one participant (--participants N)")
    k = len(ids) if per is None else per
    if not 1 <= k <= len(ids):
        raise StudioError(f"--tasks {k}: each participant can get 1 to {len(ids)} tasks")
    rng = random.Random(seed)
    by_category: dict[str, list[str]] = {}
    for task_id, category in tasks:
        by_category.setdefault(category, []).append(task_id)
    groups = [sorted(by_category[c]) for c in sorted(by_category)]
    rng.shuffle(groups)
    for group in groups:
        rng.shuffle(group)
    sequence: list[str] = []
    while any(groups):
        for group in groups:
            if group:
                sequence.append(group.pop(0))
    rows = williams_rows(k)
    dealt = list(range(len(rows)))
    rng.shuffle(dealt)
    windows = len(sequence) // math.gcd(len(sequence), k)  # distinct windows, in a cycle
    queues = []
    for p in range(participants):
        window = [sequence[(p * k + j) % len(sequence)] for j in range(k)]
        row = rows[dealt[(p // windows) % len(rows)]]
        queues.append([window[r] for r in row])
    per_task = {t: sum(q.count(t) for q in queues) for t in ids}
    per_position = {t: [sum(q[i] == t for q in queues) for i in range(k)] for t in ids}
    return Design(
        seed=seed,
        tasks_per_participant=k,
        sequence=sequence,
        rows=rows,
        queues=queues,
        per_task=per_task,
        per_position=per_position,
    )

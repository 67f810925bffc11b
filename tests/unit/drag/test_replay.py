"""Which mouse steps a trial drag may leave out, and insertion markers in the snap replay."""

from __future__ import annotations

import copy
import random
from typing import Any

from studio.services.diagnostics.drag.replay import (
    DRAG_STEPS,
    drop_candidate,
    needed_steps,
    simulate_drop,
)

SNAP, CONNECTING, PREFERENCE = 48 * 0.675, 68 * 0.675, 20 * 0.675


def snap(targets: list[list[float]], pushes: dict[str, Any] | None = None) -> dict[str, Any]:
    # one dragged connection at (100, 100) on screen; radii as in the bundle at zoom 0.675
    return {
        "connections": [{"x": 100.0, "y": 100.0, "targets": targets}],
        "pushes": pushes or {},
        "snap": SNAP,
        "connecting": CONNECTING,
        "preference": PREFERENCE,
    }


def test_steps_that_change_nothing_are_left_out_and_the_last_is_kept() -> None:
    s = snap([[500.0, 100.0, 1, 0]])
    # a 400 px drag onto the target, 40 px per step: the candidate appears at the last step
    assert needed_steps(s, (100, 100), (500, 100), margin=0) == (DRAG_STEPS,)
    # with room for a snapshot 24 px off, step 9 (40 px away) might show it already
    assert needed_steps(s, (100, 100), (500, 100), margin=24) == (9, 10)
    assert needed_steps(s, (100, 100), (100, 400)) == (DRAG_STEPS,)  # never near


def test_steps_that_change_the_candidate_are_kept() -> None:
    # the path passes over a target half way (step 5) and leaves it (step 7: 80 px away);
    # step 6 keeps the candidate of step 5, steps 8 and 9 keep none
    s = snap([[300.0, 100.0, 0, 0]])
    assert needed_steps(s, (100, 100), (500, 100), margin=0) == (5, 7, 10)
    assert drop_candidate(s, (100, 100), (500, 100), only=(5, 7, 10)) is None
    # with a 24 px margin: at step 4 (40 px away) the candidate might appear already, and
    # at step 6 (40 px) it is within 24 px of the connecting radius (45.9): both are made;
    # at step 7 (80 px) it is surely gone, and nothing is near after it
    assert needed_steps(s, (100, 100), (500, 100), margin=24) == (4, 5, 6, 7, 10)


def test_without_a_snapshot_every_step_is_made() -> None:
    assert needed_steps(None, (0, 0), (100, 100)) == tuple(range(1, DRAG_STEPS + 1))
    assert needed_steps({"connections": []}, (0, 0), (9, 9)) == tuple(range(1, 11))


def random_snap(rng: random.Random) -> dict[str, Any]:
    """Two dragged connections, a few targets (some close together), markers that push."""
    targets = [[rng.uniform(150, 450), rng.uniform(50, 400), int(i == 0), i] for i in range(8)]
    for t in targets[4:]:  # neighbours of other targets, as inputs of one block are
        other = targets[rng.randrange(4)]
        t[0], t[1] = other[0] + rng.uniform(-40, 40), other[1] + rng.uniform(-40, 40)
    conns = [
        {"x": 100.0, "y": 100.0, "targets": [t for t in targets if t[3] % 2 == 0]},
        {"x": 100.0, "y": 148.0, "targets": [t for t in targets if t[3] % 2 == 1]},
    ]
    pushes = {
        str(i): [32.4, [j for j in range(8) if j != i and rng.random() < 0.5]] for i in (0, 2)
    }
    return {
        "connections": conns,
        "pushes": pushes,
        "snap": SNAP,
        "connecting": CONNECTING,
        "preference": PREFERENCE,
    }


def nudged(s: dict[str, Any], rng: random.Random, by: float) -> dict[str, Any]:
    """The same snapshot with every target moved by up to `by` px each way."""
    out = copy.deepcopy(s)
    for d in out["connections"]:
        for t in d["targets"]:
            t[0] += rng.uniform(-by, by)
            t[1] += rng.uniform(-by, by)
    return out


def test_left_out_steps_never_change_the_drop() -> None:
    rng = random.Random(7)
    left_out = 0
    for _ in range(2000):
        s = random_snap(rng)
        start = (rng.randint(0, 200), rng.randint(0, 200))
        end = (rng.randint(50, 450), rng.randint(0, 350))
        kept = needed_steps(s, start, end, margin=0)
        left_out += DRAG_STEPS - len(kept)
        assert drop_candidate(s, start, end, only=kept) == drop_candidate(s, start, end)
    assert left_out > 2000  # the rule does leave steps out


def test_left_out_steps_change_nothing_when_the_snapshot_is_off_by_less_than_the_margin() -> None:
    # the editor's connections may be a few px from where the snapshot has them: steps
    # chosen on the snapshot with a margin still do in the editor what all ten steps do
    rng = random.Random(11)
    for _ in range(2000):
        s = random_snap(rng)
        start = (rng.randint(0, 200), rng.randint(0, 200))
        end = (rng.randint(50, 450), rng.randint(0, 350))
        kept = needed_steps(s, start, end, margin=12)
        real = nudged(s, rng, 12 / 1.5)  # at most 12 px off in distance
        assert drop_candidate(real, start, end, only=kept) == drop_candidate(real, start, end)


def test_an_insertion_marker_on_the_way_pushes_the_aim_down() -> None:
    # the block comes down onto the aim and passes the connection 32 px above it first;
    # while that is the candidate a marker there moves the aim 32 px lower, so at the last
    # step the aim is no closer than the candidate and the drop stays on the first one
    above, aim = [100.0, 268.0, 0, 0], [100.0, 300.0, 1, 1]
    start, end = (0, 0), (0, 200)  # the dragged connection goes (100, 100) -> (100, 300)
    assert simulate_drop(snap([above, aim]), start, end)  # no marker: the aim wins at the end
    pushed = snap([above, aim], {"0": [32.4, [1]]})
    assert not simulate_drop(pushed, start, end)
    assert drop_candidate(pushed, start, end) == "other"


def test_a_batch_of_drags_reports_each_one_as_it_finishes() -> None:
    """Issue 31, point 10: the progress moves with the drags, not only between batches."""
    import asyncio

    from studio.services.diagnostics.drag.page import TrialPages

    class _Page:
        async def trial(self, start: Any, end: Any, steps: int = 0) -> str:
            await asyncio.sleep(0)
            return f"{start}->{end}"

    # pages without an editor: nothing to hold painting on (test_trial_paint)
    pages = TrialPages(None, None, None, 2, painted=True)  # type: ignore[arg-type]
    pages.pages = [_Page(), _Page()]  # type: ignore[list-item]
    told: list[int] = []
    jobs = [((i, 0), (0, i)) for i in range(5)]
    verdicts = asyncio.run(pages.run(jobs, told.append))  # type: ignore[arg-type]
    assert told == [1, 2, 3, 4, 5]
    assert verdicts == [f"{s}->{e}" for s, e in jobs]

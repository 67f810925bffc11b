"""The browser's queue of editor work (episodes.editor_work): bounded, round robin by owner,
and a slow piece of work never starves the others (fakes: no browser)."""

from __future__ import annotations

import asyncio

import pytest

from studio.services.episodes.editor_work import EditorWork


async def _piece(work: EditorWork, owner: str, log: list[str], done: asyncio.Event) -> None:
    async with work.turn(owner):
        log.append(owner)
        await done.wait()


def test_at_most_limit_pieces_run_at_once() -> None:
    async def main() -> None:
        work = EditorWork(limit=2)
        release = asyncio.Event()
        log: list[str] = []
        pieces = [asyncio.create_task(_piece(work, f"e{i}", log, release)) for i in range(6)]
        await asyncio.sleep(0)
        assert work.running == 2 and work.waiting == 4 and log == ["e0", "e1"]
        release.set()
        await asyncio.gather(*pieces)
        assert (
            work.most_running == 2
            and work.running == 0
            and sorted(log) == sorted(f"e{i}" for i in range(6))
        )

    asyncio.run(main())


def test_a_slow_piece_holds_one_place_and_the_others_go_on() -> None:
    """One episode's observation that never ends (a huge program) must not stop the others:
    with two places, the other episodes' many short steps all finish beside it."""

    async def main() -> None:
        work = EditorWork(limit=2)
        stuck = asyncio.Event()
        slow = asyncio.create_task(_piece(work, "slow", [], stuck))
        await asyncio.sleep(0)
        finished: list[str] = []

        async def agent(name: str) -> None:
            for _ in range(5):
                async with work.turn(name):
                    await asyncio.sleep(0)
            finished.append(name)

        await asyncio.wait_for(asyncio.gather(*(agent(f"a{i}") for i in range(4))), 5)
        assert sorted(finished) == ["a0", "a1", "a2", "a3"] and not slow.done()
        stuck.set()
        await slow

    asyncio.run(main())


def test_places_go_round_robin_by_owner() -> None:
    """An owner with three pieces waiting gets one turn, then each other owner gets one."""

    async def main() -> None:
        work = EditorWork(limit=1)
        gate = asyncio.Event()
        holder = asyncio.create_task(_piece(work, "holder", [], gate))
        await asyncio.sleep(0)
        order: list[str] = []

        async def one(owner: str) -> None:
            async with work.turn(owner):
                order.append(owner)

        waiting = [asyncio.create_task(one("busy")) for _ in range(3)]
        await asyncio.sleep(0)
        waiting += [asyncio.create_task(one(name)) for name in ("b", "c")]
        await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(holder, *waiting)
        assert order == ["busy", "b", "c", "busy", "busy"]

    asyncio.run(main())


def test_new_work_queues_behind_waiting_work() -> None:
    async def main() -> None:
        work = EditorWork(limit=1)
        gate = asyncio.Event()
        order: list[str] = []
        holder = asyncio.create_task(_piece(work, "h", order, gate))
        await asyncio.sleep(0)
        first = asyncio.create_task(_piece(work, "first", order, asyncio.Event()))
        await asyncio.sleep(0)
        gate.set()  # the holder gives its place back ...
        late = asyncio.create_task(_piece(work, "late", order, asyncio.Event()))
        await holder  # ... to the piece that waited, not to the one that came just now
        await asyncio.sleep(0)
        assert order == ["h", "first"] and work.waiting == 1
        for task in (first, late):
            task.cancel()
        await asyncio.gather(first, late, return_exceptions=True)

    asyncio.run(main())


@pytest.mark.parametrize("when", ["waiting", "given"])
def test_a_cancelled_piece_passes_its_place_on(when: str) -> None:
    """A request whose client went away: cancelled while it waits, or just after its place
    was handed to it (before it ran), the next waiter still gets the place."""

    async def main() -> None:
        work = EditorWork(limit=1)
        log: list[str] = []
        holding = work.turn("h")
        await holding.__aenter__()
        gone = asyncio.create_task(_piece(work, "gone", log, asyncio.Event()))
        after = asyncio.create_task(_piece(work, "after", log, asyncio.Event()))
        await asyncio.sleep(0)
        assert work.waiting == 2
        if when == "waiting":
            gone.cancel()
            await asyncio.gather(gone, return_exceptions=True)
            await holding.__aexit__(None, None, None)
        else:
            await holding.__aexit__(None, None, None)  # the place goes to `gone` ...
            gone.cancel()  # ... cancelled before it runs
            await asyncio.gather(gone, return_exceptions=True)
        await asyncio.sleep(0)
        assert log == ["after"] and work.running == 1 and work.waiting == 0
        after.cancel()
        await asyncio.gather(after, return_exceptions=True)
        assert work.running == 0

    asyncio.run(main())

"""The gate in front of a live episode's actions: pause, step, resume, stop, delay."""

from __future__ import annotations

import asyncio

import pytest

from studio.services.episodes.live.controls import RunControls, RunState, StoppedError

ACTION = {"api": "click", "args": {"x": 1, "y": 2}}


async def _passes(controls: RunControls, within_s: float = 0.2) -> bool:
    """True when an action gets through the gate within `within_s` (it is left waiting else)."""
    task = asyncio.ensure_future(controls.gate(ACTION))
    done, _ = await asyncio.wait({task}, timeout=within_s)
    if not done:
        task.cancel()
        return False
    task.result()
    return True


async def _held(controls: RunControls) -> asyncio.Future[None]:
    """An action sent to the gate, once the gate shows it as waiting."""
    held = asyncio.Event()
    controls.on_change.append(lambda c: held.set() if c.pending is not None else None)
    task = asyncio.ensure_future(controls.gate(ACTION))
    await asyncio.wait_for(held.wait(), 1)
    return task


def test_running_controls_let_actions_through() -> None:
    async def go() -> None:
        controls = RunControls()
        assert await _passes(controls)
        assert controls.passed == 1 and controls.pending is None

    asyncio.run(go())


def test_paused_controls_hold_the_action_and_show_it_until_resumed() -> None:
    async def go() -> None:
        controls = RunControls(paused=True)
        task = await _held(controls)
        assert not task.done() and controls.pending == ACTION
        controls.resume()
        await asyncio.wait_for(task, 1)
        assert controls.state is RunState.RUNNING and controls.pending is None

    asyncio.run(go())


def test_step_lets_exactly_one_action_through_and_stays_paused() -> None:
    async def go() -> None:
        controls = RunControls(paused=True)
        controls.step()
        assert await _passes(controls)
        assert controls.state is RunState.PAUSED
        assert not await _passes(controls, 0.1)  # the next one waits again

    asyncio.run(go())


def test_step_on_a_running_run_pauses_it_after_one_action() -> None:
    async def go() -> None:
        controls = RunControls()
        controls.step()
        assert await _passes(controls)
        assert not await _passes(controls, 0.1)

    asyncio.run(go())


def test_stop_refuses_the_waiting_action_and_every_later_one() -> None:
    async def go() -> None:
        controls = RunControls(paused=True)
        task = await _held(controls)
        controls.stop()
        with pytest.raises(StoppedError):
            await asyncio.wait_for(task, 1)
        with pytest.raises(StoppedError):
            await controls.gate(ACTION)
        assert controls.passed == 0

    asyncio.run(go())


def test_the_delay_spaces_actions_from_the_end_of_the_previous_one() -> None:
    async def go() -> None:
        controls = RunControls(delay_s=0.3)
        assert await _passes(controls)
        controls.finished()
        assert not await _passes(controls, 0.1)  # too soon after the last action
        controls.set_delay(0)
        assert await _passes(controls)

    asyncio.run(go())


def test_listeners_hear_every_change() -> None:
    async def go() -> None:
        seen: list[str] = []
        controls = RunControls()
        controls.on_change.append(lambda c: seen.append(c.state.value))
        controls.pause()
        controls.resume()
        controls.stop()
        assert seen == ["paused", "running", "stopped"]

    asyncio.run(go())

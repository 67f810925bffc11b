"""Episode pages at rest between actions, and several agents at once (issue 39, point 4).

An episode page waiting for its agent does no VM steps, stage draws or animation frames
(resources/js/editor-rest.js, deep rest), and an action wakes it first: the action and the
observation after it see the settled result. A program whose hat fires by itself (`when
timer > 0.2`) keeps the VM stepping, as the editor does, yet it draws nothing while the stage
does not change, and its audio context is suspended all the same once no sound played for a
second; a running project that turns a sprite is drawn at every step. A sound started on a
suspended context still plays to its end (the context resumes before the sound starts). Four
agents stepping at once through a queue of two places (episodes.editor_work) keep every step.

One EpisodeManager on the session's shared browser serves the module.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import json
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.models.agent import EpisodeStatus
from studio.services.core import paths
from studio.services.core.sb3 import build_sb3
from studio.services.core.store import load_task
from studio.services.episodes.episode import Episode
from studio.services.episodes.manager import EpisodeManager
from tests.helpers.loop_thread import LoopThread
from tests.helpers.sample_task import BACKDROP_SVG, CAT_SVG, project_json, sb3_bytes

pytestmark = pytest.mark.browser

CAT_WALK = load_task(paths.BUNDLED_TASKS / "create_cat_walk")  # one sprite Cat, no blocks
RESTING = "() => window.studioRest && window.studioRest.stats().resting"
STATS = "() => studioRest.stats()"
# What the page does over 1.5 s of its own time: VM steps, stage draws, animation frames asked.
IDLE_WINDOW = """() => new Promise((done) => {
  const s0 = studioRest.stats();
  const raf = window.requestAnimationFrame;
  let asked = 0;
  window.requestAnimationFrame = (cb) => { asked += 1; return raf.call(window, cb); };
  setTimeout(() => {
    window.requestAnimationFrame = raf;
    const s1 = studioRest.stats();
    done({ steps: s1.steps - s0.steps, draws: s1.draws - s0.draws, frames_asked: asked,
      resting: s1.resting });
  }, 1500);
})"""
LOAD = "([b64, name]) => studioBridge.loadProjectBase64(b64, name)"
CAT_X = "() => vm.runtime.targets.find((t) => !t.isStage).x"
VM_OPCODES = "() => Object.values(vm.editingTarget.blocks._blocks).map((b) => b.opcode)"


def _num(parent: str, value: str) -> dict[str, Any]:
    return {
        "opcode": "math_number",
        "next": None,
        "parent": parent,
        "inputs": {},
        "fields": {"NUM": [value, None]},
        "shadow": True,
        "topLevel": False,
    }


# when timer > 0.2: change x by 10 (an edge-activated hat: the step loop fires it; the Cat
# starts at x 50)
TIMER_HAT = {
    "hat": {
        "opcode": "event_whengreaterthan",
        "next": "move",
        "parent": None,
        "inputs": {"VALUE": [1, "limit"]},
        "fields": {"WHENGREATERTHANMENU": ["TIMER", None]},
        "shadow": False,
        "topLevel": True,
        "x": 0,
        "y": 0,
    },
    "limit": _num("hat", "0.2"),
    "move": {
        "opcode": "motion_changexby",
        "next": None,
        "parent": "hat",
        "inputs": {"DX": [1, "dx"]},
        "fields": {},
        "shadow": False,
        "topLevel": False,
    },
    "dx": _num("move", "10"),
}
# when green flag clicked: change x by 10
FLAG = {
    "hat": {
        "opcode": "event_whenflagclicked",
        "next": "move",
        "parent": None,
        "inputs": {},
        "fields": {},
        "shadow": False,
        "topLevel": True,
        "x": 0,
        "y": 0,
    },
    "move": TIMER_HAT["move"],
    "dx": TIMER_HAT["dx"],
}


# when green flag clicked: play sound (beep) until done, change x by 10 ("until done" ends
# only once the sound has played through the audio context)
SOUND_FLAG = {
    **FLAG,
    "hat": {**FLAG["hat"], "next": "play"},
    "play": {
        "opcode": "sound_playuntildone",
        "next": "move",
        "parent": "hat",
        "inputs": {"SOUND_MENU": [1, "menu"]},
        "fields": {},
        "shadow": False,
        "topLevel": False,
    },
    "menu": {
        "opcode": "sound_sounds_menu",
        "next": None,
        "parent": "play",
        "inputs": {},
        "fields": {"SOUND_MENU": ["beep", None]},
        "shadow": True,
        "topLevel": False,
    },
    "move": {**TIMER_HAT["move"], "parent": "play"},
}
# when green flag clicked: forever turn 15 degrees (a running project that changes the stage
# at every step)
SPIN = {
    "hat": {**FLAG["hat"], "next": "loop"},
    "loop": {
        "opcode": "control_forever",
        "next": None,
        "parent": "hat",
        "inputs": {"SUBSTACK": [2, "turn"]},
        "fields": {},
        "shadow": False,
        "topLevel": False,
    },
    "turn": {
        "opcode": "motion_turnright",
        "next": None,
        "parent": "loop",
        "inputs": {"DEGREES": [1, "deg"]},
        "fields": {},
        "shadow": False,
        "topLevel": False,
    },
    "deg": _num("turn", "15"),
}
AUDIO = "() => vm.runtime.audioEngine.audioContext.state"
AUDIO_RESTING = "() => studioRest.stats().audioSuspended"


def _beep_sb3() -> bytes:
    """The SOUND_FLAG project with a 0.3 s tone named beep on the Cat."""
    rate, count = 22050, 6615
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(
            b"".join((((i // 25) % 2) * 8000).to_bytes(2, "little") for i in range(count))
        )
    wav = buffer.getvalue()
    md5 = hashlib.md5(wav).hexdigest()
    project = project_json(SOUND_FLAG)
    project["targets"][1]["sounds"] = [
        {"name": "beep", "assetId": md5, "dataFormat": "wav", "format": "", "rate": rate,
         "sampleCount": count, "md5ext": f"{md5}.wav"}
    ]  # fmt: skip
    svgs = {f"{hashlib.md5(svg).hexdigest()}.svg": svg for svg in (CAT_SVG, BACKDROP_SVG)}
    return build_sb3(project, {**svgs, f"{md5}.wav": wav})


@pytest.fixture(scope="module")
def manager(loop_thread: LoopThread, browser_pool: Any) -> Iterator[EpisodeManager]:
    m = EpisodeManager(server=browser_pool.server, pool=browser_pool, work_at_once=2)
    loop_thread.run(m.start())
    yield m
    loop_thread.run(m.close())


def _js(loop: LoopThread, episode: Episode, expression: str, arg: Any = None) -> Any:
    assert episode.page is not None
    return loop.run(episode.page.evaluate(expression, arg))


def _rests(loop: LoopThread, episode: Episode) -> None:
    assert episode.page is not None
    loop.run(episode.page.wait_for_function(RESTING, timeout=20_000))


def test_a_waiting_episode_page_does_no_frames_and_an_action_wakes_it(
    loop_thread: LoopThread, episodes: Any
) -> None:
    episode = episodes()
    _rests(loop_thread, episode)
    idle = _js(loop_thread, episode, IDLE_WINDOW)
    assert idle == {
        "steps": 0,
        "draws": 0,
        "frames_asked": 0,
        "resting": True,
    }

    before = _js(loop_thread, episode, STATS)
    record = loop_thread.run(
        episode.step({"api": "add_block", "args": {"blockType": "motion_movesteps"}})
    )
    assert record.ok and record.change is not None
    assert record.change.added == ["Cat: move (10) steps"]
    obs = loop_thread.run(episode.observe())  # the observation after the action sees it
    assert [b.opcode for b in obs.blocks] == ["motion_movesteps"]
    assert "motion_movesteps" in _js(loop_thread, episode, VM_OPCODES)
    _rests(loop_thread, episode)  # and the page rests again
    after = _js(loop_thread, episode, STATS)
    assert after["wakes"] > before["wakes"] and after["rests"] > before["rests"]
    assert after["steps"] > before["steps"]  # the action ran on a stepping VM


def test_a_hat_that_fires_by_itself_keeps_the_vm_stepping_and_the_flag_wakes_it(
    loop_thread: LoopThread, episodes: Any
) -> None:
    episode = episodes()
    _rests(loop_thread, episode)
    timer = base64.b64encode(sb3_bytes(project_json(TIMER_HAT))).decode()
    _js(loop_thread, episode, LOAD, [timer, "timer.sb3"])
    assert episode.page is not None
    loop_thread.run(episode.page.wait_for_function(f"({CAT_X})() === 60", timeout=20_000))
    idle = _js(loop_thread, episode, IDLE_WINDOW)
    assert idle["steps"] > 0 and not idle["resting"]  # the hat is watched every frame
    # the project counts as running (the hat's checks are threads: the editor's flag is lit),
    # yet nothing on the stage changes: no draws
    assert _js(loop_thread, episode, STATS)["running"] and idle["draws"] == 0, idle
    # no sound for a second: the audio rests though the VM steps (many agents at once keep
    # their pages stepping; a running context costs CPU even when silent)
    loop_thread.run(episode.page.wait_for_function(AUDIO_RESTING, timeout=20_000))
    assert _js(loop_thread, episode, AUDIO) == "suspended"
    assert not _js(loop_thread, episode, STATS)["resting"]

    flag = base64.b64encode(sb3_bytes(project_json(FLAG))).decode()
    _js(loop_thread, episode, LOAD, [flag, "flag.sb3"])
    _rests(loop_thread, episode)
    assert _js(loop_thread, episode, CAT_X) == 50  # where the project puts it
    _js(loop_thread, episode, "() => vm.greenFlag()")  # the flag, from a resting VM
    loop_thread.run(episode.page.wait_for_function(f"({CAT_X})() === 60", timeout=20_000))
    _rests(loop_thread, episode)


def test_a_running_project_draws_the_stage_when_it_changes(
    loop_thread: LoopThread, episodes: Any
) -> None:
    """A sprite turning at every step is drawn at every step, and the stage shows it."""
    episode = episodes()
    spin = base64.b64encode(sb3_bytes(project_json(SPIN))).decode()
    _js(loop_thread, episode, LOAD, [spin, "spin.sb3"])
    _rests(loop_thread, episode)
    _js(loop_thread, episode, "() => vm.greenFlag()")
    busy = _js(loop_thread, episode, IDLE_WINDOW)
    assert not busy["resting"] and busy["draws"] >= busy["steps"] - 2 > 20, busy
    page = episode.page
    assert page is not None
    stage = loop_thread.run(page.locator("canvas").first.bounding_box())
    assert stage is not None
    shots = [loop_thread.run(page.screenshot(clip=stage)) for _ in range(3)]
    assert len(set(shots)) > 1  # the turning Cat is on the stage the page shows
    _js(loop_thread, episode, "() => vm.stopAll()")
    _rests(loop_thread, episode)


def test_a_page_at_rest_suspends_its_audio_and_a_sound_still_plays_to_its_end(
    loop_thread: LoopThread, episodes: Any
) -> None:
    episode = episodes()
    assert episode.page is not None
    _js(loop_thread, episode, LOAD, [base64.b64encode(_beep_sb3()).decode(), "beep.sb3"])
    _rests(loop_thread, episode)
    loop_thread.run(episode.page.wait_for_function(AUDIO_RESTING, timeout=20_000))
    assert _js(loop_thread, episode, AUDIO) == "suspended"
    assert _js(loop_thread, episode, CAT_X) == 50
    wakes = _js(loop_thread, episode, STATS)["audioWakes"]
    _js(loop_thread, episode, "() => vm.greenFlag()")  # from a resting, silent page
    # "play until done" ends only once the sound has played through a running context
    loop_thread.run(episode.page.wait_for_function(f"({CAT_X})() === 60", timeout=20_000))
    assert _js(loop_thread, episode, STATS)["audioWakes"] == wakes + 1  # resumed for the sound
    _rests(loop_thread, episode)
    loop_thread.run(episode.page.wait_for_function(AUDIO_RESTING, timeout=20_000))


def test_four_agents_at_once_keep_every_step(
    loop_thread: LoopThread, episodes: Any, manager: EpisodeManager, tmp_path: Path
) -> None:
    steps = 5
    crowd = [episodes(record_to=tmp_path / f"agent{i}") for i in range(4)]

    async def agent(episode: Episode) -> None:
        for _ in range(steps):
            await episode.observe()
            await episode.step({"api": "add_block", "args": {"blockType": "looks_show"}})
        await episode.step({"api": "done"})

    async def together() -> None:
        await asyncio.gather(*(agent(e) for e in crowd))

    loop_thread.run(together(), timeout=600)
    assert manager.editor_work.most_running == 2  # they queued: two at a time
    for i, episode in enumerate(crowd):
        assert episode.status is EpisodeStatus.DONE and episode.step_count == steps + 1
        lines = (tmp_path / f"agent{i}" / "steps.jsonl").read_text().splitlines()
        records = [json.loads(line) for line in lines]
        assert [r["index"] for r in records] == list(range(1, steps + 2))
        assert all(r["ok"] for r in records)
        assert _js(loop_thread, episode, VM_OPCODES).count("looks_show") == steps

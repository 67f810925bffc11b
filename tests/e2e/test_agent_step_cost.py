"""Cheaper agent steps with nothing observable changed (issue 39, point 4).

- `runtime.screenshots.shot_png` gives the pixels of Playwright's `page.screenshot` on a real
  editor page: at rest, with a text field focused (its caret hidden as Playwright hides it,
  and the page as it was afterwards), and as a full-page shot.
- A recorded primitive step stores the very PNG its observation sent the agent, and a step
  that came without an observation a fresh one.
- A recorded episode exports its program again only after a change (episodes.program_cache):
  every kept export equals the VM's program at that moment, after actions, after a script the
  VM ran outside any action, and after raw input; an action of any kind forgets the export.

One EpisodeManager on the session's shared browser serves the module. Pixels are compared
decoded (PNG bytes may differ: the direct capture uses a quicker encoder).
"""

from __future__ import annotations

import base64
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from studio.models.agent import ActionError, Mode
from studio.services.core import paths
from studio.services.core.store import load_task
from studio.services.runtime.screenshots import shot_png
from tests.helpers.loop_thread import LoopThread
from tests.helpers.sample_task import project_json, sb3_bytes

pytestmark = pytest.mark.browser

GAME_OVER = load_task(paths.BUNDLED_TASKS / "debug_game_over")  # Bug and Banner, scripts
CAT_WALK = load_task(paths.BUNDLED_TASKS / "create_cat_walk")  # one sprite Cat, no blocks
ATTEMPTS = 20  # shots of a page that must hold still between two of Playwright's
LOAD = "([b64, name]) => studioBridge.loadProjectBase64(b64, name)"
VM_PROJECT = "() => JSON.parse(vm.toJSON())"
CAT_X = "() => vm.runtime.targets.find((t) => !t.isStage).x"
NAME_FIELD = 'input[placeholder="Name"]'
RESTING = "() => window.studioRest && window.studioRest.stats().resting"
# when green flag clicked: change x by 10 (the Cat starts at x 50)
FLAG = {
    "hat": {"opcode": "event_whenflagclicked", "next": "move", "parent": None, "inputs": {},
            "fields": {}, "shadow": False, "topLevel": True, "x": 0, "y": 0},
    "move": {"opcode": "motion_changexby", "next": None, "parent": "hat",
             "inputs": {"DX": [1, "dx"]}, "fields": {}, "shadow": False, "topLevel": False},
    "dx": {"opcode": "math_number", "next": None, "parent": "move", "inputs": {},
           "fields": {"NUM": ["10", None]}, "shadow": True, "topLevel": False},
}  # fmt: skip


def _pixels(png: bytes) -> Any:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def _same(a: bytes, b: bytes) -> bool:
    pa, pb = _pixels(a), _pixels(b)
    return bool(pa.shape == pb.shape and (pa == pb).all())


def _between_still_shots(loop: LoopThread, page: Any, full_page: bool = False) -> list[bytes]:
    """[Playwright's shot, shot_png's, Playwright's again] of a page at rest (a page just
    opened or just given the focus lays itself out for a while) that held still over the
    three (tries again when Playwright's two differ, ATTEMPTS times at most)."""
    loop.run(page.wait_for_function(RESTING, timeout=20_000))
    for _ in range(ATTEMPTS):
        shots = [
            loop.run(page.screenshot(type="png", full_page=full_page)),
            loop.run(shot_png(page, full_page=full_page)),
            loop.run(page.screenshot(type="png", full_page=full_page)),
        ]
        if _same(shots[0], shots[2]):
            return shots
    pytest.fail(f"the page did not hold still over three shots in {ATTEMPTS} tries")


def _project(sb3: bytes | None) -> Any:
    assert sb3 is not None
    with zipfile.ZipFile(io.BytesIO(sb3)) as z:
        return json.loads(z.read("project.json"))


def test_the_direct_shot_has_playwrights_pixels(loop_thread: LoopThread, episodes: Any) -> None:
    page = episodes(GAME_OVER).page
    before, ours, _ = _between_still_shots(loop_thread, page)
    assert _pixels(ours).shape == (720, 1280, 4)
    assert _same(ours, before)
    # the whole page: the editor fits its viewport, so the same direct capture
    before, ours, _ = _between_still_shots(loop_thread, page, full_page=True)
    assert _same(ours, before)


def test_a_focused_text_field_shows_no_caret_and_keeps_its_focus(
    loop_thread: LoopThread, episodes: Any
) -> None:
    page = episodes(CAT_WALK).page
    loop_thread.run(page.click(NAME_FIELD))
    focused = f"() => document.activeElement === document.querySelector('{NAME_FIELD}')"
    assert loop_thread.run(page.evaluate(focused))
    # a blinking caret would show in some of the direct shots and in none of Playwright's
    for _ in range(3):
        before, ours, _ = _between_still_shots(loop_thread, page)
        assert _same(ours, before)
    assert loop_thread.run(page.evaluate(focused))
    hidden = "() => document.getElementById('studio-shot-hide-caret') === null"
    assert loop_thread.run(page.evaluate(hidden))  # the page is as it was


def test_a_recorded_step_keeps_the_png_its_observation_sent(
    tmp_path: Path, loop_thread: LoopThread, episodes: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUDIO_OCR", "off")
    episode = episodes(CAT_WALK, Mode.PRIMITIVE, record_to=tmp_path / "t")
    heard: list[bytes | None] = []
    episode.listeners.append(lambda record, png, obs: heard.append(png))
    obs = loop_thread.run(episode.observe())
    sent = base64.b64decode(obs.screenshot_png_b64 or "")
    record = loop_thread.run(episode.step({"api": "click", "args": {"x": 900, "y": 600}}))
    assert record.ok and record.screenshot == "step_0001.png"
    assert (tmp_path / "t" / "step_0001.png").read_bytes() == sent == heard[0]
    # a step without an observation before it: the editor as it is then
    loop_thread.run(episode.step({"api": "key", "args": {"key": "Escape"}}))
    fresh = (tmp_path / "t" / "step_0002.png").read_bytes()
    assert fresh == heard[1] and _pixels(fresh).shape == (720, 1280, 4)


def test_every_kept_export_is_the_vms_program(
    tmp_path: Path, loop_thread: LoopThread, episodes: Any
) -> None:
    episode = episodes(CAT_WALK, record_to=tmp_path / "t")
    page = episode.page
    assert page is not None

    def observe_and_check() -> None:
        loop_thread.run(episode.observe())
        assert _project(episode.kept_sb3) == loop_thread.run(page.evaluate(VM_PROJECT))

    observe_and_check()
    observe_and_check()  # nothing changed: the same export
    assert (episode.exports.exports, episode.exports.reused) == (1, 1)
    for block in ("motion_movesteps", "looks_show", "control_repeat", "event_whenflagclicked"):
        record = loop_thread.run(episode.step({"api": "add_block", "args": {"blockType": block}}))
        assert record.ok
        observe_and_check()
        kept = _project(episode.kept_sb3)["targets"][1]["blocks"]
        assert block in {b["opcode"] for b in kept.values() if isinstance(b, dict)}
    assert episode.exports.exports == 5
    # a refused action forgets the export too
    with pytest.raises(ActionError, match="unknown blockType"):
        loop_thread.run(episode.step({"api": "add_block", "args": {"blockType": "nope"}}))
    observe_and_check()
    assert episode.exports.exports == 6


def test_a_script_the_vm_runs_outside_any_action_is_exported(
    tmp_path: Path, loop_thread: LoopThread, episodes: Any
) -> None:
    episode = episodes(CAT_WALK, record_to=tmp_path / "t")
    page = episode.page
    assert page is not None
    b64 = base64.b64encode(sb3_bytes(project_json(FLAG))).decode("ascii")
    loop_thread.run(page.evaluate(LOAD, [b64, "flag.sb3"]))
    episode.forget_program()
    loop_thread.run(episode.observe())
    loop_thread.run(episode.observe())
    assert episode.exports.reused == 1
    x0 = _project(episode.kept_sb3)["targets"][1]["x"]
    loop_thread.run(page.evaluate("() => vm.greenFlag()"))
    loop_thread.run(page.wait_for_function(f"() => ({CAT_X})() === {x0 + 10}", timeout=20_000))
    loop_thread.run(episode.observe())
    assert _project(episode.kept_sb3)["targets"][1]["x"] == x0 + 10
    assert _project(episode.kept_sb3) == loop_thread.run(page.evaluate(VM_PROJECT))


def test_raw_input_and_any_action_make_the_next_observation_export(
    tmp_path: Path, loop_thread: LoopThread, episodes: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STUDIO_OCR", "off")
    episode = episodes(CAT_WALK, Mode.PRIMITIVE, record_to=tmp_path / "t")
    page = episode.page
    assert page is not None
    loop_thread.run(episode.observe())
    loop_thread.run(episode.observe())
    assert (episode.exports.exports, episode.exports.reused) == (1, 1)
    # input the page gets outside any action (a person's hand on the editor): counted there
    loop_thread.run(page.mouse.move(700, 500))
    loop_thread.run(episode.observe())
    assert (episode.exports.exports, episode.exports.reused) == (2, 1)
    # a raw key action that changes nothing still forgets the export
    loop_thread.run(episode.step({"api": "key", "args": {"key": "Shift"}}))
    loop_thread.run(episode.observe())
    assert episode.exports.exports == 3
    # typing a new sprite name through actions: the next kept export has it
    box = loop_thread.run(page.locator(NAME_FIELD).bounding_box())
    assert box is not None
    centre = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    loop_thread.run(episode.step({"api": "click", "args": centre}))
    loop_thread.run(episode.step({"api": "hotkey", "args": {"keys": ["ctrl", "a"]}}))
    loop_thread.run(episode.step({"api": "type", "args": {"text": "Walker"}}))
    loop_thread.run(episode.step({"api": "key", "args": {"key": "Enter"}}))
    loop_thread.run(episode.observe())
    assert _project(episode.kept_sb3)["targets"][1]["name"] == "Walker"
    assert _project(episode.kept_sb3) == loop_thread.run(page.evaluate(VM_PROJECT))

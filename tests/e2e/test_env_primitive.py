"""Primitive mode on the real editor page: the element list, real drags the VM sees, keys.

The handler is driven directly on an editor page opened from the session's browser (one page
for the module; every test loads a bundled task's initial project into it first). The last
test goes through the EpisodeManager instead.
"""

from __future__ import annotations

import base64
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.models.action_parse import parse_action
from studio.models.agent import ActionError, Element, Mode, Observation
from studio.services.core import paths
from studio.services.episodes.modes import VIEWPORT, ActionOutcome
from studio.services.episodes.primitive import PrimitiveMode
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser

EMPTY_TASK = paths.BUNDLED_TASKS / "create_cat_walk"  # one sprite (Cat), no blocks
SCRIPTED_TASK = paths.BUNDLED_TASKS / "debug_game_over"  # two sprites with scripts
VM_BLOCKS = """() => Object.values(vm.editingTarget.blocks._blocks).map((b) => ({
  id: b.id, opcode: b.opcode, parent: b.parent, next: b.next, topLevel: b.topLevel,
  shadow: b.shadow, fields: b.fields, inputs: b.inputs}))"""


class Env:
    """Synchronous access to one editor page and a PrimitiveMode working on it."""

    def __init__(self, loop: LoopThread, page: Any, handler: PrimitiveMode) -> None:
        self.loop, self.page, self.handler = loop, page, handler
        self.obs: Observation | None = None

    def js(self, expr: str, arg: Any = None) -> Any:
        return self.loop.run(self.page.evaluate(expr, arg))

    def load(self, task: Path) -> None:
        b64 = base64.b64encode((task / "initial.sb3").read_bytes()).decode("ascii")
        self.js("(b) => window.studioBridge.loadProjectBase64(b, 'initial.sb3')", b64)

    def observe(self) -> Observation:
        self.obs = self.loop.run(self.handler.observe(self.page, 0))
        return self.obs

    def act(self, raw: dict[str, Any]) -> ActionOutcome:
        return self.loop.run(self.handler.execute(self.page, parse_action(raw, Mode.PRIMITIVE)))

    def find(self, type_: str, text: str) -> Element:
        assert self.obs is not None
        hits = [e for e in self.obs.elements if e.type == type_ and e.text == text]
        assert hits, f"no {type_} {text!r} in {[(e.type, e.text) for e in self.obs.elements]}"
        return hits[0]

    def vm_blocks(self) -> list[dict[str, Any]]:
        blocks: list[dict[str, Any]] = self.js(VM_BLOCKS)
        return blocks

    def show_category(self, name: str) -> None:
        self.observe()
        self.act({"api": "click", "args": {"index": self.find("category_menu", name).index}})
        self.observe()


@pytest.fixture(scope="module")
def editor_page(loop_thread: LoopThread, browser_pool: Any) -> Iterator[Any]:
    async def open_page() -> Any:
        page = await browser_pool.context.new_page()
        await page.set_viewport_size(VIEWPORT)
        await page.goto(browser_pool.server.url("editor.html"), wait_until="load")
        await page.wait_for_function("window.studioEditorReady === true", timeout=90_000)
        return page

    page = loop_thread.run(open_page())
    yield page
    loop_thread.run(page.close())


@pytest.fixture
def env(loop_thread: LoopThread, editor_page: Any) -> Env:
    handler = PrimitiveMode(ocr=False)
    loop_thread.run(handler.setup(editor_page))
    env = Env(loop_thread, editor_page, handler)
    env.load(EMPTY_TASK)
    env.show_category("Motion")
    return env


def _png_size(b64: str) -> tuple[int, int]:
    png = base64.b64decode(b64)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_observation_lists_the_editor(env: Env) -> None:
    env.load(SCRIPTED_TASK)
    obs = env.observe()
    assert obs.mode is Mode.PRIMITIVE and obs.screenshot_png_b64
    assert _png_size(obs.screenshot_png_b64) == (1280, 720)
    assert [e.index for e in obs.elements] == list(range(len(obs.elements)))
    categories = [e.text for e in obs.elements if e.type == "category_menu"]
    assert categories[:4] == ["Motion", "Looks", "Sound", "Events"] and "Variables" in categories
    flyout = {e.text for e in obs.elements if e.type == "blocks" and "on canvas" not in e.text}
    assert {"motion_movesteps", "motion_turnright", "motion_gotoxy"} <= flyout
    assert env.find("blocks", "motion_movesteps").meta["label"] == "move 10 steps"
    on_canvas = [e for e in obs.elements if e.text.endswith(" on canvas") and e.type == "blocks"]
    vm_ids = {b["id"] for b in env.vm_blocks()}
    assert on_canvas and all(e.meta["block_id"] in vm_ids for e in on_canvas)
    sprites = {e.text for e in obs.elements if e.type == "sprites"}
    assert {"Bug", "Banner"} <= sprites
    assert [e.type for e in obs.elements].count("stage") == 1
    assert [e.type for e in obs.elements].count("canvas") == 1
    assert any(e.type == "inputs" and e.text.startswith("value: ") for e in obs.elements)
    for e in obs.elements:
        assert 0 <= e.x <= e.x + e.w <= 1280 and 0 <= e.y <= e.y + e.h <= 720, e
        assert e.source == "dom"


def test_empty_slots_and_filled_c_blocks_are_listed(env: Env) -> None:
    """An empty slot is a place to click or drop into: it is listed (as its oval); a C-block
    whose mouth is filled with wide blocks is still listed (its top arm is its own)."""
    env.show_category("Operators")
    assert env.obs is not None
    slots = [e for e in env.obs.elements if e.meta.get("opcode") == "operator_equals"]
    slots = [e for e in slots if e.type == "inputs"]
    assert [e.meta["value"] for e in slots] == ["", "50"]
    assert all(e.w > 15 and e.h > 15 for e in slots)  # the ovals, not the (empty) text
    env.load(paths.BUNDLED_TASKS / "compute_count_vowels")
    golden = base64.b64encode(
        (paths.BUNDLED_TASKS / "compute_count_vowels" / "golden.sb3").read_bytes()
    ).decode("ascii")
    env.js("(b) => window.studioBridge.loadProjectBase64(b, 'golden.sb3')", golden)
    on_canvas = {e.meta.get("opcode") for e in env.observe().elements if e.type == "blocks"}
    assert {"control_repeat", "control_if", "operator_contains"} <= on_canvas


def test_drag_from_flyout_adds_a_block_then_a_second_snaps_under_it(env: Env) -> None:
    move = env.find("blocks", "motion_movesteps")
    out = env.act(
        {"api": "drag_and_drop", "args": {"start_index": move.index, "end_x": 480, "end_y": 250}}
    )
    assert out.target == "blocks: motion_movesteps"
    assert out.detail["end_target"] == "canvas: code area" and out.detail["steps"] >= 10
    first = [b for b in env.vm_blocks() if b["opcode"] == "motion_movesteps"]
    assert len(first) == 1 and first[0]["topLevel"]

    env.observe()
    placed = env.find("blocks", "motion_movesteps on canvas")
    assert placed.meta["block_id"] == first[0]["id"]
    turn = env.find("blocks", "motion_turnright")
    # grab the block at its centre; drop it so its top-left lands at the first block's bottom
    end_x = placed.x + turn.w / 2
    end_y = placed.y + placed.h + turn.h / 2 - 8
    out = env.act(
        {
            "api": "drag_and_drop",
            "args": {"start_index": turn.index, "end_x": end_x, "end_y": end_y},
        }
    )
    assert out.target == "blocks: motion_turnright"
    blocks = {b["opcode"]: b for b in env.vm_blocks()}
    assert blocks["motion_movesteps"]["next"] == blocks["motion_turnright"]["id"]
    assert blocks["motion_turnright"]["parent"] == blocks["motion_movesteps"]["id"]
    assert not blocks["motion_turnright"]["topLevel"]


def test_click_on_a_category_changes_the_flyout(env: Env) -> None:
    looks = env.find("category_menu", "Looks")
    assert not looks.meta["selected"]
    out = env.act({"api": "click", "args": {"index": looks.index}})
    assert out.target == "category_menu: Looks"
    obs = env.observe()
    assert env.find("category_menu", "Looks").meta["selected"]
    flyout = [e.text for e in obs.elements if e.type == "blocks"]
    assert "looks_sayforsecs" in flyout and "motion_movesteps" not in flyout


def test_typing_into_a_block_input_changes_the_vm_value(env: Env) -> None:
    move = env.find("blocks", "motion_movesteps")
    env.act(
        {"api": "drag_and_drop", "args": {"start_index": move.index, "end_x": 480, "end_y": 300}}
    )
    obs = env.observe()
    block_id = env.find("blocks", "motion_movesteps on canvas").meta["block_id"]
    field = next(
        e for e in obs.elements if e.type == "inputs" and e.meta.get("block_id") == block_id
    )
    assert field.text == "value: 10 (motion_movesteps on canvas)"
    out = env.act({"api": "click", "args": {"index": field.index}})
    assert out.target == "inputs: value: 10 (motion_movesteps on canvas)"
    out = env.act({"api": "type", "args": {"text": "25"}})
    assert out.target and out.target.startswith("inputs: editing")
    env.act({"api": "key", "args": {"key": "enter"}})
    steps = next(b for b in env.vm_blocks() if b["id"] == field.meta["shadow_id"])
    assert steps["fields"]["NUM"]["value"] == "25"
    after = env.observe().elements
    assert any(e.text == "value: 25 (motion_movesteps on canvas)" for e in after)


def test_hotkey_and_type_replace_the_sprite_name(env: Env) -> None:
    name = next(
        e for e in env.observe().elements if e.type == "inputs" and e.meta.get("name") == "Name"
    )
    assert name.text == "value: Cat placeholder: Name"
    env.act({"api": "click", "args": {"index": name.index}})
    out = env.act({"api": "hotkey", "args": {"keys": ["ctrl", "a"]}})
    assert out.detail["keys"] == ["Control", "a"]
    env.act({"api": "type", "args": {"text": "Walker"}})
    env.act({"api": "key", "args": {"key": "Enter"}})
    assert env.js("() => vm.editingTarget.getName()") == "Walker"


def test_make_a_variable_through_its_dialog(env: Env) -> None:
    env.show_category("Variables")
    env.act(
        {"api": "click", "args": {"index": env.find("flyout_buttons", "Make a Variable").index}}
    )
    obs = env.observe()
    types = {e.type for e in obs.elements}
    assert "canvas" not in types and "category_menu" not in types  # under the modal
    assert env.find("inputs", "radio: For all sprites (checked)")
    name = next(e for e in obs.elements if e.meta.get("name") == "New variable name:")
    env.act({"api": "click", "args": {"index": name.index}})
    env.act({"api": "type", "args": {"text": "lives"}})
    env.act({"api": "click", "args": {"index": env.find("buttons", "OK").index}})
    names = env.js(
        "() => vm.runtime.getTargetForStage().getAllVariableNamesInScopeByType('', true)"
    )
    assert "lives" in names
    obs = env.observe()  # a new variable shows on the stage; its checkbox hides it
    assert any(e.type == "monitors" and e.text.startswith("lives") for e in obs.elements)
    box = env.find("flyout_buttons", "checkbox: data_variable (lives)")
    out = env.act({"api": "click", "args": {"index": box.index}})
    assert out.target == "flyout_buttons: checkbox: data_variable (lives)"
    assert not any(e.type == "monitors" for e in env.observe().elements)


def test_scroll_moves_the_flyout(env: Env) -> None:
    flyout_point = env.find("blocks", "motion_turnleft")
    out = env.act(
        {"api": "scroll", "args": {"direction": "down", "amount": 5, "index": flyout_point.index}}
    )
    assert out.detail["dy"] == 500
    obs = env.observe()
    assert "motion_movesteps" not in [e.text for e in obs.elements if e.type == "blocks"]
    out = env.act({"api": "scroll", "args": {"direction": "up"}})  # default: the code area
    assert out.target == "canvas: code area"


def test_bad_index_and_outside_point_are_action_errors(env: Env) -> None:
    count = len(env.observe().elements)
    with pytest.raises(ActionError, match=rf"index 9999 does not exist.*{count} elements"):
        env.act({"api": "click", "args": {"index": 9999}})
    with pytest.raises(ActionError, match="outside the 1280x720 viewport"):
        env.act({"api": "click", "args": {"x": 1300, "y": 10}})
    with pytest.raises(ActionError, match="drag end"):
        env.act({"api": "drag_and_drop", "args": {"start_index": 0, "end_x": 10, "end_y": 900}})
    with pytest.raises(ActionError, match="not a key name"):
        env.act({"api": "key", "args": {"key": "NoSuchKey"}})
    assert env.vm_blocks() == []  # nothing happened


def test_ocr_adds_text_boxes_not_covered_by_the_dom(env: Env) -> None:
    env.handler.ocr = True
    obs = env.observe()
    dom = [e for e in obs.elements if e.source == "dom"]
    ocr = [e for e in obs.elements if e.source == "ocr"]
    assert ocr and all(e.type == "text" and e.meta["score"] >= 0.5 for e in ocr)
    assert obs.elements[len(dom) :] == ocr  # OCR boxes come after the DOM elements
    texts = " ".join(e.text for e in ocr)
    assert "Sprite" in texts and "Direction" in texts  # labels with no DOM element of ours
    assert "Code" not in [e.text for e in ocr]  # the Code tab is a DOM button
    labels = [d for d in dom if d.type not in ("canvas", "stage")]
    for box in ocr:
        assert not any(
            d.x <= box.x
            and d.y <= box.y
            and box.x + box.w <= d.x + d.w
            and box.y + box.h <= d.y + d.h
            for d in labels
        ), box


def test_episode_in_primitive_mode(
    tmp_path: Path, loop_thread: LoopThread, browser_pool: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from studio.services.core.store import load_task
    from studio.services.episodes.manager import EpisodeManager

    monkeypatch.setenv("STUDIO_OCR", "off")
    task = load_task(EMPTY_TASK)

    async def run() -> tuple[Observation, Any, Observation]:
        # the session's browser, which the module's editor page comes from too
        async with EpisodeManager(
            browser_pool.server, out_dir=tmp_path, pool=browser_pool
        ) as manager:
            episode = await manager.create(task, Mode.PRIMITIVE, agent_name="test")
            obs = await episode.observe()
            move = next(e for e in obs.elements if e.text == "motion_movesteps")
            record = await episode.step(
                {
                    "api": "drag_and_drop",
                    "args": {"start_index": move.index, "end_x": 480, "end_y": 250},
                }
            )
            after = await episode.observe()
            await episode.close()
            return obs, record, after

    obs, record, after = loop_thread.run(run())
    assert obs.elements and record.ok and record.target == "blocks: motion_movesteps"
    assert len(record.change.added) >= 1
    assert any(e.text == "motion_movesteps on canvas" for e in after.elements)

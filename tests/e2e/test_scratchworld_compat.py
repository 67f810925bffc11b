"""`studio serve --scratchworld ROOT` driven by an independent client of the published contract.

The client (tests/helpers/sw_client.py) was written only from shared/SCRATCHWORLD_API.md, the
HTTP contract of ScratchWorld's "scratch-bench-api" as its published clients use it. One server
runs for the module, on a checkout in the published layout: a few tasks of our own published-
style set and the single-step drag items of tests/fixtures/scratchworld_diag, on the current
edition. The drag test plays the drag items built on the classic edition (the published
benchmark's editor; tests/fixtures/scratchworld_classic, made by
tools/build_classic_drag_items.py) on a second server, which serves its ROOT on classic, the
default. Each test proves a point of the contract; the section numbers refer to that document.
"""

from __future__ import annotations

import base64
import io
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import studio_here
from tests.helpers.published_set import build_published_set
from tests.helpers.sw_client import (
    CLIENT_SELECTORS,
    PRIMITIVES,
    HttpError,
    Observation,
    SwClient,
    centre,
    check_envelope,
    png_size,
    run_drag_item,
    run_task,
)
from tests.helpers.tasks import make_task

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
DIAG = ROOT / "tests" / "fixtures" / "scratchworld_diag"
CLASSIC_DIAG = ROOT / "tests" / "fixtures" / "scratchworld_classic"
# The simplest create task to script with composite apis: a hat, a forever, a go-to block.
TASK = "create_follow_mouse"
INITIAL = "default_project.sb3"
PASSING = (
    "module.exports = async (vm, config, cleanup) => {\n"
    "  console.log('config', JSON.stringify(config));\n"
    "  cleanup();\n"
    "  return {success: true, passed_tests: 1, total_tests: 1, partial_success_rate: 1,\n"
    "    details: [{name: 'c', passed: true, timeout: false, duration_ms: 1, error: null,\n"
    "      meta: {}}]};\n"
    "};\n"
)
THROWING = (
    "module.exports = async (vm, config, cleanup) => {\n"
    "  console.log('about to throw');\n"
    "  throw new Error('kaboom');\n"
    "};\n"
)
ORPHAN = "sw_orphan"  # a script in evaluation_scripts/ with no task file
SCRIPTS = {"sw_passes": PASSING, "sw_throws": THROWING, ORPHAN: PASSING}
# More than agent_client's 60 s: the machines that run this are small and often busy.
CLIENT_TIMEOUT = 180.0
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")


TOKEN = "sw-compat-token"  # the studio's own routes (/episodes) keep their token


@dataclass
class Served:
    url: str
    root: Path
    runs: Path
    client: SwClient
    golden: str
    log: list[str] = field(default_factory=list)


def studio_cmd() -> list[str]:
    return [sys.executable, "-m", "studio"]


@pytest.fixture(scope="module")
def sw(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One `studio serve --scratchworld` for the module, on a checkout in the published layout."""
    yield from _serve(tmp_path_factory)


@pytest.fixture(scope="module")
def sw_classic(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A ROOT holding the drag items built on classic, served on its default edition."""
    yield from _serve(tmp_path_factory, diag=CLASSIC_DIAG, edition=None)


@pytest.fixture(scope="module")
def hatch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The same with the escape hatch on (`--allow-custom-js`); its tests run last."""
    yield from _serve(tmp_path_factory, "--allow-custom-js", "5")  # 5 s a call


def _serve(
    tmp_path_factory: pytest.TempPathFactory,
    *extra: str,
    diag: Path = DIAG,
    edition: str | None = os.environ.get("STUDIO_TEST_EDITION", "current"),
) -> Iterator[Served]:
    base = tmp_path_factory.mktemp("scratchworld")
    root = base / "ScratchWorld"
    published = build_published_set(root, [TASK])
    shutil.copytree(diag / "single_step_drag_benchmark", root / "single_step_drag_benchmark")
    for sb3 in sorted((diag / "scratch-gui" / "static").glob("*.sb3")):
        shutil.copy2(sb3, published.projects_dir / sb3.name)
    # the published scratch-gui/static holds party.sb3, load_project's fallback (section 6)
    shutil.copy2(published.projects_dir / INITIAL, published.projects_dir / "party.sb3")
    # two tiny tasks whose scripts throw or pass at once, and a script without a task file
    for name, script in SCRIPTS.items():
        (published.scripts_dir / f"{name}.js").write_text(script)
        if name == ORPHAN:
            continue
        task = json.loads((published.tasks_dir / "create" / f"{TASK}.json").read_text())
        task["name"] = task["evaluation"]["function"] = name
        (published.tasks_dir / "create" / f"{name}.json").write_text(json.dumps(task, indent=2))
    runs = base / "runs"
    env = {**os.environ, "STUDIO_OCR": "off", "STUDIO_TOKEN": TOKEN}
    # the module's server pins the current edition (a ROOT is served on classic by default);
    # STUDIO_TEST_EDITION=classic runs it on classic, where all but the 854x480 screenshot
    # size pass; the classic drag items' server (edition None) takes the default
    cmd = [*studio_cmd(), "serve", "--scratchworld", str(root), "--port", "0", *extra]
    if edition is not None:
        cmd += ["--edition", edition]
    proc = subprocess.Popen(
        [*cmd, "--out", str(runs)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    log: list[str] = []
    assert proc.stdout is not None
    stdout = proc.stdout

    def pump() -> None:
        for line in stdout:
            log.append(line)
            lines.put(line)

    pumper = threading.Thread(target=pump, daemon=True)
    pumper.start()
    try:
        first = lines.get(timeout=120)
    except queue.Empty:
        proc.kill()
        pytest.fail("studio serve --scratchworld printed nothing in 120 s: " + "".join(log))
    if not first.startswith("serving the agent API on http://127.0.0.1:"):
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        pumper.join(timeout=5)
        pytest.fail("studio serve --scratchworld did not start:\n" + "".join(log))
    url = first.split(" on ")[1].split()[0]
    client = SwClient(url, timeout=CLIENT_TIMEOUT)
    try:
        client.check_ready()
        golden = published.tasks[TASK].golden
        assert golden is not None
        yield Served(url, root, runs, client, golden, log)
    finally:
        client.close()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@pytest.fixture(scope="module")
def shared(sw: Served) -> Iterator[str]:
    """One session on the default project for the error and session tests (the last deletes it)."""
    sid = sw.client.create_session(record=True, quality="medium", task_name=TASK)
    sw.client.load_project(sid, INITIAL)
    sw.client.toggle_stage(sid)
    yield sid
    resp = sw.client.request("DELETE", f"/sessions/{sid}")
    assert resp.status_code in (200, 404), resp.text


# ---- helpers ---------------------------------------------------------------------------------
def strict(envelope: dict[str, Any], sid: str, api: str) -> dict[str, Any]:
    """The whole §3 envelope: agent_client's checks plus meta, api names and the error."""
    check_envelope(envelope)
    assert envelope["requested_action"]["api"] == api, envelope
    assert envelope["executed_action"]["api"] == api, envelope
    assert isinstance(envelope["requested_action"]["args"], dict), envelope
    meta = envelope["meta"]
    assert meta["session_id"] == sid, envelope
    assert TIMESTAMP.match(str(meta["timestamp"])), envelope
    assert isinstance(meta["duration_ms"], int | float), envelope
    if envelope["success"]:
        assert envelope["error"] is None, envelope
    return envelope


def failed_with(envelope: dict[str, Any], code: str) -> dict[str, Any]:
    assert envelope["success"] is False, envelope
    assert envelope["error"]["code"] == code, envelope
    assert isinstance(envelope["error"]["message"], str), envelope
    return envelope


def index_of(blocks: dict[str, Any], opcode: str) -> int:
    """The pseudocode index (an idxToBlock key) of the first block with `opcode`."""
    found = [int(k) for k, b in blocks["idxToBlock"].items() if b["opcode"] == opcode]
    assert found, (opcode, blocks["idxToBlock"])
    return min(found)


def check_pseudocode_data(data: dict[str, Any]) -> None:
    """get_blocks_pseudocode's `data` (§5)."""
    assert isinstance(data["pseudocode"], str), data
    assert isinstance(data["idxToBlock"], dict), data
    for key, info in data["idxToBlock"].items():
        assert key.isdigit() and int(key) >= 1, data["idxToBlock"]
        assert {"id", "opcode", "position", "boundingBox"} <= set(info), info
    assert data["targetName"] == "Sprite1", data
    assert isinstance(data["availableTargets"], list), data
    for target in data["availableTargets"]:
        assert {"id", "name", "isStage"} <= set(target), target
    names = {t["name"] for t in data["availableTargets"]}
    assert "Sprite1" in names and any(t["isStage"] for t in data["availableTargets"]), data
    assert isinstance(data["targetVariables"], list), data
    for variable in data["targetVariables"]:
        assert {"name", "scope"} <= set(variable), variable
    assert isinstance(data["targetLists"], list), data


class FollowMouse:
    """A scripted composite agent solving create_follow_mouse, one action per turn."""

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    def __call__(self, obs: Observation) -> dict[str, Any]:
        blocks = obs.blocks
        assert blocks is not None and obs.observed is not None
        assert obs.observed["success"], obs.observed
        self.seen.append(blocks)
        steps = [
            lambda: {"api": "add_block", "args": {"blockType": "event_whenflagclicked"}},
            lambda: {"api": "add_block", "args": {"blockType": "control_forever"}},
            lambda: {"api": "add_block", "args": {"blockType": "motion_goto"}},
            lambda: {
                "api": "connect_blocks",
                "args": {
                    "sourceBlockIndex": index_of(blocks, "control_forever"),
                    "targetBlockIndex": index_of(blocks, "event_whenflagclicked"),
                    "placement": {"kind": "stack_after"},
                },
            },
            lambda: {
                "api": "connect_blocks",
                "args": {
                    "sourceBlockIndex": index_of(blocks, "motion_goto"),
                    "targetBlockIndex": index_of(blocks, "control_forever"),
                    "placement": {"kind": "statement_into", "inputName": "SUBSTACK"},
                },
            },
            lambda: {
                "api": "set_block_field",
                "args": {
                    "blockIndex": index_of(blocks, "motion_goto"),
                    "fieldName": "TO",
                    "value": "_mouse_",
                },
            },
        ]
        if obs.turn < len(steps):
            if obs.last is not None:
                assert obs.last["success"], obs.last
            return steps[obs.turn]()
        return {"api": "done"}


# ---- 1. a composite episode in the task runner's order ----------------------------------------
def test_composite_episode_solves_and_idle_fails(sw: Served) -> None:
    agent = FollowMouse()
    run = run_task(sw.client, TASK, INITIAL, agent, "composite")
    assert run.ended_by == "done" and len(run.turns) == 6, run.turns
    for turn in run.turns:
        strict(turn.envelope, run.session_id, turn.action["api"])
        assert turn.envelope["success"], turn.envelope
    for data in agent.seen:
        check_pseudocode_data(data)
    assert agent.seen[0]["idxToBlock"] == {}, agent.seen[0]  # the default project has no code
    # add_block answers {blockId, connected: false}; the next pseudocode indexes that block
    added = []
    for turn, seen in zip(run.turns[:3], agent.seen[1:4], strict=True):
        assert turn.envelope["data"] == {
            "blockId": turn.envelope["data"]["blockId"],
            "connected": False,
        }
        block_id = turn.envelope["data"]["blockId"]
        ids = {b["id"]: b["opcode"] for b in seen["idxToBlock"].values()}
        assert ids.get(block_id) == turn.action["args"]["blockType"], (block_id, ids)
        added.append(block_id)
    assert len(set(added)) == 3
    field_set = run.turns[5].envelope["data"]
    assert {"updated", "blockIndex", "blockId", "fieldName", "value"} <= set(field_set), field_set
    assert field_set["fieldName"] == "TO" and field_set["blockId"] == added[2], field_set
    # the exported project holds the script, and the evaluation passes
    project = json.loads(zipfile.ZipFile(io.BytesIO(run.sb3)).read("project.json"))
    sprite = next(t for t in project["targets"] if t.get("name") == "Sprite1")
    blocks = sprite["blocks"]
    hat = blocks[added[0]]
    assert hat["next"] == added[1], blocks
    assert blocks[added[1]]["inputs"]["SUBSTACK"][1] == added[2], blocks
    assert run.evaluation["status"] == "success", run.evaluation
    assert run.evaluation["evaluation_method"] == "browser", run.evaluation
    assert isinstance(run.evaluation["stdout"], str | list), run.evaluation
    result = run.evaluation["result"]
    assert result["success"] is True and result["passed_tests"] == result["total_tests"], result
    assert result["total_tests"] == 4 and len(result["details"]) == 4, result
    assert run.success and run.deleted is not None and run.deleted["status"] == "closed"
    assert run.deleted["recording"] is None or isinstance(run.deleted["recording"], dict)

    idle = run_task(sw.client, TASK, INITIAL, lambda obs: {"api": "done"}, "composite")
    assert idle.turns == [] and idle.ended_by == "done"
    assert idle.evaluation["status"] == "success", idle.evaluation
    assert idle.evaluation["result"]["success"] is False, idle.evaluation
    assert idle.evaluation["result"]["passed_tests"] < 4
    assert idle.success is False


# ---- 2. a primitive episode: observation, a real drag, the 10 primitives ------------------------
class Primitive:
    """A scripted primitive agent: drag a palette block out, then each primitive once."""

    def __init__(self) -> None:
        self.checked: dict[str, Any] = {}
        self.plan: list[dict[str, Any]] = []
        self.types: set[str] = set()

    def first(self, obs: Observation) -> dict[str, Any]:
        assert obs.elements is not None
        assert png_size(obs.screenshot) == (1280, 720)
        elements = obs.elements
        assert [e["index"] for e in elements] == list(range(len(elements)))
        for e in elements:
            pos = e["position"]
            assert all(isinstance(pos[k], int) for k in ("x", "y", "width", "height")), e
            assert isinstance(e["type"], str), e
        types = {e["type"] for e in elements}
        # the stage is checked over both observations: the first comes right after
        # toggle_stage, where the published runner sleeps 5 s and this one does not
        self.types = types
        assert {"canvas", "blocks", "category_menu_item", "sprites"} <= types, types
        palette = {e.get("block_name"): e for e in elements if e["type"] == "blocks"}
        move = palette.get("motion_movesteps")
        assert move is not None, sorted(str(k) for k in palette)
        categories = [e for e in elements if e["type"] == "category_menu_item"]
        assert any("Motion" in e["text"] for e in categories), categories
        canvas = next(e for e in elements if e["type"] == "canvas")
        self.checked["canvas"] = centre(canvas)
        sx, sy = centre(move)
        self.checked["drop"] = (sx + 360, sy + 40)
        return {
            "api": "drag_and_drop",
            "args": {"start_index": move["index"], "end_x": sx + 360, "end_y": sy + 40},
        }

    def second(self, obs: Observation) -> None:
        """After the drag: the new block is on the canvas; argument errors of §3."""
        assert obs.last is not None and obs.last["success"], obs.last
        assert obs.elements is not None
        sid, client = obs.session_id, obs.client
        data = client.composite(sid, "get_blocks_structure")["data"]
        on_canvas = [b for b in data["idToBlock"].values() if b["opcode"] == "motion_movesteps"]
        assert len(on_canvas) == 1, data["idToBlock"]
        block = on_canvas[0]
        for key in ("id", "position", "boundingBox", "parent", "next", "inputs", "fields"):
            assert key in block, block
        assert block["parent"] is None and block["next"] is None, block
        assert data["targetName"] == "Sprite1" and data["isStage"] is False, data
        self.types |= {e["type"] for e in obs.elements}
        assert "stage" in self.types, obs.elements
        names = [str(e.get("block_name")) for e in obs.elements if e["type"] == "blocks"]
        assert any(n.endswith(" on canvas") for n in names), names
        self.checked["structure"] = True
        # §3: fractional coordinates and missing fields are 422; a bad direction is INVALID_ARG
        for api, body in (
            ("click", {"x": 100.5, "y": 200}),
            ("drag_and_drop", {"start_x": 1, "start_y": 2, "end_x": 3.25, "end_y": 4}),
            ("click", {"y": 200}),
            ("type", {}),
            ("hotkey", {"keys": "ctrl"}),
        ):
            resp = client.request("POST", f"/sessions/{sid}/{api}", body=body)
            assert resp.status_code == 422, (api, body, resp.status_code, resp.text)
        bad = client.action(sid, "scroll", direction="sideways", amount=100)
        failed_with(strict(bad, sid, "scroll"), "INVALID_ARG")
        failed_with(strict(client.action(sid, "hotkey", keys=[]), sid, "hotkey"), "INVALID_ARG")
        failed_with(strict(client.action(sid, "key", key="NoSuchKey"), sid, "key"), "INVALID_ARG")
        # a whole float is an int (only a fractional one is refused)
        assert strict(client.action(sid, "move_to", x=600.0, y=500.0), sid, "move_to")["success"]
        self.checked["errors"] = True

    def __call__(self, obs: Observation) -> dict[str, Any]:
        if obs.turn == 0:
            return self.first(obs)
        if obs.turn == 1:
            self.second(obs)
            x, y = self.checked["drop"]
            free = (x + 150, y + 200)  # empty code area below the dropped block
            self.plan = [
                {"api": "click", "args": {"x": free[0], "y": free[1]}},
                {"api": "double_click", "args": {"x": free[0], "y": free[1]}},
                {"api": "move_to", "args": {"x": free[0] + 10, "y": free[1], "duration": 0.1}},
                {"api": "scroll", "args": {"direction": "down", "x": free[0], "y": free[1]}},
                {"api": "scroll", "args": {"direction": "up", "amount": 100}},
                {"api": "key", "args": {"key": "esc"}},
                {"api": "type", "args": {"text": "hi"}},
                {"api": "hotkey", "args": {"keys": ["ctrl", "a"]}},
                {"api": "hold_key", "args": {"key": "shift"}},
                {"api": "release_key", "args": {"key": "shift"}},
            ]
        if self.plan:
            return self.plan.pop(0)
        return {"api": "done"}


def test_primitive_episode(sw: Served) -> None:
    agent = Primitive()
    run = run_task(sw.client, TASK, INITIAL, agent, "primitive")
    assert agent.checked.get("structure") and agent.checked.get("errors"), agent.checked
    assert run.ended_by == "done"
    apis = [t.action["api"] for t in run.turns]
    assert sorted(set(apis)) == sorted(PRIMITIVES), apis
    for turn in run.turns:
        env = strict(turn.envelope, run.session_id, turn.action["api"])
        assert env["success"], env
    drag = run.turns[0]
    # agent_client turned start_index into the element's centre
    assert set(drag.action["args"]) == {"start_x", "start_y", "end_x", "end_y"}
    requested = drag.envelope["requested_action"]["args"]
    assert requested["duration"] == 0.5, requested  # defaults filled in, nulls left out
    click = next(t for t in run.turns if t.action["api"] == "click")
    assert click.envelope["requested_action"]["args"]["button"] == "left", click.envelope
    scroll = next(t for t in run.turns if t.action["api"] == "scroll")
    assert scroll.envelope["requested_action"]["args"]["amount"] == 100, scroll.envelope
    no_xy = run.turns[[t.action["api"] for t in run.turns].index("scroll") + 1]
    assert not {"x", "y"} & set(no_xy.envelope["requested_action"]["args"]), no_xy.envelope
    # the dragged block is in the exported project; the episode was evaluated (and fails)
    project = json.loads(zipfile.ZipFile(io.BytesIO(run.sb3)).read("project.json"))
    sprite = next(t for t in project["targets"] if t.get("name") == "Sprite1")
    assert [b["opcode"] for b in sprite["blocks"].values() if b.get("topLevel")] == [
        "motion_movesteps"
    ]
    assert run.evaluation["status"] == "success", run.evaluation
    assert run.success is False


def test_screenshot_and_elements_batch_shapes(sw: Served, shared: str) -> None:
    client = sw.client
    answer = client.call("GET", f"/sessions/{shared}/screenshot", params={"format": "base64"})
    assert answer["format"] == "base64"
    assert png_size(base64.b64decode(answer["screenshot"])) == (1280, 720)
    batch = client.elements_batch(shared)
    assert isinstance(batch["elapsed_time"], float), batch["elapsed_time"]
    assert batch["total_selectors"] == len(CLIENT_SELECTORS), batch["total_selectors"]
    # a bare selector is its own name
    bare = client.elements_batch(shared, [".scratchCategoryMenuItem"])
    assert bare["total_selectors"] == 1 and bare["elements"]
    assert {e["type"] for e in bare["elements"]} == {".scratchCategoryMenuItem"}


# ---- 3. single-step drag items in the drag runner's order --------------------------------------
def _item(item_id: str) -> dict[str, Any]:
    path = CLASSIC_DIAG / "single_step_drag_benchmark" / "tasks" / f"{item_id}.json"
    return json.loads(path.read_text())


def test_drag_items(sw_classic: Served) -> None:
    """Items built on classic, each given its published oracle answer, connect on the default
    (classic) server: a canvas block after a sprite switch and a code-area scroll, a palette
    variable block into an input; a drop far away does not (the whole fixture: bench_sw_drag)."""
    sw = sw_classic
    t1 = _item("T1_001")
    config = t1["evaluation_config"]
    state = config["workspace_state"]
    good = run_drag_item(sw.client, t1, config["drag_start_point"], config["first_valid_point"])
    assert good.passed, (good.drag, good.details, good.restore)
    assert good.restore is not None
    assert good.restore["scale"] == pytest.approx(state["scale"]), good.restore
    assert good.restore["scrollX"] == pytest.approx(state["scrollX"], abs=1), good.restore
    assert good.restore["scrollY"] == pytest.approx(state["scrollY"], abs=1), good.restore
    far = run_drag_item(sw.client, t1, config["drag_start_point"], (450, 620))
    assert far.drag["success"] is True and far.check_ok is False and not far.passed, far.details
    t2 = _item("T2_005")
    c2 = t2["evaluation_config"]
    flyout = run_drag_item(sw.client, t2, c2["drag_start_point"], c2["first_valid_point"])
    assert flyout.passed, (flyout.drag, flyout.details)
    assert flyout.target_id and not flyout.target_id.startswith("Cat-"), flyout.target_id
    assert flyout.details.get("variable") == "score", flyout.details


# ---- 4. composite errors and custom_js -----------------------------------------------------
def test_composite_errors_and_custom_js(sw: Served, shared: str) -> None:
    client, sid = sw.client, shared

    def run(api: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        return strict(client.composite(sid, api, args), sid, api)

    failed_with(run("fly_to_the_moon", {}), "UNSUPPORTED")
    failed_with(run("done"), "UNSUPPORTED")  # the catalog's done stays client-side
    # custom_js is off unless the server allows it (test_custom_js_escape_hatch)
    refused = failed_with(run("custom_js", {"fn": "() => 42"}), "UNSUPPORTED")
    assert "--allow-custom-js" in refused["error"]["message"], refused
    # the index cache: add_block clears it, set_block_field then answers INVALID_STATE
    assert run("get_blocks_pseudocode")["success"]
    added = run("add_block", {"blockType": "event_whenkeypressed"})
    assert added["success"] and added["data"]["connected"] is False, added
    set_key = {"blockIndex": 1, "fieldName": "KEY_OPTION", "value": "a"}
    failed_with(run("set_block_field", set_key), "INVALID_STATE")
    data = run("get_blocks_pseudocode")["data"]
    set_key["blockIndex"] = index_of(data, "event_whenkeypressed")
    updated = run("set_block_field", set_key)
    assert updated["success"] and updated["data"]["blockId"] == added["data"]["blockId"]
    assert updated["data"]["value"] == "a", updated
    fields = run("get_blocks_structure")["data"]["idToBlock"][added["data"]["blockId"]]["fields"]
    assert fields["KEY_OPTION"]["value"] == "a", fields
    # variables: {created}, then listed in targetVariables
    made = run("add_variable", {"name": "score", "scope": "all"})
    assert made["success"] and isinstance(made["data"]["created"], dict), made
    data = run("get_blocks_pseudocode")["data"]
    assert "score" in [v["name"] for v in data["targetVariables"]], data["targetVariables"]
    gone = run("delete_block", {"blockIndex": index_of(data, "event_whenkeypressed")})
    assert gone["success"], gone
    assert {"deleted", "index", "blockId", "blockInfo"} <= set(gone["data"]), gone
    assert run("get_blocks_pseudocode")["data"]["idxToBlock"] == {}


def test_select_category(sw: Served, shared: str) -> None:
    """§5 lists select_category{category|category_name}: the palette scrolls to it."""
    client, sid = sw.client, shared
    for args in ({"category": "Looks"}, {"category_name": "Sound"}):
        answer = strict(client.composite(sid, "select_category", args), sid, "select_category")
        assert answer["success"], answer
    names = [str(e.get("block_name")) for e in client.elements_batch(sid)["elements"]]
    assert any(n.startswith("sound_") for n in names), names


def test_evaluate_answers(sw: Served) -> None:
    """§7: the success and failed forms; only "browser" works; a missing script is a 500."""
    client = sw.client
    sid = client.create_session(record=None, quality=None)  # bound by its first evaluate
    ok = client.evaluate(sid, "sw_passes")
    assert ok["status"] == "success" and ok["message"] == "", ok
    assert ok["evaluation_method"] == "browser" and ok["result"]["success"] is True, ok
    assert "config {}" in str(ok["stdout"]), ok["stdout"]  # called with config {}
    other = client.create_session(record=None, quality=None)
    thrown = client.evaluate(other, "sw_throws")
    client.delete_session(other)
    assert thrown["status"] == "failed" and thrown["result"] == {}, thrown
    assert "kaboom" in str(thrown["error"]) and thrown["evaluation_method"] == "browser", thrown
    assert "about to throw" in str(thrown["stdout"]), thrown["stdout"]
    for body in (
        {"task_name": "sw_passes"},  # evaluation_method defaults to "node"
        {"task_name": "sw_passes", "evaluation_method": "node"},
        {"task_name": "no_such_script", "evaluation_method": "browser"},
    ):
        resp = client.request("POST", f"/sessions/{sid}/evaluate", body=body, timeout=120)
        assert resp.status_code == 500, (body, resp.status_code, resp.text)
    ignored: dict[str, Any] = {"sb3_file_name": "x.sb3", "timeout": 1}
    body = {"task_name": "sw_passes", "evaluation_method": "browser", **ignored}
    assert client.call("POST", f"/sessions/{sid}/evaluate", body=body)["status"] == "success"
    client.delete_session(sid)


def test_evaluate_needs_only_the_script(sw: Served) -> None:
    """§7: the script is api/evaluation_scripts/<task_name>.js; no task file is involved."""
    sid = sw.client.create_session(record=None, quality=None)
    answer = sw.client.evaluate(sid, ORPHAN)
    sw.client.delete_session(sid)
    assert answer["status"] == "success" and answer["result"]["success"] is True, answer


# ---- 5. sessions and projects --------------------------------------------------------------
def test_sessions_and_projects(sw: Served, shared: str) -> None:
    client, sid = sw.client, shared
    for unknown in ("0" * 32, "no-such-session"):
        for method, path in (
            ("GET", f"/sessions/{unknown}/screenshot"),
            ("POST", f"/sessions/{unknown}/click"),
            ("POST", f"/sessions/{unknown}/composite/execute"),
            ("DELETE", f"/sessions/{unknown}"),
        ):
            body: dict[str, Any] | None = {"x": 1, "y": 1} if path.endswith("click") else None
            if path.endswith("execute"):
                body = {"api": "get_blocks_pseudocode"}
            resp = client.request(method, path, body=body)
            assert resp.status_code == 404, (method, path, resp.status_code, resp.text)
            assert resp.text == f"'Session not found: {unknown}'", (method, path, resp.text)
            assert resp.headers["content-type"].startswith("text/plain"), resp.headers
    sb3 = client.export_project(sid, "shared.sb3")
    with zipfile.ZipFile(io.BytesIO(sb3)) as zf:
        project = json.loads(zf.read("project.json"))
    assert {t["name"] for t in project["targets"]} >= {"Stage", "Sprite1"}
    answer = client.call(
        "POST", f"/sessions/{sid}/export_project", params={"output_name": "again.sb3"}
    )
    assert answer["status"] == "success" and answer["filename"], answer
    assert answer["size"] == len(base64.b64decode(answer["data_base64"])), answer["size"]
    for _ in range(2):  # repeats are harmless (§8)
        assert isinstance(client.toggle_stage(sid), dict)
    # `shared` names its task: it loads only the task's start (test_sealed_sessions)
    closed = client.delete_session(sid)
    assert closed["status"] == "closed", closed
    resp = client.request("GET", f"/sessions/{sid}/screenshot", params={"format": "base64"})
    assert resp.status_code == 404 and resp.text == f"'Session not found: {sid}'", resp.text
    sid = client.create_session(record=None, quality=None)  # as the drag runner opens one
    loaded = client.load_project(sid, "T1_001.sb3")
    assert loaded["status"] == "success" and loaded["details"]["ok"], loaded
    assert "fallback" not in loaded["details"] or not loaded["details"]["fallback"], loaded
    # a missing project falls back to party.sb3 (§6): still 200
    missing = client.load_project(sid, "no_such_project.sb3")
    assert missing["status"] == "success", missing
    assert missing["details"].get("fallback"), missing
    targets = client.composite(sid, "get_blocks_pseudocode")["data"]["availableTargets"]
    assert "Sprite1" in {t["name"] for t in targets}  # party.sb3 here is the default project
    # without party.sb3 both loads fail: 500
    party = sw.root / "scratch-gui" / "static" / "party.sb3"
    aside = party.with_name("party.sb3.aside")
    party.rename(aside)
    try:
        resp = client.request(
            "POST", f"/sessions/{sid}/load_project", params={"project_name": "nope.sb3"}
        )
        assert resp.status_code == 500, (resp.status_code, resp.text)
    finally:
        aside.rename(party)
    assert client.delete_session(sid)["status"] == "closed"


def test_create_session_answer(sw: Served) -> None:
    resp = sw.client.request("POST", "/sessions", params={"record": "True", "quality": "low"})
    assert resp.status_code == 200, resp.text
    answer = resp.json()
    sid = answer["session_id"]
    sw.client.created.append(sid)
    try:
        assert re.fullmatch(r"[0-9a-f]{32}", sid), answer
        assert isinstance(answer["created_at"], int | float) and answer["is_recording"] is True
        # recording at low quality: the viewport is the video size, 854x480 (§2)
        assert png_size(sw.client.screenshot(sid, size=None)) == (854, 480)
    finally:
        closed = sw.client.delete_session(sid)
    assert closed["status"] == "closed", closed
    recording = closed["recording"]
    if recording is not None:
        assert recording["quality"] == "low" and recording["mime_type"], recording
        assert base64.b64decode(recording["data_base64"]), "empty recording"


def test_unknown_http_error_has_status_and_text(sw: Served) -> None:
    with pytest.raises(HttpError) as caught:
        sw.client.toggle_stage("f" * 32)
    assert caught.value.status == 404 and "Session not found" in caught.value.body


# ---- 6. sealed sessions: the tricks of issue 32 are refused ----------------------------------
def test_sealed_sessions(sw: Served, tmp_path: Path) -> None:
    """A session that names its task cannot load the golden, run JavaScript or be judged as
    another task; /episodes takes no task folder from outside the server's library."""
    client = sw.client
    sid = client.create_session(task_name=TASK)
    try:
        for forbidden in (sw.golden, "T1_001.sb3"):
            resp = client.request(
                "POST", f"/sessions/{sid}/load_project", params={"project_name": forbidden}
            )
            assert resp.status_code == 403 and "not a start" in resp.text, (forbidden, resp.text)
        client.load_project(sid, INITIAL)
        swap = "() => { window.studioBridge.saveProjectBase64 = async () => 'x'; }"
        refused = client.composite(sid, "custom_js", {"fn": swap})
        failed_with(refused, "UNSUPPORTED")
        resp = client.request(
            "POST",
            f"/sessions/{sid}/evaluate",
            body={"task_name": "sw_passes", "evaluation_method": "browser"},
        )
        assert resp.status_code == 403 and "evaluates only that task" in resp.text, resp.text
        honest = client.evaluate(sid, TASK)  # the untouched start fails, as it should
        assert honest["status"] == "success" and honest["result"]["success"] is False, honest
    finally:
        client.delete_session(sid)
    outside = make_task(tmp_path / "mine", task_id=TASK)
    for task in (str(outside), str(outside / "..") + "/mine"):
        resp = client.http.post(
            "/episodes",
            json={"task": task, "mode": "composite"},
            headers={"Authorization": f"Bearer {TOKEN}"},
        )
        assert resp.status_code == 404 and "only in the library" in resp.text, resp.text


# ---- 6. the studio records the sessions -----------------------------------------------------


def _report(runs: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """`studio report RUNS` as a user runs it (the command line, in this process)."""
    return studio_here("report", str(runs), *flags)


def test_sessions_are_recorded(sw: Served, shared: str) -> None:
    client = sw.client
    if not client.created:  # run alone: make one session
        sid = client.create_session(task_name=TASK)
        client.load_project(sid, INITIAL)
        client.delete_session(sid)
    live = client.request("GET", f"/sessions/{shared}/screenshot", params={"format": "base64"})
    if live.status_code == 200:
        client.delete_session(shared)
    runs = sorted(sw.runs.rglob("run.json"))
    assert len(runs) == len(client.created), ([str(p) for p in runs], client.created)
    out = _report(sw.runs, "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["rows"]
    assert rows, out.stdout


# ---- 7. the escape hatch: custom_js allowed, runs marked, the VM still judged --------------
def test_custom_js_escape_hatch(hatch: Served) -> None:
    client = hatch.client
    sid = client.create_session(task_name=TASK)
    client.load_project(sid, INITIAL)

    def run(api: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        return strict(client.composite(sid, api, args), sid, api)

    throw = "async () => { throw new Error('boom'); }"
    failed_with(run("custom_js", {"fn": throw}), "CUSTOM_JS_ERROR")
    failed_with(run("custom_js", {"fn": "42"}), "INVALID_JS_FN")
    assert run("custom_js", {"fn": "() => 42"})["data"] == {"value": 42}
    assert run("custom_js", {"fn": "() => null"})["data"] == {}
    assert run("custom_js", {"fn": "() => ({result: {a: 1}})"})["data"] == {"a": 1}
    odd = run("custom_js", {"fn": "() => ({success: false, api: 'x', b: 2})"})
    assert odd["success"] is True and odd["data"] == {"b": 2}, odd
    assert run("custom_js", {"code": "() => 7"})["data"] == {"value": 7}
    assert run("custom_js", {"function": "() => 8"})["data"] == {"value": 8}
    doubled = run("custom_js", {"fn": "({payload}) => payload.n * 2", "payload": {"n": 21}})
    assert doubled["data"] == {"value": 42}
    probe = "async ({vm, SB, ws, getVM, getWorkspace}) => ({vm: !!vm.runtime, ws: !!ws, "
    probe += "same: getWorkspace() === ws && getVM() === vm, sb: !!SB})"
    assert run("custom_js", {"fn": probe})["data"] == {
        "vm": True,
        "ws": True,
        "same": True,
        "sb": True,
    }
    # the trick: the page's export bridge and the VM's own save answer the golden project
    golden = base64.b64encode((hatch.root / "scratch-gui" / "static" / hatch.golden).read_bytes())
    swap = (
        "async ({vm}) => { const b64 = '" + golden.decode() + "';"
        " const blob = () => fetch('data:application/zip;base64,' + b64).then((r) => r.blob());"
        " window.studioBridge.saveProjectBase64 = async () => b64;"
        " vm.saveProjectSb3 = blob; Object.getPrototypeOf(vm).saveProjectSb3 = blob;"
        " vm.toJSON = () => '{}'; return true; }"
    )
    assert run("custom_js", {"fn": swap})["data"] == {"value": True}
    verdict = client.evaluate(sid, TASK)
    assert verdict["status"] == "success" and verdict["result"]["success"] is False, verdict
    with zipfile.ZipFile(io.BytesIO(client.export_project(sid, "x.sb3"))) as zf:
        project = json.loads(zf.read("project.json"))
    assert all(not t["blocks"] for t in project["targets"]), "the golden's scripts came back"
    # the watchdog: a function that never ends ends its session; DELETE answers, others go on
    other = client.create_session(record=None, quality=None)
    endless = failed_with(run("custom_js", {"fn": "() => { for (;;) {} }"}), "CUSTOM_JS_ERROR")
    assert "the session has ended" in endless["error"]["message"], endless
    resp = client.request("GET", f"/sessions/{sid}/screenshot", params={"format": "base64"})
    assert resp.status_code == 410, resp.text
    assert client.delete_session(sid)["status"] == "closed"
    client.load_project(other, "T1_001.sb3")
    client.delete_session(other)
    assert not [line for line in hatch.log if "Traceback" in line], "".join(hatch.log)
    out = _report(hatch.runs)
    assert out.returncode == 0, out.stderr
    assert "scratchworld [unsealed]" in out.stdout and "--allow-custom-js" in out.stdout, out.stdout

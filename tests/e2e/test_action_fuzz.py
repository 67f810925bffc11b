"""A fuzz of actions over the agent API against the real editor page: hundreds of random
primitive and composite actions (every kind, every screen region, keys that browsers bind to
"back" and "reload", indexes out of range, unknown blocks) leave the episode alive, and every
call answers 2xx or a named 4xx (never a 5xx).

`STUDIO_FUZZ_ACTIONS` sets the primitive episode's actions (default 300; the issue's 500 with
`STUDIO_FUZZ_ACTIONS=500`); the composite episode plays half as many. Seeded: a failure
replays. OCR is off (the DOM element list is enough to aim).
"""

from __future__ import annotations

import json
import os
import random
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from studio.services.core import paths
from tests.helpers.loop_thread import LoopThread

pytestmark = pytest.mark.browser

TOKEN = "fuzz-token"
ACTIONS = int(os.environ.get("STUDIO_FUZZ_ACTIONS", "300"))
W, H = 1280, 720
# Screen regions of the editor at 1280x720: menu bar, palette, code area, stage, sprite pane.
REGIONS = [(0, 0, 1280, 48), (0, 48, 310, 720), (310, 48, 960, 720), (960, 48, 1280, 410),
           (960, 410, 1280, 720)]  # fmt: skip
KEYS = ["Enter", "Escape", "Backspace", "Delete", "Tab", "ArrowLeft", "ArrowUp", "space", "a",
        "F5", "PageDown", "Home"]  # fmt: skip
HOTKEYS = [["Alt", "ArrowLeft"], ["Control", "r"], ["Control", "z"], ["Control", "a"],
           ["Shift", "Tab"], ["Control", "w"], ["Meta", "["], ["Control", "c"]]  # fmt: skip
OPCODES = ["motion_movesteps", "event_whenflagclicked", "control_repeat", "looks_say",
           "control_forever", "operator_add", "sensing_touchingobject", "not_a_block",
           "data_setvariableto", "control_if", "event_whenkeypressed", "pen_penDown"]  # fmt: skip


class Client:
    def __init__(self, url: str) -> None:
        self.url = url

    def __call__(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {TOKEN}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=300) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())


@pytest.fixture(scope="module")
def client(loop_thread: LoopThread, browser_pool: Any) -> Iterator[Client]:
    from studio.services.api.server import ApiServer
    from studio.services.episodes.manager import EpisodeManager

    before = os.environ.get("STUDIO_OCR")
    os.environ["STUDIO_OCR"] = "off"
    manager = EpisodeManager(browser_pool.server, pool=browser_pool, spare_pages=0)
    server = ApiServer(manager, TOKEN, library=paths.BUNDLED_TASKS)
    loop_thread.run(server.start())
    yield Client(server.url)
    loop_thread.run(server.close())
    loop_thread.run(manager.close())
    if before is None:
        os.environ.pop("STUDIO_OCR", None)
    else:
        os.environ["STUDIO_OCR"] = before


def _point(rng: random.Random) -> tuple[float, float]:
    x0, y0, x1, y1 = rng.choice(REGIONS)
    return round(rng.uniform(x0, x1 - 1), 1), round(rng.uniform(y0, y1 - 1), 1)


def _primitive(rng: random.Random, elements: int) -> dict[str, Any]:
    kind = rng.choice(["click", "click", "double_click", "drag_and_drop", "scroll", "scroll",
                       "type", "key", "hotkey", "bad"])  # fmt: skip
    if kind in ("click", "double_click"):
        if elements and rng.random() < 0.4:
            args: dict[str, Any] = {"index": rng.randrange(elements + 3)}  # some out of range
        else:
            x, y = _point(rng)
            args = {"x": x, "y": y}
        if kind == "click" and rng.random() < 0.2:
            args["button"] = rng.choice(["right", "middle"])
        return {"api": kind, "args": args}
    if kind == "drag_and_drop":
        (sx, sy), (ex, ey) = _point(rng), _point(rng)
        return {"api": kind, "args": {"start_x": sx, "start_y": sy, "end_x": ex, "end_y": ey}}
    if kind == "scroll":
        x, y = _point(rng)
        direction = rng.choice(["left", "left", "right", "up", "down"])
        return {"api": kind, "args": {"x": x, "y": y, "direction": direction,
                                      "amount": rng.choice([1, 5, 20, 50])}}  # fmt: skip
    if kind == "type":
        return {"api": kind, "args": {"text": rng.choice(["10", "hello", "-5.5", "🐱", ""])}}
    if kind == "key":
        return {"api": kind, "args": {"key": rng.choice(KEYS)}}
    if kind == "hotkey":
        return {"api": kind, "args": {"keys": rng.choice(HOTKEYS)}}
    return rng.choice(
        [  # refused: named 4xx
            {"api": "click", "args": {"x": 5000, "y": 10}},
            {"api": "scroll", "args": {"direction": "sideways"}},
            {"api": "fly", "args": {}},
            {"api": "key", "args": {"key": "NoSuchKey"}},
        ]
    )


def _composite(rng: random.Random, blocks: int) -> dict[str, Any]:
    kind = rng.choice(["add_block", "add_block", "connect_blocks", "set_block_field",
                       "delete_block", "detach_blocks", "select_sprite", "select_stage",
                       "add_variable", "add_list"])  # fmt: skip
    index = rng.randrange(max(1, blocks + 2))
    if kind == "add_block":
        return {"api": kind, "args": {"blockType": rng.choice(OPCODES)}}
    if kind == "connect_blocks":
        place = rng.choice([{"kind": "stack_after"}, {"kind": "stack_before"}, {"kind": "wrap"},
                            {"kind": "statement_into", "inputName": "SUBSTACK"},
                            {"kind": "value_into", "inputName": "STEPS"}])  # fmt: skip
        return {"api": kind, "args": {"sourceBlockIndex": index,
                                      "targetBlockIndex": rng.randrange(max(1, blocks + 2)),
                                      "placement": place}}  # fmt: skip
    if kind == "set_block_field":
        return {
            "api": kind,
            "args": {
                "blockIndex": index,
                "fieldName": rng.choice(["STEPS", "TIMES", "MESSAGE", "NOPE"]),
                "value": rng.choice([10, "x", -3]),
            },
        }
    if kind in ("delete_block", "detach_blocks"):
        return {"api": kind, "args": {"blockIndex": index}}
    if kind == "select_sprite":
        return {"api": kind, "args": {"name": rng.choice(["Cat", "Sprite1", "Nobody"])}}
    if kind in ("add_variable", "add_list"):
        return {"api": kind, "args": {"name": f"v{rng.randrange(5)}", "scope": "all"}}
    return {"api": kind, "args": {}}


def _play(client: Client, mode: str, actions: int, seed: int) -> list[tuple[int, Any]]:
    rng = random.Random(seed)
    status, created = client(
        "POST",
        "/episodes",
        {"task": "create_cat_walk", "mode": mode, "agent": "fuzz", "step_limit": actions + 5},
    )
    assert status == 201, created
    episode = created["id"]
    answers: list[tuple[int, Any]] = []
    count = 0
    try:
        for i in range(actions):
            if i % 10 == 0:
                status, obs = client("GET", f"/episodes/{episode}/observation")
                answers.append((status, obs if status >= 400 else "observation"))
                assert status == 200, obs
                count = len(obs.get("elements") or obs.get("blocks") or [])
            action = _primitive(rng, count) if mode == "primitive" else _composite(rng, count)
            status, body = client("POST", f"/episodes/{episode}/actions", action)
            answers.append((status, body if status >= 400 else action["api"]))
            assert status < 500, (i, action, body)
        status, obs = client("GET", f"/episodes/{episode}/observation")
        assert status == 200, obs  # alive after all of it
        # final: the result as it stands, whether or not the fuzz ended the episode (a running
        # episode's plain evaluate is a feedback turn, refused without a budget)
        status, result = client("POST", f"/episodes/{episode}/evaluate", {"final": True})
        assert status == 200, result
        assert result["total_tests"] > 0, (result.get("error"), result)  # the error first
    finally:
        client("DELETE", f"/episodes/{episode}")
    return answers


def _check_answers(answers: list[tuple[int, Any]]) -> None:
    for status, body in answers:
        assert 200 <= status < 300 or (
            400 <= status < 500 and isinstance(body, dict) and str(body.get("error", "")).strip()
        ), (status, body)


def test_random_primitive_actions_leave_the_episode_alive(client: Client) -> None:
    answers = _play(client, "primitive", ACTIONS, seed=44)
    _check_answers(answers)
    assert sum(s == 200 for s, _ in answers) > len(answers) // 2


def test_random_composite_actions_leave_the_episode_alive(client: Client) -> None:
    answers = _play(client, "composite", ACTIONS // 2, seed=45)
    _check_answers(answers)
    assert any(s == 422 for s, _ in answers)  # the refusals were named, not 5xx

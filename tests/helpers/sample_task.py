"""Small, valid task folders for tests: a stage, one sprite "Cat", a script with two tests."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

from studio.services.core.sb3 import build_sb3

CAT_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">'
    b'<rect width="40" height="40" rx="6" fill="#ff8c1a"/></svg>'
)
BACKDROP_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360">'
    b'<rect width="480" height="360" fill="#ffffff"/></svg>'
)

EVALUATE_JS = """\
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  return U.runTests(vm, [
    { name: 'flag moves the cat to x 100', run: async () => {
      U.greenFlag(vm); await U.waitForIdle(vm);
      const p = U.getPosition(vm, 'Cat');
      U.check(U.approx(p.x, 100), `x is ${p.x}`);
    }},
    { name: 'clicking the cat says Hello!', run: async () => {
      const says = U.recordSays(vm);
      await U.clickSprite(vm, 'Cat');
      U.check(await says.waitFor((t) => t === 'Hello!', 2000), 'the cat did not say Hello!');
    }},
  ], { cleanup });
};
"""


def _md5(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


def _costume(name: str, data: bytes, cx: int, cy: int) -> dict[str, Any]:
    return {
        "name": name,
        "assetId": _md5(data),
        "md5ext": f"{_md5(data)}.svg",
        "dataFormat": "svg",
        "rotationCenterX": cx,
        "rotationCenterY": cy,
        "bitmapResolution": 1,
    }


def _top(opcode: str, next_id: str | None, y: int) -> dict[str, Any]:
    return {
        "opcode": opcode,
        "next": next_id,
        "parent": None,
        "inputs": {},
        "fields": {},
        "shadow": False,
        "topLevel": True,
        "x": 0,
        "y": y,
    }


def _child(opcode: str, parent: str, next_id: str | None, inputs: dict[str, Any]) -> dict[str, Any]:
    return {
        "opcode": opcode,
        "next": next_id,
        "parent": parent,
        "inputs": inputs,
        "fields": {},
        "shadow": False,
        "topLevel": False,
    }


GOLDEN_BLOCKS: dict[str, Any] = {
    "flag": _top("event_whenflagclicked", "goto", 0),
    "goto": _child("motion_gotoxy", "flag", "move", {"X": [1, [4, "0"]], "Y": [1, [4, "0"]]}),
    "move": _child("motion_changexby", "goto", None, {"DX": [1, [4, "100"]]}),
    "click": _top("event_whenthisspriteclicked", "say", 200),
    "say": _child("looks_say", "click", None, {"MESSAGE": [1, [10, "Hello!"]]}),
}


def project_json(blocks: dict[str, Any] | None = None, sprite: str = "Cat") -> dict[str, Any]:
    stage = {
        "isStage": True,
        "name": "Stage",
        "variables": {},
        "lists": {},
        "broadcasts": {},
        "blocks": {},
        "comments": {},
        "currentCostume": 0,
        "costumes": [_costume("backdrop1", BACKDROP_SVG, 240, 180)],
        "sounds": [],
        "volume": 100,
        "layerOrder": 0,
        "tempo": 60,
        "videoTransparency": 50,
        "videoState": "on",
        "textToSpeechLanguage": None,
    }
    cat = {
        "isStage": False,
        "name": sprite,
        "variables": {},
        "lists": {},
        "broadcasts": {},
        "blocks": copy.deepcopy(blocks or {}),
        "comments": {},
        "currentCostume": 0,
        "costumes": [_costume("cat", CAT_SVG, 20, 20)],
        "sounds": [],
        "volume": 100,
        "layerOrder": 1,
        "visible": True,
        "x": 50,
        "y": 50,
        "size": 100,
        "direction": 90,
        "draggable": False,
        "rotationStyle": "all around",
    }
    return {
        "targets": [stage, cat],
        "monitors": [],
        "extensions": [],
        "meta": {"semver": "3.0.0", "vm": "0.2.0", "agent": "studio-tests"},
    }


def sb3_bytes(project: dict[str, Any]) -> bytes:
    assets = {f"{_md5(CAT_SVG)}.svg": CAT_SVG, f"{_md5(BACKDROP_SVG)}.svg": BACKDROP_SVG}
    return build_sb3(project, assets)


def write_sample_task(folder: Path, task_id: str = "cat-hello", sprite: str = "Cat") -> Path:
    """Write a create task whose golden project passes both tests and whose initial fails."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "initial.sb3").write_bytes(sb3_bytes(project_json({}, sprite)))
    (folder / "golden.sb3").write_bytes(sb3_bytes(project_json(GOLDEN_BLOCKS, sprite)))
    (folder / "evaluate.js").write_text(EVALUATE_JS, encoding="utf-8")
    task = {
        "id": task_id,
        "category": "create",
        "instruction": "When the green flag is clicked, move the cat to x 100. "
        "When the cat is clicked, it says Hello!",
        "evaluation": {"script": "evaluate.js", "timeout_s": 30},
    }
    (folder / "task.json").write_text(json.dumps(task, indent=2), encoding="utf-8")
    return folder


def write_broken_task(folder: Path) -> Path:
    """A task folder whose task.json is not valid JSON (line 3)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "task.json").write_text('{\n  "id": "broken",\n  "category": create\n}\n')
    return folder


def not_a_zip_sb3() -> bytes:
    return b"this is not a Scratch project"


def vm_refused_sb3() -> bytes:
    """A zip that passes the studio's own checks but that the Scratch VM refuses to load."""
    project = project_json(GOLDEN_BLOCKS)
    project["targets"][1]["blocks"] = 5
    return sb3_bytes(project)

"""Small task folders for tests: one sprite "Cat" that moves on the green flag."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from studio.services.sb3 import build_sb3

CAT_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">'
    b'<rect width="40" height="40" fill="#f80"/></svg>'
)
BACKDROP_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360">'
    b'<rect width="480" height="360" fill="#fff"/></svg>'
)

PASSING_SCRIPT = """module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  return U.runTests(vm, [
    { name: 'flag moves the Cat to x 100', run: async () => {
      U.greenFlag(vm);
      await U.waitForIdle(vm);
      const p = U.getPosition(vm, 'Cat');
      U.check(U.approx(p.x, 100), `x is ${p.x}`);
    }},
    { name: 'Cat exists', run: async () => { U.requireSprite(vm, 'Cat'); } },
  ], { cleanup });
};
"""


def _costume(name: str, data: bytes, cx: int, cy: int) -> dict[str, Any]:
    digest = hashlib.md5(data).hexdigest()
    return {
        "name": name,
        "assetId": digest,
        "md5ext": f"{digest}.svg",
        "dataFormat": "svg",
        "rotationCenterX": cx,
        "rotationCenterY": cy,
        "bitmapResolution": 1,
    }


def cat_project(dx: int = 100) -> bytes:
    """A project whose Cat goes to (0, 0) and then changes x by `dx` on the green flag."""
    blocks = {
        "flag": {
            "opcode": "event_whenflagclicked",
            "next": "goto",
            "parent": None,
            "inputs": {},
            "fields": {},
            "shadow": False,
            "topLevel": True,
            "x": 0,
            "y": 0,
        },
        "goto": {
            "opcode": "motion_gotoxy",
            "next": "move",
            "parent": "flag",
            "inputs": {"X": [1, [4, "0"]], "Y": [1, [4, "0"]]},
            "fields": {},
            "shadow": False,
            "topLevel": False,
        },
        "move": {
            "opcode": "motion_changexby",
            "next": None,
            "parent": "goto",
            "inputs": {"DX": [1, [4, str(dx)]]},
            "fields": {},
            "shadow": False,
            "topLevel": False,
        },
    }
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
    }
    cat = {
        "isStage": False,
        "name": "Cat",
        "variables": {},
        "lists": {},
        "broadcasts": {},
        "blocks": blocks,
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
    project = {
        "targets": [stage, cat],
        "monitors": [],
        "extensions": [],
        "meta": {"semver": "3.0.0", "vm": "0.2.0", "agent": "tests"},
    }
    assets = {}
    for target in (stage, cat):
        for c in target["costumes"]:
            assets[c["md5ext"]] = CAT_SVG if target is cat else BACKDROP_SVG
    return build_sb3(project, assets)


def make_task(
    folder: Path,
    task_id: str = "cat_walks",
    category: str = "create",
    script: str = PASSING_SCRIPT,
    timeout_s: float = 20,
    **fields: Any,
) -> Path:
    """Write a valid task folder: golden moves x to 100, initial moves it to 10."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "golden.sb3").write_bytes(cat_project(100))
    (folder / "initial.sb3").write_bytes(cat_project(10))
    (folder / "evaluate.js").write_text(script, encoding="utf-8")
    task = {
        "id": task_id,
        "category": category,
        "instruction": "Make the Cat walk to x 100.",
        "evaluation": {"script": "evaluate.js", "timeout_s": timeout_s},
        **fields,
    }
    (folder / "task.json").write_text(json.dumps(task, indent=2), encoding="utf-8")
    return folder

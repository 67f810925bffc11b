"""Small task folders for tests: one sprite "Cat" that moves on the green flag."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tests.helpers.sample_task import project_json, sb3_bytes

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


def cat_project(dx: int = 100) -> bytes:
    """A project whose Cat goes to (0, 0) and then changes x by `dx` on the green flag."""
    blocks = {
        "flag": {"opcode": "event_whenflagclicked", "next": "goto", "parent": None, "inputs": {},
                 "fields": {}, "shadow": False, "topLevel": True, "x": 0, "y": 0},
        "goto": {"opcode": "motion_gotoxy", "next": "move", "parent": "flag",
                 "inputs": {"X": [1, [4, "0"]], "Y": [1, [4, "0"]]}, "fields": {},
                 "shadow": False, "topLevel": False},
        "move": {"opcode": "motion_changexby", "next": None, "parent": "goto",
                 "inputs": {"DX": [1, [4, str(dx)]]}, "fields": {}, "shadow": False,
                 "topLevel": False},
    }  # fmt: skip
    return sb3_bytes(project_json(blocks))


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


def copy_bundled(name: str, where: Path) -> Any:
    """The bundled task `name` copied into `where`, loaded (a TaskFolder)."""
    from studio.services.core import paths
    from studio.services.core.store import load_task

    return load_task(shutil.copytree(paths.BUNDLED_TASKS / name, where / name))

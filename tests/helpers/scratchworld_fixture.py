"""A small ScratchWorld-layout task set of our own (no published data is used).

Six tasks over the four categories: a default initial project shared by two create tasks, a debug
family sharing `pong_starter_golden.sb3`, a task without golden, an extend task whose timeout is
written in milliseconds and that carries an unknown field, a compute task with test_cases, two
task list files, and a helper library `evaluation_utils.js` in the ScratchWorld style.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.helpers.tasks import cat_project

TASKS = "tasks"
SCRIPTS = "scratch-bench-api/api/evaluation_scripts"
PROJECTS = "scratch-gui/static"
MARK = "scratchworld-fixture-helpers"

# The set's helper library. `class` is how such libraries are commonly written; `var` is the
# same library declared in a way that also parses inside a function taking `EvaluationUtils`.
_HELPER_BODY = """
  static get LIBRARY() { return '%(mark)s'; }
  static wait(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }
  static getSprite(vm, name) {
    const t = vm.runtime.getSpriteTargetByName(name);
    if (!t) throw new Error(`sprite ${name} not found`);
    return t;
  }
  static async runTest(details, name, fn) {
    const t0 = Date.now();
    try {
      await fn();
      details.push({ name, passed: true, timeout: false, duration_ms: Date.now() - t0,
                     error: null, meta: {} });
    } catch (e) {
      details.push({ name, passed: false, timeout: false, duration_ms: Date.now() - t0,
                     error: String((e && e.message) || e), meta: {} });
    }
  }
  static result(details) {
    const passed = details.filter((d) => d.passed).length;
    return { success: passed === details.length, passed_tests: passed,
             total_tests: details.length,
             partial_success_rate: details.length ? passed / details.length : 0, details };
  }
"""
HELPER_STYLES = {
    "class": "/* ScratchWorld-style helpers */\nclass EvaluationUtils {%s}\n"
    "module.exports = EvaluationUtils;\n",
    "var": "/* ScratchWorld-style helpers */\nvar EvaluationUtils = class {%s};\n"
    "module.exports = EvaluationUtils;\n",
}


def helper_source(style: str = "var") -> str:
    return HELPER_STYLES[style] % (_HELPER_BODY % {"mark": MARK})


def script_source(x: int, published_config: bool = False) -> str:
    """A task script: the set's helpers are window.EvaluationUtils; the Cat ends at x. With
    `published_config` it also checks that it is called as the published service calls it."""
    config_test = ""
    if published_config:
        config_test = """
  await U.runTest(details, 'config is {} as the published service passes it', async () => {
    if (JSON.stringify(config) !== '{}') throw new Error('config: ' + JSON.stringify(config));
  });"""
    return f"""module.exports = async (vm, config, cleanup) => {{
  const U = window.EvaluationUtils;
  const details = [];
  await U.runTest(details, 'helpers are the set\\'s own', async () => {{
    if (U.LIBRARY !== '{MARK}') throw new Error('wrong helper library: ' + U.LIBRARY);
  }});
  await U.runTest(details, 'green flag moves the Cat to x {x}', async () => {{
    vm.greenFlag();
    await U.wait(300);
    const cat = U.getSprite(vm, 'Cat');
    if (Math.abs(cat.x - {x}) > 0.5) throw new Error(`x is ${{cat.x}}`);
  }});{config_test}
  cleanup();
  return U.result(details);
}};
"""


@dataclass
class Spec:
    """One fixture task: its JSON object, initial project and golden (dx of the Cat)."""

    category: str
    raw: dict[str, Any]
    initial: str
    initial_dx: int
    golden: str | None
    golden_dx: int | None
    indent: int = 2


def _raw(name: str, kind: str, initial: str, timeout: float, **extra: Any) -> dict[str, Any]:
    ev = {"function": name, "timeout": timeout, "description": f"Checks {name}."}
    ev.update(extra.pop("evaluation", {}))
    return {
        "name": name,
        "description": f"Fixture task {name}.",
        "type": kind,
        "instruction": f"Do what {name} asks: make the Cat walk.",
        "initial_project": initial,
        "evaluation": ev,
        **extra,
    }


SPECS = [
    Spec(
        "create",
        _raw("cat_walk_right", "create", "default_project.sb3", 20),
        "default_project.sb3",
        0,
        "cat_walk_right_golden.sb3",
        100,
    ),
    Spec(
        "create",
        _raw("cat_walk_left", "create", "default_project.sb3", 20),
        "default_project.sb3",
        0,
        None,
        None,
    ),
    Spec(
        "debug",
        _raw(
            "pong_starter_paddle_moving_error", "debug", "pong_starter_paddle_moving_error.sb3", 30
        ),
        "pong_starter_paddle_moving_error.sb3",
        7,
        "pong_starter_golden.sb3",
        50,
        indent=4,
    ),
    Spec(
        "debug",
        _raw("pong_starter_ball_speed_error", "debug", "pong_starter_ball_speed_error.sb3", 30),
        "pong_starter_ball_speed_error.sb3",
        8,
        "pong_starter_golden.sb3",
        50,
    ),
    Spec(
        "extend",
        _raw(
            "cat_extend_jump",
            "extend",
            "cat_extend_jump.sb3",
            15000,
            difficulty_level="easy",
            instruction="Lass die Katze springen – höher!",
        ),
        "cat_extend_jump.sb3",
        20,
        "cat_extend_jump_golden.sb3",
        30,
    ),
    Spec(
        "compute",
        _raw(
            "compute_sum_list",
            "compute",
            "compute_sum_list.sb3",
            25,
            evaluation={
                "test_cases": [{"input": [1, 2, 3], "output": 6}, {"input": "4 5", "output": "9"}]
            },
        ),
        "compute_sum_list.sb3",
        11,
        "compute_sum_list_golden.sb3",
        40,
    ),
]
# The compute task's script also checks that it gets config {}, as the published service
# passes it.
PUBLISHED_CONFIG_CHECK = {"compute_sum_list"}


@dataclass
class ScratchWorldSet:
    """Where the fixture set lives and what import should find in it."""

    root: Path

    @property
    def tasks(self) -> Path:
        return self.root / TASKS

    @property
    def scripts(self) -> Path:
        return self.root / SCRIPTS

    @property
    def projects(self) -> Path:
        return self.root / PROJECTS

    ids = tuple(s.raw["name"] for s in SPECS)
    without_golden = ("cat_walk_left",)

    def files(self) -> dict[str, bytes]:
        """Every file of the set, by path relative to the root."""
        return {
            p.relative_to(self.root).as_posix(): p.read_bytes()
            for p in sorted(self.root.rglob("*"))
            if p.is_file()
        }


def _write(path: Path, data: bytes | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)


def build_set(root: Path, helper_style: str = "var") -> ScratchWorldSet:
    """Write the fixture set under `root` and return it."""
    sw = ScratchWorldSet(root)
    for spec in SPECS:
        name = spec.raw["name"]
        text = json.dumps(spec.raw, indent=spec.indent, ensure_ascii=False)
        _write(sw.tasks / spec.category / f"{name}.json", text + ("\n" if spec.indent == 2 else ""))
        golden_x = 100 if spec.golden_dx is None else spec.golden_dx
        _write(sw.scripts / f"{name}.js", script_source(golden_x, name in PUBLISHED_CONFIG_CHECK))
        _write(sw.projects / spec.initial, cat_project(spec.initial_dx))
        if spec.golden and spec.golden_dx is not None:
            _write(sw.projects / spec.golden, cat_project(spec.golden_dx))
    _write(sw.scripts / "evaluation_utils.js", helper_source(helper_style))
    all_tasks: dict[str, Any] = {"version": "1.0"}
    for kind in ("create", "debug", "extend", "compute"):
        all_tasks[kind] = [f"{s.raw['name']}.json" for s in SPECS if s.category == kind]
    _write(sw.tasks / "all_tasks.json", json.dumps(all_tasks, indent=4) + "\n")
    debug_only = {"debug": ["pong_starter_ball_speed_error"]}
    _write(sw.tasks / "debug_subset.json", json.dumps(debug_only, indent=2) + "\n")
    return sw


BROKEN = {
    "create/bad_json.json": '{ "name": "bad_json", "type": ',
    "debug/no_instruction.json": {
        k: v
        for k, v in _raw("no_instruction", "debug", "default_project.sb3", 20).items()
        if k != "instruction"
    },
    "extend/missing_script.json": _raw("missing_script", "extend", "default_project.sb3", 20),
    "compute/missing_initial.json": _raw("missing_initial", "compute", "nowhere.sb3", 20),
    "create/broken_sb3.json": _raw("broken_sb3", "create", "broken.sb3", 20),
}


def add_broken(sw: ScratchWorldSet) -> None:
    """Add one task file per kind of bad input (see BROKEN) and the files they need."""
    for rel, content in BROKEN.items():
        text = content if isinstance(content, str) else json.dumps(content, indent=2)
        _write(sw.tasks / rel, text)
    for name in ("no_instruction", "missing_initial", "broken_sb3"):
        _write(sw.scripts / f"{name}.js", script_source(100))
    _write(sw.projects / "broken.sb3", b"PK\x03\x04 not really a zip")

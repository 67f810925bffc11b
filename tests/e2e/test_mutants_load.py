"""Mutants load into the real Scratch VM: one mutant per operator, on realistic projects.

The task script checks, from inside the VM, that every next / parent / input reference of
every loaded block resolves, then runs the green flag briefly. The projects are the golden
projects of the bundled task library and the hand-made project of the unit tests.

All mutants go through one evaluation: the page loads the hand-made project as any evaluated
project, and the script then loads each mutant in turn with the same `vm.loadProject` (each
replaces the one before) and checks it the same way; a page load per mutant would cost a
second each and show nothing more. Each mutant is also what an evaluation accepts before a page
sees it (`check_sb3`). The dangling-block test goes through the page's own load.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from studio.models.mutation import Mutant
from studio.services.checking.mutation import OPERATORS, generate_mutants, mutant_sb3
from studio.services.core.sb3 import check_sb3, read_project_json
from studio.services.core.store import load_task
from tests.helpers.project_checks import project_sb3, rich_project
from tests.helpers.tasks import make_task

pytestmark = pytest.mark.browser

TASKS = Path(__file__).resolve().parents[2] / "tasks"
# PROJECTS: [label, base64 of the .sb3] of the projects loaded after the page's own
LOAD_SCRIPT = """const PROJECTS = __PROJECTS__;

function problemsOf(vm) {
  const problems = [];
  for (const target of vm.runtime.targets) {
    const blocks = target.blocks._blocks;
    for (const [id, b] of Object.entries(blocks)) {
      const where = `${target.getName()} ${id} (${b.opcode})`;
      if (b.next && !blocks[b.next]) problems.push(`${where}: next ${b.next}`);
      if (b.parent && !blocks[b.parent]) problems.push(`${where}: parent ${b.parent}`);
      for (const [name, input] of Object.entries(b.inputs || {})) {
        if (input.block && !blocks[input.block]) problems.push(`${where}: ${name} block`);
        if (input.shadow && !blocks[input.shadow]) problems.push(`${where}: ${name} shadow`);
      }
    }
  }
  return problems;
}

async function checkAndRun(vm) {
  const problems = problemsOf(vm);
  vm.greenFlag();
  await new Promise((resolve) => setTimeout(resolve, 50));
  vm.stopAll();
  return problems;
}

const detail = (name, problems) =>
  ({ name, passed: problems.length === 0, error: problems.slice(0, 5).join('; ') || null });

module.exports = async (vm, config, cleanup) => {
  const details = [
    { name: 'loaded', passed: true },
    detail('blocks resolve in the VM', await checkAndRun(vm)),
  ];
  for (const [label, b64] of PROJECTS) {
    let problems;
    try {
      await vm.loadProject(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer);
      problems = await checkAndRun(vm);
    } catch (err) {
      problems = [`the VM did not load it: ${err}`];
    }
    details.push(detail(label, problems));
  }
  cleanup();
  return { success: details.every((d) => d.passed), details };
};
"""


def load_script(projects: list[tuple[str, bytes]]) -> str:
    """The load check, with `projects` (label, .sb3 bytes) to load after the page's own."""
    listed = [[label, base64.b64encode(data).decode("ascii")] for label, data in projects]
    return LOAD_SCRIPT.replace("__PROJECTS__", json.dumps(listed))


def _bundled() -> list[Path]:
    if not TASKS.is_dir():
        return []
    return sorted(p for p in TASKS.iterdir() if (p / "golden.sb3").is_file())


def _cases() -> list[tuple[str, bytes, Mutant]]:
    """Every operator on the hand-made project; on the bundled goldens, every operator that has
    a site somewhere and every golden at least once (one mutant per pair, to stay quick)."""
    cases = []
    golden_bytes = project_sb3(rich_project())
    for op in OPERATORS:
        for m in generate_mutants(rich_project(), None, max_mutants=1, seed=0, operators=[op]):
            cases.append(("hand-made", golden_bytes, m))
    covered: set[str] = set()
    for folder in _bundled():
        data = (folder / "golden.sb3").read_bytes()
        golden = read_project_json(data)
        initial = read_project_json((folder / "initial.sb3").read_bytes())
        mutants = generate_mutants(golden, initial, max_mutants=1000, seed=0)
        fresh = [m for m in mutants if m.operator not in covered]
        picked = {m.operator: m for m in reversed(fresh)}  # the first mutant of each operator
        for m in picked.values() or mutants[:1]:
            cases.append((folder.name, data, m))
            covered.add(m.operator)
    return cases


def test_mutants_of_every_operator_load(
    tmp_path: Path,
    evaluate: Any,
) -> None:
    cases = _cases()
    assert {m.operator for name, _, m in cases if name == "hand-made"} == {
        op.name for op in OPERATORS
    }
    if _bundled():
        assert {name for name, _, _ in cases} >= {p.name for p in _bundled()}
    mutants = [(f"{name} {m.id}", mutant_sb3(data, m)) for name, data, m in cases]
    for label, data in mutants:
        check_sb3(data, label)  # raises ProjectFileError for what an evaluation refuses
    # the limit covers loading every mutant in turn on a busy machine; it is not waited for
    script = load_script(mutants)
    entry = load_task(make_task(tmp_path / "task", script=script, timeout_s=180))
    result = evaluate(entry, project_sb3(rich_project()), project_name="hand-made.sb3")
    assert result.error is None, result.error
    assert [d.name for d in result.details[2:]] == [label for label, _ in mutants]
    failures = [f"{d.name}: {d.error}" for d in result.details if not d.passed]
    assert not failures and result.success, "\n".join(failures)


def test_the_load_check_catches_a_dangling_block(tmp_path: Path, evaluate: Any) -> None:
    """The VM loads dangling references silently; the script must be what notices them, on the
    project the page loads and on a project it loads itself."""
    broken = rich_project()
    del next(t for t in broken["targets"] if t["name"] == "Cat")["blocks"]["c-show"]
    data = project_sb3(broken)
    entry = load_task(make_task(tmp_path / "task", script=load_script([("again", data)])))
    result = evaluate(entry, data, project_name="m.sb3")
    assert result.error is None and not result.success
    assert [d.name for d in result.details] == ["loaded", "blocks resolve in the VM", "again"]
    assert "next c-show" in (result.details[1].error or "")
    assert "next c-show" in (result.details[2].error or "")

"""Mutants load into the real Scratch VM: one mutant per operator, on realistic projects.

The task script checks, from inside the VM, that every next / parent / input reference of
every loaded block resolves, then runs the green flag briefly. The projects are the golden
projects of the bundled task library and the hand-made project of the unit tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from studio.models.mutation import Mutant
from studio.services.mutation import OPERATORS, generate_mutants, mutant_sb3
from studio.services.sb3 import read_project_json
from studio.services.store import load_task
from tests.helpers.project_checks import project_sb3, rich_project
from tests.helpers.tasks import make_task

pytestmark = pytest.mark.browser

TASKS = Path(__file__).resolve().parents[2] / "tasks"
LOAD_SCRIPT = """module.exports = async (vm, config, cleanup) => {
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
  vm.greenFlag();
  await new Promise((resolve) => setTimeout(resolve, 50));
  cleanup();
  return { success: problems.length === 0, details: [
    { name: 'loaded', passed: true },
    { name: 'blocks resolve in the VM', passed: problems.length === 0,
      error: problems.slice(0, 5).join('; ') || null },
  ] };
};
"""


def _bundled() -> list[Path]:
    if not TASKS.is_dir():
        return []
    return sorted(p for p in TASKS.iterdir() if (p / "golden.sb3").is_file())


def _cases() -> list[tuple[str, bytes, Mutant]]:
    """Every operator on the hand-made project; on the bundled goldens, every operator that has
    a site somewhere and every golden at least once (one evaluation per pair, to stay quick)."""
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


@pytest.fixture(scope="module")
def load_task_entry(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_task(make_task(tmp_path_factory.mktemp("load") / "task", script=LOAD_SCRIPT))


def test_mutants_of_every_operator_load(load_task_entry: Any, evaluate: Any) -> None:
    cases = _cases()
    assert {m.operator for name, _, m in cases if name == "hand-made"} == {
        op.name for op in OPERATORS
    }
    if _bundled():
        assert {name for name, _, _ in cases} >= {p.name for p in _bundled()}
    failures = []
    for name, data, mutant in cases:
        result = evaluate(load_task_entry, mutant_sb3(data, mutant), project_name="m.sb3")
        if result.error is not None or not result.success:
            problems = result.error or [d.error for d in result.details if not d.passed]
            failures.append(f"{name} {mutant.id}: {problems}")
    assert not failures, "\n".join(failures)


def test_the_load_check_catches_a_dangling_block(load_task_entry: Any, evaluate: Any) -> None:
    """The VM loads dangling references silently; the script must be what notices them."""
    broken = rich_project()
    del next(t for t in broken["targets"] if t["name"] == "Cat")["blocks"]["c-show"]
    result = evaluate(load_task_entry, project_sb3(broken), project_name="m.sb3")
    assert result.error is None and not result.success
    assert "next c-show" in (result.details[1].error or "")

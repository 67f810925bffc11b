"""An evaluation page serves the next evaluation only when nothing of the last one is left.

One shared pool, evaluations in a row: after a script that pollutes prototypes, sets globals,
adds listeners, writes storage, leaves timers and intervals, replaces VM methods or throws
mid-run, a probe script's verdicts are those of a clean page. What can be undone by
construction (timers cancelled, a fresh VM from fresh classes) leaves the page in service: the
probe runs on the same page; what cannot (the realm, listeners, storage) closes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from studio.models.evaluation import Clock
from studio.services.core.store import load_task
from studio.services.runtime import page_reuse
from tests.helpers.tasks import make_task

pytestmark = pytest.mark.browser

# Sees every contamination the polluters below try; each test passes on a clean page.
PROBE = """module.exports = async (vm) => {
  const wait = (ms) => new Promise((r) => setTimeout(r, ms));
  await wait(200); // leftovers of an earlier run would fire now
  window.postMessage('ping', '*');
  window.dispatchEvent(new Event('resize'));
  await wait(200);
  const seen = {
    prototypes: Object.prototype.polluted === undefined && [1].includes(2) === false,
    globals: typeof window.leftover === 'undefined',
    listeners: window.heard === undefined,
    timers: window.ticks === undefined,
    storage: localStorage.getItem('k') === null && sessionStorage.getItem('k') === null,
    vm: typeof vm.loadProject === 'function' && vm.runtime.targets.length === 2 &&
      EvaluationUtils.getPosition(vm, 'Cat') !== null,
  };
  return { success: Object.values(seen).every(Boolean),
           details: Object.entries(seen).map(([name, passed]) => ({ name, passed })) };
};
"""

POLLUTERS = {
    "prototypes": """Object.prototype.polluted = 1;
      Array.prototype.includes = function () { return true; };""",
    "globals": "window.leftover = 1; globalThis.leftover2 = {};",
    "listeners": """window.addEventListener('message', () => { window.heard = 1; });
      window.onresize = () => { window.heard = 1; };""",
    "storage": "localStorage.setItem('k', 'v'); sessionStorage.setItem('k', 'v');",
    "timers": """setInterval(() => { window.ticks = (window.ticks || 0) + 1; }, 100);
      setTimeout(() => { window.ticks = 1; }, 150);
      requestAnimationFrame(() => setTimeout(() => { window.ticks = 1; }, 100));""",
    "vm methods": """vm.constructor.prototype.loadProject = null;
      Object.getPrototypeOf(vm.runtime).getSpriteTargetByName = () => null;
      vm.runtime.targets.length = 0;""",
    "throws": """setInterval(() => { window.ticks = 1; }, 100);
      throw new Error('polluter fails mid-run');""",
}
KEPT = {"timers", "vm methods", "throws"}  # undone by construction: the page stays in service


def _task(tmp_path: Path, name: str, body: str) -> Any:
    script = f"module.exports = async (vm) => {{\n{body}\nreturn true;\n}};\n"
    return load_task(make_task(tmp_path / name.replace(" ", "_"), script=script))


@pytest.mark.parametrize("clock", [Clock.VIRTUAL, Clock.REAL])
def test_nothing_an_evaluation_does_reaches_the_next(
    tmp_path: Path, evaluate: Any, browser_pool: Any, clock: Clock
) -> None:
    probe = load_task(make_task(tmp_path / "probe", script=PROBE))
    first = evaluate(probe, clock=clock)
    assert first.success, [(d.name, d.passed) for d in first.details] or first.error
    for name, body in POLLUTERS.items():
        reused, discards = browser_pool.reused, sum(browser_pool.discards.values())
        evaluate(_task(tmp_path, name, body), clock=clock)
        after = evaluate(probe, clock=clock)
        assert after.error is None, (name, after.error)
        assert [(d.name, d.passed) for d in after.details if not d.passed] == [], name
        if name in KEPT:  # the polluter's page served the probe
            assert browser_pool.reused >= reused + 2, (name, browser_pool.discards)
        else:  # the polluter's page was closed; the probe ran on another
            assert sum(browser_pool.discards.values()) > discards, name


# Sets a global once the script has returned: a promise chain longer than the runner's own
# awaits between the script's end and the page's check. It starts after the project's own real
# work (decodes) is over, so that no real turn of the page comes between them by chance (the
# runner waits for pending real work with a timer). The page's check, made at the end of the
# run (issue 39), waits for a real turn of the page first, so the global is there when it looks.
LATE = """await new Promise((r) => setTimeout(r, 500));
  let n = 0;
  const later = () => {
    if (++n < 200000) Promise.resolve().then(later); else window.leftover = 1;
  };
  later();"""


def test_a_change_made_after_the_script_returned_is_caught(
    tmp_path: Path, evaluate: Any, browser_pool: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(page_reuse, "QUICK_CHECK", True)  # the page checks itself in the run
    probe = load_task(make_task(tmp_path / "probe", script=PROBE))
    assert evaluate(probe).success
    discards = sum(browser_pool.discards.values())
    late = evaluate(_task(tmp_path, "late", LATE))
    assert late.error is None, late.error
    after = evaluate(probe)
    assert [(d.name, d.passed) for d in after.details if not d.passed] == []
    assert sum(browser_pool.discards.values()) > discards, browser_pool.discards

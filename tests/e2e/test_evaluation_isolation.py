"""Each evaluation is isolated and every limit says where it comes from.

- No storage is shared between evaluations (cookies, local and session storage, IndexedDB);
  a page reaches no origin but its own, opens no popup and cannot navigate away; its console
  output is bounded.
- The virtual clock serves what browsers serve (Date() without new, whole Date.now(), a
  busy-wait on the clock ends) and names what it cannot serve; the studio then evaluates in
  real time and says why.
- A script that runs too long is stopped by the limit of its task's convention, and the
  message names the limit and its source (task file or the published convention's cap).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.models.evaluation import Clock, ErrorKind
from studio.services.core.store import load_task
from studio.services.runtime.clock_agreement import AgreementCache, evaluate_on_chosen_clock
from studio.services.runtime.evaluator import MAX_CONSOLE_CHARS, MAX_CONSOLE_LINES, Evaluator
from tests.helpers.tasks import make_task

pytestmark = pytest.mark.browser

PROBE = """module.exports = async (vm, config, cleanup) => {
  const meta = {};
  meta.before = [localStorage.getItem('k'), document.cookie, sessionStorage.getItem('k')];
  localStorage.setItem('k', 'x'); sessionStorage.setItem('k', 'x');
  document.cookie = 'k=x; max-age=9999';
  meta.idb = await new Promise((done) => {
    const req = indexedDB.open('probe');
    req.onupgradeneeded = () => { req.result.createObjectStore('s'); done('created'); };
    req.onsuccess = () => done('existed');
    req.onerror = () => done('error');
  });
  for (const url of ['http://127.0.0.1:9/x', 'http://example.com/']) {
    try { await fetch(url); meta[url] = 'reached'; } catch (e) { meta[url] = 'refused'; }
  }
  meta.popup = String(window.open('http://127.0.0.1:9/'));
  for (let i = 0; i < 800; i++) console.log(i + ' ' + 'x'.repeat(3000));
  return { success: true, details: [{ name: 'probe', passed: true, meta }] };
};
"""


def test_evaluations_share_no_storage_and_reach_nothing_else(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    entry = load_task(make_task(tmp_path / "t", script=PROBE))
    for _ in range(2):  # the second run would see the first one's storage if it were kept
        result = evaluate(entry, clock=Clock.VIRTUAL)
        assert result.error is None, result.error
        meta = result.details[0].meta
        assert meta["before"] == [None, "", None] and meta["idb"] == "created", meta
        assert meta["http://127.0.0.1:9/x"] == meta["http://example.com/"] == "refused"
        assert meta["popup"] == "null"
        assert len(result.console) <= MAX_CONSOLE_LINES + 1
        assert sum(map(len, result.console)) <= MAX_CONSOLE_CHARS + 100
        assert result.console[-1].endswith("more console lines were not kept")


def test_a_script_that_navigates_away_is_named_and_the_next_run_works(
    tmp_path: Path,
    evaluate,  # type: ignore[no-untyped-def]
) -> None:
    away = "module.exports = async () => { location.href = 'http://127.0.0.1:9/'; "
    away += "await new Promise((r) => setTimeout(r, 5000)); return true; };"
    result = evaluate(load_task(make_task(tmp_path / "a", script=away)), clock=Clock.REAL)
    assert result.error is not None and "navigated the evaluation page away" in result.error.message
    assert evaluate(load_task(make_task(tmp_path / "b")), clock=Clock.VIRTUAL).success


BROWSER_LIKE = """module.exports = async (vm) => {
  const t0 = Date.now();
  while (Date.now() - t0 < 150) { /* busy-wait, as some published scripts do */ }
  const waited = Date.now() - t0;
  const p0 = performance.now();
  while (performance.now() - p0 < 50) { /* busy-wait */ }
  const checks = {
    'Date() without new is a string': typeof Date() === 'string' && Date().length > 20,
    'Date.now() is whole': Number.isInteger(Date.now()),
    'new Date() is a Date': new Date() instanceof Date && !isNaN(new Date().getTime()),
    'Date.parse and Date.UTC work': Date.parse('2000-01-01T00:00:00Z') === Date.UTC(2000, 0, 1),
    'a busy-wait on the clock ends': waited >= 150 && waited < 5000,
  };
  const details = Object.entries(checks).map(([name, passed]) => ({ name, passed }));
  return { success: true, details };
};
"""


def test_virtual_clock_serves_what_browsers_serve(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    entry = load_task(make_task(tmp_path / "t", script=BROWSER_LIKE))
    for clock in (Clock.VIRTUAL, Clock.REAL):
        result = evaluate(entry, clock=clock)
        assert result.error is None, result.error
        assert [d.name for d in result.details if not d.passed] == [], (clock, result.details)
        assert result.clock_hazards == []


MARKS = """module.exports = async (vm) => {
  performance.mark('start');
  await new Promise((r) => setTimeout(r, 200));
  const m = performance.measure('waited', 'start');
  const timeline = document.timeline.currentTime;  // the animation clock: real time only
  const worker = new Worker(URL.createObjectURL(new Blob(['postMessage(1)'])));
  worker.terminate();
  return { success: true, details: [{ name: 'measured', passed: m.duration >= 200 }] };
};
"""


def test_what_the_virtual_clock_cannot_serve_is_named_and_run_in_real_time(
    tmp_path: Path,
    loop_thread,
    browser_pool,  # type: ignore[no-untyped-def]
) -> None:
    entry = load_task(make_task(tmp_path / "t", script=MARKS))
    evaluator = Evaluator(browser_pool)
    virtual = loop_thread.run(evaluator.evaluate(entry, clock=Clock.VIRTUAL))
    assert sorted(virtual.clock_hazards) == [
        "Worker (timers inside a worker run on real time)",
        "document.timeline (the animation clock is real time)",
    ]
    assert virtual.success  # marks and measures themselves are served on virtual time
    cache = AgreementCache(tmp_path / "clock.json")
    chosen = loop_thread.run(evaluate_on_chosen_clock(evaluator, entry, cache=cache))
    assert chosen.clock is Clock.REAL and chosen.success
    assert chosen.clock_note.startswith("fell back to real time: the script uses ")
    assert "Worker" in chosen.clock_note and "document.timeline" in chosen.clock_note
    assert cache.lookup(entry) is not None and not cache.lookup(entry).agree  # type: ignore[union-attr]
    # what the VM does on its own is not the script's: a plain task has no hazard
    plain = load_task(make_task(tmp_path / "plain"))
    assert loop_thread.run(evaluator.evaluate(plain, clock=Clock.VIRTUAL)).clock_hazards == []


WAITS = "module.exports = async (vm, config) => {{ await new Promise((r) => setTimeout(r, {ms}));"
WAITS += (
    " return {{ success: true, details: [{{ name: JSON.stringify(config), passed: true }}] }}; }};"
)


def _published(folder: Path, ms: int, timeout: float) -> Path:
    make_task(folder, script=WAITS.format(ms=ms), timeout_s=timeout)
    data = json.loads((folder / "task.json").read_text())
    data["evaluation"]["convention"] = "scratchworld"
    (folder / "task.json").write_text(json.dumps(data))
    return folder


def test_limits_follow_the_convention_and_name_their_source(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    ours = load_task(make_task(tmp_path / "ours", script=WAITS.format(ms=5000), timeout_s=2))
    result = evaluate(ours, clock=Clock.VIRTUAL)
    assert result.error is not None and result.error.kind is ErrorKind.TIMEOUT
    assert "within 2 s (evaluation.timeout_s in task.json)" in result.error.message
    assert result.limit_s == 2

    # published convention: the set's own timeout (20 s) limits nothing; config is {}
    longer = load_task(_published(tmp_path / "pub", ms=60_000, timeout=20))
    result = evaluate(longer, clock=Clock.VIRTUAL)
    assert result.error is None and result.success and result.details[0].name == "{}"
    capped = load_task(_published(tmp_path / "cap", ms=130_000, timeout=20))
    result = evaluate(capped, clock=Clock.VIRTUAL)
    assert result.error is not None and result.error.kind is ErrorKind.TIMEOUT
    assert "within 120 s (the published ScratchWorld convention's cap" in result.error.message

"""The evaluator in the real headless browser: verdicts, bad inputs, isolation between runs."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import zipfile
from pathlib import Path

import pytest

from studio.models.evaluation import ErrorKind
from studio.services.core.store import load_task
from tests.helpers.tasks import PASSING_SCRIPT, make_task

pytestmark = pytest.mark.browser


def _task(tmp_path: Path, script: str = PASSING_SCRIPT, **kw):  # type: ignore[no-untyped-def]
    return load_task(make_task(tmp_path / "task", script=script, **kw))


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


def test_golden_passes_initial_fails(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    entry = _task(tmp_path)
    golden = evaluate(entry, entry.golden_path)
    assert golden.error is None, golden.error
    assert golden.success and golden.passed_tests == 2 and golden.total_tests == 2
    assert golden.details[0].name == "flag moves the Cat to x 100"
    # a reused page was ready before this evaluation asked for it: 0 s to get ready
    assert golden.timings.page_ready_s >= 0 and golden.timings.total_s > 0
    initial = evaluate(entry, entry.initial_path)
    assert initial.error is None
    assert not initial.success and initial.passed_tests == 1
    assert initial.partial_success_rate == pytest.approx(0.5)
    assert "x is 10" in (initial.details[0].error or "")


def test_listeners_do_not_leak_between_runs(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    script = """module.exports = async (vm) => {
  const before = window.__studioLeak || 0;
  window.__studioLeak = before + 1;
  vm.runtime.on('SAY', () => {});
  return { success: before === 0, details: [{ name: 'fresh page', passed: before === 0 }] };
};"""
    entry = _task(tmp_path, script=script)
    assert evaluate(entry).success
    assert evaluate(entry).success


def test_console_output_is_captured(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    script = "module.exports = async () => { console.log('hello from the script'); return true; };"
    result = evaluate(_task(tmp_path, script=script))
    assert any("hello from the script" in line for line in result.console)


def test_syntax_error_names_file_and_line(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    script = "module.exports = async (vm) => {\n  return { success: true;\n};\n"
    entry = _task(tmp_path, script=script)
    before = _digests(entry.folder)
    result = evaluate(entry)
    assert result.error is not None
    assert result.error.kind is ErrorKind.SYNTAX
    assert result.error.file == "evaluate.js"
    assert result.error.line == 2
    # In the script's own terms, not the browser's DOM call that loaded it.
    assert "appendChild" not in result.error.message and "Node" not in result.error.message
    assert result.error.message.startswith("SyntaxError: ")
    assert result.error.message.endswith("(column 25)"), result.error.message
    assert _digests(entry.folder) == before


def test_the_text_given_runs_and_the_script_file_is_left_alone(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    broken = "module.exports = async (vm) => {\n  return { success: true;\n};\n"
    entry = _task(tmp_path, script=broken)  # the file as saved last
    before = _digests(entry.folder)
    result = evaluate(entry, entry.golden_path, script=PASSING_SCRIPT)  # what the editor holds
    assert result.error is None and result.success
    assert _digests(entry.folder) == before


def test_script_that_throws(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    script = "module.exports = async (vm) => {\n  throw new Error('boom here');\n};\n"
    result = evaluate(_task(tmp_path, script=script))
    assert result.error is not None and result.error.kind is ErrorKind.SCRIPT
    assert "boom here" in result.error.message
    assert result.error.line == 2
    assert not result.success


def test_script_that_never_resolves(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    script = "module.exports = () => new Promise(() => {});"
    result = evaluate(_task(tmp_path, script=script, timeout_s=1.5))
    assert result.error is not None and result.error.kind is ErrorKind.TIMEOUT
    assert "1.5 s" in result.error.message
    assert result.timings.total_s < 30


def test_script_that_blocks_the_page(
    tmp_path: Path,
    evaluate,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the page burns a core until it is killed: its limit plus a short grace, not the usual 5 s
    monkeypatch.setattr("studio.services.runtime.evaluator.GRACE_S", 0.5)
    script = "module.exports = () => { while (true) {} };"
    entry = _task(tmp_path, script=script, timeout_s=1)
    result = evaluate(entry)
    assert result.error is not None and result.error.kind is ErrorKind.TIMEOUT
    assert "page killed" in result.error.message
    good = _task(tmp_path / "next")
    assert evaluate(good).success


def test_script_without_export(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    result = evaluate(_task(tmp_path, script="const x = 1;"))
    assert result.error is not None and result.error.kind is ErrorKind.SCRIPT
    assert "module.exports" in result.error.message


def test_result_that_is_not_a_result(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    result = evaluate(_task(tmp_path, script="module.exports = async () => 42;"))
    assert result.error is not None and result.error.kind is ErrorKind.RESULT


def test_corrupted_sb3_names_the_file(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    entry = _task(tmp_path)
    broken = tmp_path / "broken.sb3"
    broken.write_bytes(b"PK\x03\x04 definitely not a zip")
    result = evaluate(entry, broken)
    assert result.error is not None and result.error.kind is ErrorKind.PROJECT
    assert result.error.file == str(broken)
    assert "not a zip" in result.error.message
    assert evaluate(entry).success


def test_project_the_vm_refuses(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("project.json", json.dumps({"targets": [{"isStage": True}], "meta": {}}))
    odd = tmp_path / "odd.sb3"
    odd.write_bytes(buf.getvalue())
    entry = _task(tmp_path)
    result = evaluate(entry, odd)
    assert result.error is not None and result.error.kind is ErrorKind.PROJECT
    assert result.error.file == str(odd)


def test_page_crash_is_reported_and_next_run_works(
    tmp_path: Path,
    loop_thread,
    browser_pool,  # type: ignore[no-untyped-def]
) -> None:
    from studio.services.runtime.evaluator import Evaluator

    script = (
        "module.exports = async () => { console.log('studio-test:started');"
        " await new Promise(() => {}); };"
    )
    entry = _task(tmp_path, script=script, timeout_s=60)
    evaluator = Evaluator(browser_pool)

    async def crash_mid_run():  # type: ignore[no-untyped-def]
        started = asyncio.ensure_future(
            browser_pool.context.wait_for_event(
                "console", predicate=lambda m: m.text == "studio-test:started", timeout=120_000
            )
        )
        run = asyncio.ensure_future(evaluator.evaluate(entry))
        victim = (await started).page
        cdp = await browser_pool.context.new_cdp_session(victim)
        with contextlib.suppress(Exception):  # the crash takes the session with it
            await cdp.send("Page.crash")
        return await run

    result = loop_thread.run(crash_mid_run())
    assert result.error is not None and result.error.kind is ErrorKind.CRASH
    good = load_task(make_task(tmp_path / "next"))
    assert loop_thread.run(evaluator.evaluate(good)).success


def test_script_may_name_its_own_evaluation_utils(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    script = """const EvaluationUtils = window.EvaluationUtils;
const U = require('./evaluation_utils');
const same = U === EvaluationUtils && typeof U.runTests === 'function';
module.exports = async (vm) => ({ success: same,
  details: [{ name: 'same helper', passed: true }] });
"""
    result = evaluate(_task(tmp_path, script=script))
    assert result.error is None, result.error
    assert result.success

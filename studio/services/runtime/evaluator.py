"""Runs a task's evaluation script against a project in a headless browser page.

The script is untrusted JavaScript: it only ever runs inside a page (contained as
runtime.browser says), under a time limit enforced twice (a timer in the page and, for
scripts that block the page, a deadline here after which the page is killed). A watchdog bounds
every step the studio waits on, getting the page included: an evaluation whose page stops
answering ends with the kind `stalled` (or `timeout`, once the script started) instead of
waiting, and its page is discarded. A page the run broke (crashed, navigated, stalled, timed
out, or a script error) is marked broken in the pool and closed. Any other page is given back to
the pool, which uses it for the next evaluation only when it proves that nothing of this one is
left in it (studio.services.runtime.browser says how; each evaluation has its VM made from fresh
classes, on a canvas of its own, and leaves the page as it found it: resources/js/eval-runner.js
and page-reuse.js), and closes it otherwise. What comes back is bounded: console output
(studio.services.runtime.eval_console) and the result, measured in the page.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from studio.models.errors import StudioError
from studio.models.evaluation import (
    Clock,
    ErrorKind,
    EvalError,
    EvalResult,
    ScriptProfile,
    TestDetail,
    Timings,
)
from studio.models.task import ScriptLimit
from studio.services.core.errors import ProjectFileError
from studio.services.core.sb3 import check_sb3
from studio.services.core.store import TaskFolder
from studio.services.runtime import page_reuse, page_scripts
from studio.services.runtime.browser import PAGE_READY_TIMEOUT_S, BrowserPool
from studio.services.runtime.eval_console import (  # noqa: F401  (names tests and callers import here)
    MAX_CONSOLE_CHARS,
    MAX_CONSOLE_LINE_CHARS,
    MAX_CONSOLE_LINES,
    MAX_MESSAGE_CHARS,
    PAGE_LIMITS,
    ConsoleLog,
    clean_console_text,
    cut,
)

if TYPE_CHECKING:
    from playwright.async_api import Page

__all__ = [
    "ACQUIRE_LIMIT_S", "BREAKING", "FAST_FORWARD", "GRACE_S", "KEEPS", "LOAD_LIMIT_S",
    "MAX_CONSOLE_CHARS",
    "MAX_CONSOLE_LINES", "PAGE_KINDS", "SCRIPT_START", "WATCHDOG_SLACK_S", "Evaluates", "Evaluator",
    "Prepared", "apply_outcome", "clean_console_text", "evaluate_prepared", "normalize_into",
    "prepare",
    "run_in_page", "script_profile", "syntax_message", "watched",
]  # fmt: skip

GRACE_S = 5.0  # how long past the script's limit a blocked page is given before it is killed
LOAD_LIMIT_S = 90.0  # how long the page may take to load the project before the script starts
SCRIPT_START = "studio:script-start"  # the page's console says the script starts now
ACQUIRE_LIMIT_S = PAGE_READY_TIMEOUT_S + 30  # getting a ready page, waiting for a slot included
WATCHDOG_SLACK_S = 10.0  # past every phase's own limit, before the watchdog ends the run
# On the virtual clock, passes of the VM's sequencer that would find every thread still waiting
# on time are fast-forwarded (resources/js/virtual-clock.js, hookSequencer): the same program,
# the same virtual times. False runs every pass, as before (bench/bench_script_phase.py).
FAST_FORWARD = True


@dataclass
class Prepared:
    """An evaluation ready to run in a page: its result so far, the page's arguments, its limit."""

    result: EvalResult
    args: dict[str, Any]
    limit: ScriptLimit
    t0: float
    answered: bool = False  # the page itself gave the outcome (no crash, stall or failure)
    page_check: str | None = None  # the page's own post-run check, when the run made it


def prepare(
    entry: TaskFolder,
    project: bytes | Path | None,
    project_name: str | None = None,
    limit: ScriptLimit | None = None,
    clock: Clock = Clock.REAL,
    seed: int = 0,
    config: dict[str, object] | None = None,
    script: str | None = None,
) -> Prepared | EvalResult:
    """Read what an evaluation needs; an EvalResult with the error when something is wrong.

    `project` defaults to the golden project; `limit` and `config` to what the task's
    convention gives; `script` to the task's script file (give the text an author has not
    saved yet to run it without writing it).
    """
    t0 = time.perf_counter()
    if project is None:
        project = entry.golden_path or entry.initial_path
    if isinstance(project, Path):
        project_name = project_name or str(project)
    name = project_name or "project.sb3"
    result = EvalResult(task_id=entry.task.id, project=name, clock=clock, seed=seed)
    try:
        data = project.read_bytes() if isinstance(project, Path) else project
        check_sb3(data, name)
        script = _read_text(entry.script_path) if script is None else script
        helper = _read_text(entry.helper_path)
    except OSError as exc:
        return _failed(result, ErrorKind.PROJECT, f"cannot be read ({exc})", name, t0)
    except ProjectFileError as exc:
        return _failed(result, ErrorKind.PROJECT, exc.problem, name, t0)
    except StudioError as exc:
        return _failed(result, ErrorKind.SETUP, str(exc), None, t0)
    limit = limit or entry.task.evaluation.limit()
    result.limit_s, result.limit_source = limit.seconds, limit.source
    args = {
        "projectB64": base64.b64encode(data).decode("ascii"),
        "projectName": name,
        "helperSource": helper,
        "helperName": entry.helper_path.name,
        "scriptSource": script,
        "scriptName": entry.script_path.name,
        "config": entry.task.eval_config() if config is None else config,
        "timeoutMs": int(limit.seconds * 1000),
        "limitNote": limit.source,
        "clock": clock.value,
        "seed": seed,
        "stage": list(entry.task.evaluation.stage_size()),
        "limits": PAGE_LIMITS,
        "fastForward": FAST_FORWARD,
    }
    return Prepared(result, args, limit, t0)


class Evaluates(Protocol):
    """What checks need of an evaluator: `Evaluator` here, or one that sends the prepared
    evaluation to a cluster's workers (studio.services.distributed)."""

    async def evaluate(
        self,
        entry: TaskFolder,
        project: bytes | Path | None = None,
        project_name: str | None = None,
        timeout_s: float | None = None,
        clock: Clock = Clock.REAL,
        seed: int = 0,
    ) -> EvalResult: ...


class Evaluator:
    """Evaluate projects against task scripts; one shared browser, one page per evaluation."""

    def __init__(self, pool: BrowserPool) -> None:
        self.pool = pool

    async def evaluate(
        self,
        entry: TaskFolder,
        project: bytes | Path | None = None,
        project_name: str | None = None,
        timeout_s: float | None = None,
        clock: Clock = Clock.REAL,
        seed: int = 0,
        script: str | None = None,
    ) -> EvalResult:
        """Evaluate `project` (bytes, a path, or by default the golden project) for `entry`.

        `clock` chooses real or virtual (accelerated) time in the page; `seed` seeds the page's
        Math.random, which the VM's pick-random blocks use. `timeout_s` replaces the time limit
        of the task's convention for this run; `script` the text of the task's script file
        (nothing is written).
        """
        limit = ScriptLimit(timeout_s, "the limit given for this run") if timeout_s else None
        prepared = prepare(entry, project, project_name, limit, clock, seed, script=script)
        if isinstance(prepared, EvalResult):
            return prepared
        return await evaluate_prepared(self.pool, prepared)


async def evaluate_prepared(pool: BrowserPool, prepared: Prepared) -> EvalResult:
    """Run a prepared evaluation in a clean page of `pool` (here, or in a cluster's worker)."""
    result = prepared.result
    waited = time.perf_counter()
    try:
        ready = await asyncio.wait_for(pool.acquire_eval_page(), ACQUIRE_LIMIT_S)
    except TimeoutError:
        result.error = EvalError(
            kind=ErrorKind.STALLED,
            message=f"no evaluation page got ready within {ACQUIRE_LIMIT_S:g} s (watchdog)",
        )
    except Exception as exc:  # browser missing or dead: a setup problem, not a verdict
        result.error = EvalError(kind=ErrorKind.SETUP, message=f"no browser page: {exc}")
    else:
        result.timings.page_ready_s = ready.ready_s
        result.timings.page_wait_s = time.perf_counter() - waited
        if pool.reuse:
            prepared.args = {**prepared.args, "reuse": True, "checkInRun": page_reuse.QUICK_CHECK}
        reusable = False
        try:
            await watched(ready.page, page_scripts.RUN_JS, prepared)
            reusable = prepared.answered and (result.error is None or result.error.kind in KEEPS)
        finally:
            if not reusable and result.error is not None and result.error.kind in BREAKING:
                pool.mark_broken(ready.page, result.error.message)
            checked = time.perf_counter()
            await pool.release(ready.page, reusable, prepared.page_check)
            result.timings.check_s += time.perf_counter() - checked
    result.timings.total_s = time.perf_counter() - prepared.t0
    return result


# Errors after which the page is not trusted: it is closed, never checked for reuse.
BREAKING = {ErrorKind.CRASH, ErrorKind.STALLED, ErrorKind.TIMEOUT, ErrorKind.SCRIPT}
# Errors the page reported itself, after which it may be checked for reuse: a script that threw
# (or did not parse, or returned too much) and a project that did not load ended in the page's
# own hands. A timeout never: the script may still be running.
KEEPS = {ErrorKind.SCRIPT, ErrorKind.SYNTAX, ErrorKind.RESULT, ErrorKind.PROJECT}


async def watched(page: Page, call: str, prepared: Prepared) -> None:
    """`run_in_page` under a watchdog: whatever the page or the driver stop answering, the run
    ends within the load limit, the script's limit, its grace and WATCHDOG_SLACK_S, with the
    error kind `stalled`."""
    limit = LOAD_LIMIT_S + prepared.limit.seconds + GRACE_S + WATCHDOG_SLACK_S
    try:
        await asyncio.wait_for(run_in_page(page, call, prepared), limit)
    except TimeoutError:
        prepared.result.error = EvalError(
            kind=ErrorKind.STALLED,
            file=prepared.args["scriptName"],
            message=f"the evaluation page stopped answering; the watchdog ended the run after "
            f"{limit:g} s and discarded the page",
        )


async def run_in_page(page: Page, call: str, prepared: Prepared) -> None:
    """Run the page function `call` (a page_scripts constant: `RUN_JS`, `RUN_ON_EDITOR_VM_JS`)
    with the prepared arguments; fill the result in.

    The page says when the script starts (after the project loaded); from then on a page the
    script blocks is given its limit and a grace period, then left to the caller to close.
    Crashes, navigation away and timeouts become named errors.
    """
    result, args, limit = prepared.result, prepared.args, prepared.limit
    crashed = asyncio.get_running_loop().create_future()
    started = asyncio.get_running_loop().create_future()
    console = ConsoleLog(result.console)
    page_stats: Any = None

    def on_console(msg: Any) -> None:
        if msg.text == SCRIPT_START:
            if not started.done():
                started.set_result(True)
            return
        console.add(msg.type, msg.text)

    def on_crash(_page: Page) -> None:
        if not crashed.done():
            crashed.set_result(True)

    def stop_listening() -> None:  # nothing more is kept: the driver need not send it
        with contextlib.suppress(Exception):
            page.remove_listener("console", on_console)

    console.on_full = stop_listening
    page.on("console", on_console)
    page.on("crash", on_crash)
    run = asyncio.ensure_future(page_scripts.run_evaluation(page, call, args))
    try:
        # The deadline for a page blocked by the script runs from the script's start: a
        # project that loads slowly on a busy machine must not count against the script.
        first = asyncio.FIRST_COMPLETED
        done, _ = await asyncio.wait(
            {run, crashed, started}, timeout=LOAD_LIMIT_S, return_when=first
        )
        if started in done and not (run.done() or crashed.done()):
            done, _ = await asyncio.wait(
                {run, crashed}, timeout=limit.seconds + GRACE_S, return_when=first
            )
        if crashed in done:
            result.error = EvalError(
                kind=ErrorKind.CRASH,
                file=args["scriptName"],
                message="the browser page crashed during the run",
            )
        elif run in done:
            outcome = run.result()
            prepared.answered = True
            page_stats = outcome.get("console") if isinstance(outcome, dict) else None
            apply_outcome(result, outcome)
            if isinstance(outcome, dict) and args.get("checkInRun"):
                # a page that answered no check (its answer lost in transit) is asked again
                found = outcome.get("check")
                prepared.page_check = found if isinstance(found, str) else None
        elif not started.done():
            result.error = EvalError(
                kind=ErrorKind.TIMEOUT,
                file=args["projectName"],
                message=f"the project did not load within {LOAD_LIMIT_S:g} s; page killed",
            )
        else:
            result.error = EvalError(
                kind=ErrorKind.TIMEOUT,
                file=args["scriptName"],
                message=(
                    f"the script blocked the page past its {limit.seconds:g} s limit "
                    f"({limit.source}); page killed"
                ),
            )
    except Exception as exc:  # the page went away under the call
        kind = ErrorKind.CRASH if crashed.done() else ErrorKind.SCRIPT
        message = f"the page failed during the run: {_short(exc)}"
        if "navigation" in str(exc):
            message = "the script navigated the evaluation page away, which is not allowed"
        result.error = EvalError(kind=kind, file=args["scriptName"], message=message)
    finally:
        run.cancel()
        console.close(page_stats)
        stop_listening()
        with contextlib.suppress(Exception):
            page.remove_listener("crash", on_crash)


def apply_outcome(result: EvalResult, outcome: dict[str, Any]) -> None:
    """Fill `result` from what the page's runner answered: hazards, timings and the script
    phase's profile, then the error or the normalized result."""
    result.clock_hazards = [str(h) for h in outcome.get("clock_hazards") or []][:20]
    timings = outcome.get("timings") or {}
    result.timings.project_load_s = (timings.get("project_load_ms") or 0) / 1000
    result.timings.script_s = (timings.get("script_ms") or 0) / 1000
    if timings.get("program_ms") is not None:
        result.timings.program_s = timings["program_ms"] / 1000
    result.timings.release_s = _number(timings.get("release_ms")) / 1000
    result.timings.check_s = _number(timings.get("check_ms")) / 1000  # the page's own, if made
    result.timings.profile = script_profile(outcome.get("profile"))
    if outcome.get("error"):
        err = outcome["error"]
        kind_name = err.get("kind", "script")
        kind = ErrorKind(kind_name) if kind_name in PAGE_KINDS else ErrorKind.SCRIPT
        message = cut(str(err.get("message", "")), MAX_MESSAGE_CHARS + 200)  # the page cut it
        if kind is ErrorKind.SYNTAX:
            message = syntax_message(message, err.get("column"))
        result.error = EvalError(
            kind=kind,
            message=message,
            file=cut(str(err["file"]), 300) if err.get("file") else None,
            line=_int(err.get("line"), 0) or None,
        )
        return
    try:
        normalize_into(result, outcome.get("result"))
    except ValueError as exc:
        result.error = EvalError(kind=ErrorKind.RESULT, message=str(exc))


PAGE_KINDS = {"project", "syntax", "script", "timeout", "result"}  # what the page may report


def script_profile(raw: Any) -> ScriptProfile | None:
    """The virtual clock's profile of the script phase (resources/js/virtual-clock.js) as a
    ScriptProfile; None when the page gave none (the real clock). Counts and milliseconds the
    page sends are numbers or nothing: anything else counts as 0."""
    if not isinstance(raw, dict):
        return None
    return ScriptProfile(
        vm_steps=int(_number(raw.get("steps"))),
        vm_step_s=_number(raw.get("stepMs")) / 1000,
        vm_passes=int(_number(raw.get("passes"))),
        vm_skipped=int(_number(raw.get("skipped"))),
        draws=int(_number(raw.get("draws"))),
        draw_s=_number(raw.get("drawMs")) / 1000,
        timers=int(_number(raw.get("timers"))),
        timer_s=_number(raw.get("timerMs")) / 1000,
        turns=int(_number(raw.get("turns"))),
        turn_s=_number(raw.get("turnMs")) / 1000,
        idle_s=_number(raw.get("idleMs")) / 1000,
    )


def _number(value: Any) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and value == value
    return max(0.0, float(value)) if ok and abs(value) != float("inf") else 0.0


def normalize_into(result: EvalResult, raw: Any) -> None:
    """Fill `result` from what a script returned, tolerating the shapes seen in task sets."""
    if isinstance(raw, bool):
        result.success, result.passed_tests, result.total_tests = raw, int(raw), 1
        result.partial_success_rate = float(raw)
        return
    if not isinstance(raw, dict):
        raise ValueError(f"the script returned {type(raw).__name__}, not a result object")
    details = [
        TestDetail.model_validate(d) for d in raw.get("details") or [] if isinstance(d, dict)
    ]
    total = _int(raw.get("total_tests"), len(details))
    passed = _int(raw.get("passed_tests"), sum(d.passed for d in details))
    if "success" not in raw and total == 0:
        raise ValueError("the result has neither `success` nor any test")
    success = bool(raw["success"]) if "success" in raw else passed == total
    psr = raw.get("partial_success_rate")
    if not isinstance(psr, int | float):
        psr = passed / total if total else float(success)
    result.success = success
    result.passed_tests, result.total_tests = passed, total
    result.partial_success_rate = float(psr)
    result.details = details


# How Chromium words a parse error of a script element appended to the page: the browser's
# DOM call, not the script's own problem.
_DOM_WRAPPER = re.compile(r"^(?:Uncaught\s+)?(\w*Error):\s*Failed to execute '\w+' on '\w+':\s*")


def syntax_message(message: str, column: object = None) -> str:
    """A parse error in the script's own terms: "SyntaxError: Unexpected token ';' (column 22)"
    rather than the browser's "Uncaught SyntaxError: Failed to execute 'appendChild' on
    'Node': ..."; the line is given apart (EvalError.line)."""
    text = _DOM_WRAPPER.sub(lambda m: f"{m.group(1)}: ", message.strip())
    text = re.sub(r"^Uncaught\s+", "", text)
    if isinstance(column, int) and not isinstance(column, bool) and column > 0:
        text += f" (column {column})"
    return text


def _int(value: Any, default: int) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else default


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StudioError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def _failed(
    result: EvalResult, kind: ErrorKind, msg: str, file: str | None, t0: float
) -> EvalResult:
    result.error = EvalError(kind=kind, message=msg, file=file)
    result.timings = Timings(total_s=time.perf_counter() - t0)
    return result


def _short(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__

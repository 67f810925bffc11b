"""Proposed tests as JavaScript, in the style of the bundled evaluation scripts.

A proposed script is an ordinary evaluation script (`module.exports = async (vm, config,
cleanup) => EU.runTests(vm, [...], { cleanup })`) that `studio check` and `studio eval` run
like any other. Its proposed part is one section between two marker lines: the recorder of
resources/js/behaviour-trace.js (copied, so that the checks read recordings made by the same
code that recorded the golden program), the scenarios the tests use, and `PROPOSED_TESTS(vm)`,
one test object per proposal whose `run` plays its scenario (once per evaluation, shared) and
checks with `check(condition, message)`. For a task with its own helper library (a published
set's), `own_helpers` embeds the studio's helper library (resources/js/evaluation_utils.js) as
`PROPOSED_HELPERS`, which the proposed part uses while `EvaluationUtils` stays the task's: the
script then runs with either library, as the published service runs it.

`merge_section` puts a section into a script an author already has: it replaces an earlier
proposed section, or adds one before `module.exports` of a script that calls `EU.runTests(vm, [`
(spreading `...PROPOSED_TESTS(vm)` into its list); any other script is replaced by a whole
proposed script. `trace_script` is the recorder run on its own: it plays every scenario and
returns the recordings in the meta of its one test.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from studio.services.core import paths
from studio.services.propose.model import Proposal
from studio.services.propose.scenarios import Scenario

__all__ = [
    "CASE_MARGIN_MS", "RUN_TESTS", "SECTION_END", "SECTION_START", "SPREAD", "helpers_source", "js",
    "library_source", "merge_section", "scenarios_source", "section", "trace_script",
    "whole_script",
]  # fmt: skip

SECTION_START = (
    "// ---- proposed by `studio propose` (regenerated as a whole; edit above or below) ----"
)
SECTION_END = "// ---- end of the proposed tests ----"
SPREAD = "  ...PROPOSED_TESTS(vm),"
RUN_TESTS = "EU.runTests(vm, ["
CASE_MARGIN_MS = 5000


def library_source() -> str:
    return (paths.JS_DIR / "behaviour-trace.js").read_text(encoding="utf-8")


def helpers_source() -> str:
    """The studio's helper library as `const PROPOSED_HELPERS`, scoped to the script."""
    source = (paths.JS_DIR / "evaluation_utils.js").read_text(encoding="utf-8").rstrip()
    return "\n".join(
        [
            "// The studio's helper library, for the proposed tests (EvaluationUtils: the task's).",
            "const PROPOSED_HELPERS = (function () {",
            "  const module = { exports: {} };",
            source,
            "  return module.exports;",
            "}());",
        ]
    )


def js(value: Any) -> str:
    """A JavaScript literal for a value of a trace (whole numbers without a decimal point)."""
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        return str(int(value))
    if isinstance(value, list | tuple):
        return "[" + ", ".join(js(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _template(text: str) -> str:
    """Text for a JS template literal (no interpolation of its own)."""
    return text.replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${")


def scenarios_source(scenarios: Sequence[Scenario]) -> str:
    body = ",\n".join(f"  {js(s.id)}: {json.dumps(s.to_js())}" for s in scenarios)
    return "const PROPOSED_SCENARIOS = {\n" + body + ",\n};"


def trace_script(scenarios: Sequence[Scenario]) -> str:
    """The recorder alone: one test whose meta holds {traces: {scenario id: recording}}."""
    return "\n".join(
        [
            library_source(),
            scenarios_source(scenarios),
            "module.exports = async (vm) => {",
            "  const traces = {};",
            "  for (const [id, scenario] of Object.entries(PROPOSED_SCENARIOS)) {",
            "    traces[id] = await ProposedTrace.play(vm, scenario);",
            "  }",
            "  return EvaluationUtils.buildResult([",
            "    { name: 'trace', passed: true, timeout: false, error: null, meta: { traces } },",
            "  ]);",
            "};",
            "",
        ]
    )


def _checks(p: Proposal) -> list[str]:
    k, e, w = js(p.key), js(p.expected), _template(p.words)
    if p.kind == "end":
        return [
            f"const v = r.end[{k}];",
            f"check(T.same(v, {e}), `{w}: it is ${{JSON.stringify(v)}}`);",
        ]
    if p.kind == "sequence":
        return [
            f"const seq = T.sequence(r, {k});",
            f"check(T.sameSequence(seq, {e}), `{w}: it went through ${{T.show(seq)}}`);",
        ]
    if p.kind == "steady":
        return [
            f"const seq = T.sequence(r, {k});",
            f"check(seq.length === 1 && T.same(seq[0], {e}), "
            f"`{w}: it went through ${{T.show(seq)}}`);",
        ]
    if p.kind == "reach_time":
        lo, hi = p.expected
        return [
            f"const t = T.firstTime(r, {k}, {js(p.value)});",
            f"check(t !== null && t >= {lo} && t <= {hi}, `{w}: it got there at ${{t}} ms`);",
        ]
    if p.kind == "period":
        lo, hi = p.expected
        return [
            f"const gaps = T.intervals(r, {k});",
            f"check(gaps.length >= {p.count} && gaps.every((g) => g >= {lo} && g <= {hi}), "
            f"`{w}: the changes came after ${{T.show(gaps)}} ms`);",
        ]
    if p.kind == "says":
        return [
            f"const said = T.texts(r, {k});",
            f"check(T.sameSequence(said, {e}), `{w}: it said ${{T.show(said)}}`);",
        ]
    if p.kind == "broadcasts":
        return [
            "const sent = T.messages(r);",
            f"check(T.sameSequence(sent, {e}), `{w}: it sent ${{T.show(sent)}}`);",
        ]
    if p.kind == "range":
        lo, hi = p.expected
        return [
            f"const vals = T.values(r, {k});",
            f"check(vals.length > 0 && vals.every((v) => v >= {lo} && v <= {hi}), "
            f"`{w}: it took ${{T.show(vals)}}`);",
        ]
    raise ValueError(f"no code for a check of kind {p.kind!r}")


def _test(p: Proposal, scenario: Scenario) -> list[str]:
    sid = js(p.scenario)
    lines = [
        "    {",
        f"      name: {js(p.words)},",
        f"      timeoutMs: {scenario.duration + CASE_MARGIN_MS},",
        "      run: async () => {",
        f"        const r = await T.recording(vm, {sid}, PROPOSED_SCENARIOS[{sid}]);",
    ]
    lines += [f"        {line}" for line in _checks(p)]
    return [*lines, "      },", "    },"]


def section(
    proposals: Sequence[Proposal], scenarios: Sequence[Scenario], own_helpers: bool = False
) -> str:
    """The proposed section: (the studio's helpers,) recorder, the scenarios used,
    PROPOSED_TESTS(vm)."""
    by_id = {s.id: s for s in scenarios}
    used = [by_id[sid] for sid in dict.fromkeys(p.scenario for p in proposals)]
    lines = [SECTION_START, *([helpers_source()] if own_helpers else [])]
    lines += [library_source().rstrip(), scenarios_source(used)]
    lines += [
        "const PROPOSED_TESTS = (vm) => {",
        "  const { check } = ProposedTrace.helpers;",
        "  const T = ProposedTrace;",
        "  T.reset();",
        "  return [",
    ]
    for p in proposals:
        lines += _test(p, by_id[p.scenario])
    lines += ["  ];", "};", SECTION_END]
    return "\n".join(lines)


def whole_script(
    task_id: str,
    proposals: Sequence[Proposal],
    scenarios: Sequence[Scenario],
    own_helpers: bool = False,
) -> str:
    """A complete evaluation script holding only the proposed tests."""
    helpers = "ProposedTrace.helpers" if own_helpers else "EvaluationUtils"
    head = [
        f"// {task_id}: tests proposed by `studio propose` from the behaviour of the golden and",
        "// initial programs, kept where they pass the golden program and kill mutants.",
        *([] if own_helpers else ["const EU = EvaluationUtils;", ""]),
        section(proposals, scenarios, own_helpers),
        "",
        *([f"const EU = {helpers};", ""] if own_helpers else []),
        f"module.exports = async (vm, config, cleanup) => {RUN_TESTS}",
        SPREAD,
        "], { cleanup });",
        "",
    ]
    return "\n".join(head)


def merge_section(script: str, new_section: str, whole: str) -> str:
    """`script` with `new_section` in it (see the module's docstring); `whole` otherwise."""
    start, end = script.find(SECTION_START), script.find(SECTION_END)
    if start >= 0 and end > start:
        return script[:start] + new_section + script[end + len(SECTION_END) :]
    exports = script.find("module.exports")
    call = script.find(RUN_TESTS, max(exports, 0))
    if exports < 0 or call < 0 or not script.strip():
        return whole
    after = call + len(RUN_TESTS)
    merged = script[:after] + "\n" + SPREAD + script[after:]
    return merged[:exports] + new_section + "\n\n" + merged[exports:]

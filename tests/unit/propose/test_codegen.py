"""Proposed tests as JavaScript; merging them into an author's script; reading recordings."""

from __future__ import annotations

import pytest

from studio.services.propose import codegen
from studio.services.propose.model import Proposal, TraceError, recording_from_json
from studio.services.propose.scenarios import Scenario

FLAG = Scenario("flag", "after the green flag", [{"at": 0, "do": "flag", "arg": ""}], 2000)
KEY = Scenario("key:space", "after space", [{"at": 0, "do": "flag", "arg": ""}], 3000)


def _props() -> list[Proposal]:
    return [
        Proposal("t1", "end", "flag", "Cat.x", 50.0, "the Cat's x ends at `50` ${x}"),
        Proposal("t2", "reach_time", "flag", "Cat.x", [850, 1300], "reaches", value=50.0),
        Proposal("t3", "period", "flag", "backdrop", [1500, 2500], "every 2 s", count=3),
        Proposal("t4", "says", "flag", "Robot", ["3"], "says 3"),
        Proposal("t5", "sequence", "flag", "Cat.x", [-100.0, 50.5], "goes"),
        Proposal("t6", "steady", "flag", "Cat.y", 0.0, "stays"),
        Proposal("t7", "broadcasts", "flag", "", ["go"], "sends"),
        Proposal("t8", "range", "flag", "Cat.y", [-20.0, 10.0], "between"),
    ]


def test_each_kind_of_check_is_code_with_its_expected_value() -> None:
    script = codegen.whole_script("walk", _props(), [FLAG, KEY])
    assert script.count("name: ") == 8
    assert "T.same(v, 50)" in script
    assert "t >= 850 && t <= 1300" in script and 'T.firstTime(r, "Cat.x", 50)' in script
    assert "gaps.length >= 3" in script
    assert "T.sameSequence(seq, [-100, 50.5])" in script
    assert "\\`50\\` \\${x}" in script  # the words cannot break out of the message's template
    assert '"flag"' in script and '"key:space"' not in script  # only the scenarios used
    assert "module.exports = async (vm, config, cleanup) => EU.runTests(vm, [" in script
    assert "const ProposedTrace" in script


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="kind 'odd'"):
        codegen.whole_script("t", [Proposal("t1", "odd", "flag", "k", 1, "w")], [FLAG])


def test_js_literals() -> None:
    assert codegen.js(50.0) == "50"
    assert codegen.js(0.25) == "0.25"
    assert codegen.js(["a", 1.0, True]) == '["a", 1, true]'


AUTHOR = """const EU = EvaluationUtils;
module.exports = async (vm, config, cleanup) => EU.runTests(vm, [
  { name: 'mine', run: async () => {} },
], { cleanup });
"""


def test_merging_adds_a_section_then_replaces_only_it() -> None:
    props = _props()
    whole = codegen.whole_script("t", props, [FLAG])
    merged = codegen.merge_section(AUTHOR, codegen.section(props[:1], [FLAG]), whole)
    assert "{ name: 'mine'" in merged
    assert merged.index(codegen.SECTION_START) < merged.index("module.exports")
    assert codegen.SPREAD in merged
    again = codegen.merge_section(merged, codegen.section(props[1:2], [FLAG]), whole)
    assert again.count(codegen.SECTION_START) == 1 and again.count(codegen.SPREAD) == 1
    assert '"reaches"' in again and "the Cat's x ends" not in again
    assert codegen.merge_section("", codegen.section(props, [FLAG]), whole) == whole
    assert codegen.merge_section("return 1;", "x", whole) == whole


def test_trace_script_plays_every_scenario() -> None:
    script = codegen.trace_script([FLAG, KEY])
    assert '"key:space"' in script and "ProposedTrace.play" in script


def test_recordings_from_the_page_are_checked() -> None:
    raw = {
        "changes": {"Cat.x": [[0, 1], [33, 2.5]]},
        "end": {"Cat.x": 2.5},
        "says": [[40, "Cat", "hi"]],
        "broadcasts": [[50, "go"]],
        "questions": [[0, "Name?"]],
    }
    rec = recording_from_json(raw, "flag")
    assert rec.sequence("Cat.x") == [1.0, 2.5] and rec.texts("Cat") == ["hi"]
    assert rec.messages() == ["go"] and rec.questions == ["Name?"]
    with pytest.raises(TraceError, match=r"scenario 'flag'.*Cat\.x"):
        recording_from_json({"changes": {"Cat.x": [[0, {"a": 1}]]}, "end": {}}, "flag")
    with pytest.raises(TraceError, match="no changes"):
        recording_from_json([], "flag")
    with pytest.raises(TraceError, match="not \\[ms, value\\]"):
        recording_from_json({"changes": {"k": ["x"]}, "end": {}}, "flag")


NODE_PROBE = """
const vm = require('vm');
const source = require('fs').readFileSync(0, 'utf8');
const ctx = { EvaluationUtils: { theTasks: true }, module: { exports: null }, setTimeout };
vm.createContext(ctx);
vm.runInContext(source + `
globalThis.probe = {
  helpers: typeof ProposedTrace.helpers.runTests,
  check: typeof ProposedTrace.helpers.check,
  tasks: EvaluationUtils.theTasks === true,
  exported: typeof module.exports,
};`, ctx);
console.log(JSON.stringify(ctx.probe));
"""


def test_a_task_with_its_own_helper_library_gets_the_studios_embedded() -> None:
    """A published set's helper library lacks runTests: the proposed part uses the studio's,
    embedded, and the script's EvaluationUtils stays the task's (run in Node, no browser)."""
    import json
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    plain = codegen.whole_script("walk", _props(), [FLAG])
    assert "const PROPOSED_HELPERS" not in plain
    script = codegen.whole_script("walk", _props(), [FLAG], own_helpers=True)
    assert "const EU = ProposedTrace.helpers;" in script
    out = subprocess.run(
        [node, "-e", NODE_PROBE], input=script, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == {
        "helpers": "function",
        "check": "function",
        "tasks": True,
        "exported": "function",
    }

"""Conformance of the evaluation page, part 1: what projects carry and the running program.

For every case of `tests.corpus` in MEDIA_CASES and RUNTIME_CASES, and for each of its
programs (a right one and a wrong one), the case's script is evaluated on the accelerated
virtual clock and on the real clock:

- the per-test verdicts (name, passed) are the same on both clocks;
- they are the verdicts the case expects, which are those of a browser running in real time:
  the right program passes every test, the wrong program fails the tests its bug breaks.

The cases: bitmap costumes at bitmap resolution 2 and 1 (as converted Scratch 2 projects
carry them) and vector costumes (size on stage, switching by name, touching a vector
sprite); a 1 s sound ("play sound until done" waits for it, "start sound" does not); the pen
and music extensions; bitmap backdrops with "switch backdrop and wait" and "when backdrop
switches to"; a 40-sprite project of about 3800 blocks; clones; ask and answer; broadcasts;
the Scratch timer and its "when timer >" hat; lists; keyboard and mouse input.

Also: a project with every opcode projectbuild knows loads, and the VM's own sb3 serializer
writes it back unchanged, so the corpus' projects are stored the way Scratch stores them; and
every case can fail, and the whole corpus stays near a minute of real-clock time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.models.evaluation import Clock
from tests.corpus import ALL_CASES, MEDIA_CASES, RUNTIME_CASES, Case, Variant, param_id
from tests.corpus.case import REAL_BUDGET_S
from tests.corpus.check import check_case
from tests.corpus.roundtrip import every_opcode_project, round_trip_differences

pytestmark = pytest.mark.browser

PARAMS = [p for case in MEDIA_CASES + RUNTIME_CASES for p in case.params()]

ECHO_SCRIPT = """module.exports = async (vm) => ({
  success: true,
  details: [{ name: 'round trip', passed: true, meta: { project: JSON.parse(vm.toJSON()) } }],
});
"""


@pytest.mark.parametrize(("case", "variant"), PARAMS, ids=[param_id(p) for p in PARAMS])
def test_case_gets_its_expected_verdicts_on_both_clocks(
    case: Case,
    variant: Variant,
    tmp_path: Path,
    evaluate,  # type: ignore[no-untyped-def]
) -> None:
    check_case(case, variant, tmp_path / case.id, evaluate)


def test_every_projectbuild_opcode_survives_the_vms_round_trip(tmp_path: Path, evaluate) -> None:  # type: ignore[no-untyped-def]
    built = every_opcode_project()
    case = Case(
        id="round_trip",
        summary="Load a project with every opcode projectbuild knows and serialize it again.",
        variants=(Variant("every_opcode", lambda: built, (("round trip", True),)),),
        real_s=0.0,
    )
    entry = case.write_task(tmp_path / "round_trip", script=ECHO_SCRIPT)
    result = evaluate(entry, built.build(), clock=Clock.VIRTUAL)
    assert result.error is None, result.error
    meta = result.details[0].meta or {}
    ours = json.loads(json.dumps(built.to_json()))
    assert round_trip_differences(ours, meta["project"]) == []


def test_the_corpus_stays_small_on_the_real_clock() -> None:
    """Every case can fail, has its script, and all real-clock runs fit the time budget."""
    for case in ALL_CASES:
        assert case.script_path.is_file(), case.script_path
        assert any(not ok for v in case.variants for _, ok in v.expected), f"{case.id} cannot fail"
    total = sum(case.real_s * len(case.variants) for case in ALL_CASES)
    assert total <= REAL_BUDGET_S, f"the corpus takes about {total:.0f} s on the real clock"

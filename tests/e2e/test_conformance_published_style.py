"""Conformance of the evaluation page, part 2: scripts written in the published ScratchWorld
style.

These scripts use no helper library: they drive the VM through its own API (greenFlag,
targets, stopAll, runtime events), wait with loops over Date.now() and setTimeout or time
with performance.now(), block the page with synchronous busy-waits, call `Date()` without
`new` (a string, as in every browser), poll sprite state with setInterval, listen to SAY
events, and sample a program for 3 s in each of six cases. Each builds its result object
itself.

For every case of `tests.corpus.PUBLISHED_STYLE_CASES` and each of its programs, the script
is evaluated on the accelerated virtual clock and on the real clock: the per-test verdicts
(name, passed) are the same on both clocks, and they are the verdicts the case expects (those
of a browser running in real time). Every case has tests that must fail: a wrong program, or
(for the six sampled cases) a program whose bug shows in two of the six.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.corpus import PUBLISHED_STYLE_CASES, Case, Variant, param_id
from tests.corpus.check import check_case

pytestmark = pytest.mark.browser

PARAMS = [p for case in PUBLISHED_STYLE_CASES for p in case.params()]


@pytest.mark.parametrize(("case", "variant"), PARAMS, ids=[param_id(p) for p in PARAMS])
def test_published_style_case_gets_its_expected_verdicts_on_both_clocks(
    case: Case,
    variant: Variant,
    tmp_path: Path,
    evaluate,  # type: ignore[no-untyped-def]
) -> None:
    check_case(case, variant, tmp_path / case.id, evaluate)

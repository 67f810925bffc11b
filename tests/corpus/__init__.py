"""Conformance corpus for the evaluation page.

Each case is an evaluation script (`scripts/<id>.js`) with the programs it judges, built with
`studio.services.core.projectbuild`, and the per-test verdicts each program must get. Together the
cases exercise what published Scratch benchmarks rely on: bitmap (resolution 1 and 2) and vector
costumes, sounds, the pen and music extensions, bitmap backdrops, a large project, clones,
ask/answer, broadcasts, the Scratch timer, lists, keyboard and mouse input, and scripts written
in the published ScratchWorld style (Date.now() and performance.now() loops, `Date()` without
`new`, setInterval polling, SAY listeners, many cases sampled for seconds each).

The expected verdicts are those a browser running in real time gives; the evaluation page must
give the same on its real clock and on its accelerated virtual clock. Every case has a program
that fails some of its tests (a "wrong" variant, or failing tests in the same run), so a
runtime that passes everything is caught.
"""

from tests.corpus.case import Case, Variant, Verdicts, param_id
from tests.corpus.media import MEDIA_CASES
from tests.corpus.published_style import PUBLISHED_STYLE_CASES
from tests.corpus.runtime import RUNTIME_CASES

ALL_CASES: tuple[Case, ...] = MEDIA_CASES + RUNTIME_CASES + PUBLISHED_STYLE_CASES

__all__ = [
    "ALL_CASES",
    "MEDIA_CASES",
    "PUBLISHED_STYLE_CASES",
    "RUNTIME_CASES",
    "Case",
    "Variant",
    "Verdicts",
    "param_id",
]

"""Benchmark formats: one adapter package per format, everything the format needs under one roof.

`scratchworld` (the ScratchWorld repository: its tasks, its drag and perception item sets, the
result folders its runners write, the compatible server and the published evaluation protocol)
and `nl2scratch` (NL2Scratch rows: import, export, scoring) sit side by side; the next format
(a ScratchEval-style repair set) goes beside them. A format adapts the features below it
(diagnostics, runs, episodes, checking, authoring, runtime, core) and nothing below imports a
format: where a feature reads a format's files (the run reports reading a runner's result
folders), the feature names a reader that the format provides (`runs.result_readers`).
"""

__all__: list[str] = []

"""Runs and what is made of them.

Batches of episodes (`batch`) and campaigns that resume (`campaign`), reports over recorded
runs and benchmark runners' result folders (`reports`, `result_readers`, `report_html`),
re-scoring (`rescore`), static bundles (`bundle`) and recorded trajectories (`trajectories`);
a campaign as a ScratchWorld submission is `formats.scratchworld.submission`.
"""

__all__: list[str] = []

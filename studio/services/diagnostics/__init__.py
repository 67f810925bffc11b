"""The diagnostics, Qt-free: drag items (`drag`) and perception QA items (`qa`), their review steps
(`review`), the agents that answer them (`agents`, `llm_agent`), the summary of their runs
(`report`); the published ScratchWorld sets are `formats.scratchworld.items`. The item models are
`studio.models.drag_item`, `qa_item` and `items`.
"""

__all__: list[str] = []

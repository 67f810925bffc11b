"""Exchange with the field: ScratchWorld checkouts imported and exported (`scratchworld`), the
ScratchWorld-compatible server (`scratchworld_api`), the published evaluation protocol as a
reference (`published_protocol`) and campaigns as Inspect AI eval logs (`inspect_log`)."""

__all__: list[str] = []

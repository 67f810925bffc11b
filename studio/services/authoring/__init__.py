"""Authoring studio services: creating and managing task folders, review, lint, check records,
autosave recovery and derived metadata. Qt-free; every function here does blocking file I/O, so
GUI code should call it through `asyncio.to_thread`."""

__all__: list[str] = []

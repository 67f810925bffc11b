"""The window's *Forge debug tasks…*: the forge run in the background, its candidates reviewed."""

__all__: list[str] = []

"""published."""

__all__: list[str] = []

"""runs."""

__all__: list[str] = []

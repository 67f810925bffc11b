"""The agent environment: episodes on the real Scratch editor in primitive or composite mode."""

__all__: list[str] = []

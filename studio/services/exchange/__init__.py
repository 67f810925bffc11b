"""Campaigns in other tools' formats (Inspect AI eval logs)."""

__all__: list[str] = []

"""Labeling: what drag items and perception QA items share (their review), Qt-free."""

__all__: list[str] = []

"""Perception QA items: capture, answers suggested from the VM, scoring, agreement."""

__all__: list[str] = []

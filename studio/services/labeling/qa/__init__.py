"""Perception QA items: capture, answers suggested from the VM, scoring, agreement."""

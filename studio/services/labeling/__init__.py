"""Labeling: what drag items and perception QA items share (their review), Qt-free."""

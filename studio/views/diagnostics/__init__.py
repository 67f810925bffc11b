"""The diagnostics window: the two diagnostic item sets, drag items and perception QA."""

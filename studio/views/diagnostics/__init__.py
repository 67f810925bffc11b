"""The labeling window of the two diagnostic benchmarks: drag items and perception QA."""

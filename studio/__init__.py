"""Scratch Bench Studio: build, check and watch benchmarks of AI agents that program in Scratch."""

__version__ = "0.1.0"

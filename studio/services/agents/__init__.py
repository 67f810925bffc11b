"""Built-in agents (scripted, idle, random, oracle) and the loop that runs one on a task."""

from studio.services.agents.base import Agent, run_episode

__all__ = ["Agent", "run_episode"]

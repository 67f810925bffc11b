"""Built-in agents (scripted, idle, random, oracle) and the loop that runs one on a task."""

from studio.services.episodes.agents.base import Agent, run_episode
from studio.services.episodes.agents.oracle import OracleAgent
from studio.services.episodes.agents.random_agent import RandomAgent
from studio.services.episodes.agents.scripted import IdleAgent, ScriptedAgent

__all__ = ["Agent", "IdleAgent", "OracleAgent", "RandomAgent", "ScriptedAgent", "run_episode"]

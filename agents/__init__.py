"""hexdojo agents: scripted, search and learned fighters, training, tournaments, CLI.

    from hexdojo.agents import make_agent, run_tournament, TournamentConfig
    striker = make_agent("striker:aggression=0.8")
"""

from .base import Agent, AgentError, FunctionAgent
from .registry import agent_names, as_agent, make_agent
from .tournament import TournamentConfig, play_fight, run_tournament

__all__ = [
    "Agent", "AgentError", "FunctionAgent", "TournamentConfig", "agent_names", "as_agent",
    "make_agent", "play_fight", "run_tournament",
]

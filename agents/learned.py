"""Learned (MaskablePPO) agents loaded from checkpoints: the registry sends every ``*.zip``
agent spec here. The agent itself is :class:`hexdojo.agents.policy.LearnedAgent`."""

from __future__ import annotations

from pathlib import Path

from .base import Agent, AgentError


class LearnedAgentUnavailable(AgentError):
    """Learned agents cannot be loaded in this installation (the rl extra is missing)."""


def load_learned_agent(path: str | Path) -> Agent:
    """An agent playing the policy saved in the checkpoint ``path`` (deterministically)."""
    try:
        import sb3_contrib  # noqa: F401
    except ImportError:
        raise LearnedAgentUnavailable(
            f"checkpoint {str(path)!r}: learned agents need the rl extra "
            "(python -m pip install -e '.[rl]')"
        ) from None
    from .policy import LearnedAgent

    return LearnedAgent.load(path)

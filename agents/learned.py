"""Hook for learned (MaskablePPO) agents loaded from checkpoints.

The registry sends every ``*.zip`` agent spec here. Training lands later (issue: NPC
training); until then this stub fails with a clear message instead of a traceback, and the
training work replaces :func:`load_learned_agent` with a loader returning an
:class:`~hexdojo.agents.base.Agent` whose ``act(state)`` encodes the observation and mask
itself and picks a legal choice.
"""

from __future__ import annotations

from pathlib import Path

from .base import Agent, AgentError


class LearnedAgentUnavailable(AgentError):
    """Learned agents cannot be loaded in this installation (yet)."""


def load_learned_agent(path: str | Path) -> Agent:
    """An agent playing the policy saved in the checkpoint ``path``."""
    raise LearnedAgentUnavailable(
        f"checkpoint {str(path)!r}: learned agents need the rl extra "
        "(pip install -e '.[rl]') / not implemented yet"
    )

"""Hook for learned (MaskablePPO) agents loaded from checkpoints.

The registry sends every ``*.zip`` agent spec here, so checkpoints work wherever agent
names do (tournaments, ``hexdojo play --opponent``, the environments' opponent slot). The
policy itself lives in :mod:`.policy` (training's side); this module only keeps the
registry free of the RL imports, which need the ``rl`` extra. Every failure (extra not
installed, not a MaskablePPO file) is an :class:`~hexdojo.agents.base.AgentError` with a
one-line message, never a bare traceback.
"""

from __future__ import annotations

from pathlib import Path

from .base import Agent, AgentError


class LearnedAgentUnavailable(AgentError):
    """Learned agents cannot be loaded in this installation."""


def load_learned_agent(path: str | Path) -> Agent:
    """An agent playing the policy saved in the checkpoint ``path``."""
    try:
        from .policy import LearnedAgent
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise LearnedAgentUnavailable(
            f"checkpoint {str(path)!r}: learned agents need the rl extra "
            f"(python -m pip install -e '.[rl]'): {exc}"
        ) from None
    return LearnedAgent.load(path)

"""Opponents named by a string (``opponent="greedy"``), without the envs importing the agents.

The environments take an opponent object (``act(state) -> Choice``) or a callable; a name
such as ``"greedy"``, ``"striker:aggression=0.8"``, ``"my_agent.py:Bot"`` or
``"runs/npc/npc.zip"`` is handed to the agent registries installed under the entry-point
group ``hexdojo.opponents`` (hexdojo's own is ``hexdojo.agents.registry:make_agent``; a
package of bots may add its own). Imports point one way, rules <- envs <- agents: the
envs find the registry by its entry point, as Gymnasium finds environments, and work in
subprocess workers alike.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

GROUP = "hexdojo.opponents"


def resolve_opponent(opponent: Any) -> Any:
    """An agent for a name (through the installed registries); anything else as it is
    (``None`` and ``"random"`` stay: the env's own uniform random play)."""
    if not isinstance(opponent, str) or opponent == "random":
        return opponent
    registries = sorted(entry_points(group=GROUP), key=lambda ep: ep.name)
    if not registries:
        raise ValueError(f"opponent {opponent!r}: no agent registry is installed (entry points "
                         f"{GROUP!r}: reinstall hexdojo); pass an agent object or a callable")
    return registries[0].load()(opponent)

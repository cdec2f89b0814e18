"""The one agent interface shared by scripted bots, search, learned policies, the
environments' opponent slot and tournaments.

An agent picks a :class:`~hexdojo.envs.rules.Choice` for the fighter who must decide now
(``state.decision.fighter``); it must return one of ``state.legal_choices()``. Keeping the
contract this small (a state in, a legal choice out) lets any callable ``f(state) -> Choice``
stand in for an agent, and lets the environments wrap the same agents as opponents without
knowing how they think.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hexdojo.envs.rules import Choice, State


#: the attribute a run's level carries (:func:`hexdojo.agents.levels.build`): its run's
#: ``npc.zip``, whose sidecar (``checkpoint_meta.agent_meta``) describes the level whatever
#: its agent is (a snapshot without a sidecar, the policy inside a search, a scripted
#: candidate); here, in the leaf both modules import, so neither imports the other
RUN_CHECKPOINT = "npc_checkpoint"


class AgentError(ValueError):
    """A bad agent specification (unknown name, bad parameter, missing checkpoint).

    The message names the bad value and what is allowed, so the CLI can print it as is.
    """


class Agent:
    """Base class of every agent.

    Subclasses set ``name`` and implement :meth:`act`. :meth:`reset` is called at the start
    of every fight with a seed derived from the fight's seed, so that an agent's own
    randomness is reproducible and independent of process scheduling.
    """

    name: str = "agent"

    def act(self, state: State) -> Choice:  # pragma: no cover - interface
        """A legal choice for ``state.decision.fighter``."""
        raise NotImplementedError

    def reset(self, seed: int | None = None) -> None:
        """Start of a fight; agents with their own randomness re-seed here."""

    def native_player(self, game: Any) -> Any | None:
        """This agent as a native player of ``game``'s fights (``hexdojo.agents._bots.Player``:
        the same choices, made inside the core), or None where it has no native form.
        Tournaments play a fight between native players in one call (issue 15)."""
        return None

    def __call__(self, state: State) -> Choice:
        return self.act(state)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class FunctionAgent(Agent):
    """Adapter: any callable ``f(state) -> Choice`` used where an agent is expected."""

    def __init__(self, fn: Callable[[State], Choice], name: str | None = None) -> None:
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "function")

    def act(self, state: State) -> Choice:
        return self.fn(state)


def key_values(spec: str, text: str, allowed: Any, unknown: Callable[[str], str]) -> dict[str, str]:
    """The ``key=value,...`` part of an agent spec, as raw strings by key: every part must be
    key=value, every key one of ``allowed`` (``unknown(key)`` says why not) and given once.
    Registered agents and plug-ins share it; each types the values its own way."""
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, eq, raw = part.partition("=")
        key = key.strip()
        if not eq:
            raise AgentError(f"agent {spec!r}: parameter {part!r} must be key=value")
        if key not in allowed:
            raise AgentError(f"agent {spec!r}: {unknown(key)}; allowed: {', '.join(allowed) or 'none'}")
        if key in out:
            raise AgentError(f"agent {spec!r}: parameter {key!r} given twice")
        out[key] = raw.strip()
    return out

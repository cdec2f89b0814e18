"""Checks of the agents a scene's fight is given, before any fight: every team fits its
side's places, and no NPC is put in a fight it cannot see (a duel NPC in a group, a scene
NPC of another group size). Apart from :mod:`.team` because they read the NPC's sidecar
(:mod:`.checkpoint_meta`), which the registry (that builds teams) must not import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Agent, AgentError
from .checkpoint_meta import agent_meta, describe
from .team import check_team

if TYPE_CHECKING:
    from hexdojo.envs.rules import Game


def check_sides(agents: list[Agent], game: Game) -> None:
    """Every side's team fits its places, and no duel NPC is put in a group fight
    (:func:`refuse_duel_npc`): both said in one line before any fight."""
    for side, a in enumerate(agents):
        check_team(a, game, side)
        for m in getattr(a, "members", [a]):
            refuse_duel_npc(m, game)


def check_round_robin(agents: list[Agent], game: Game) -> None:
    """A round robin plays every agent on both sides: a team must fit each side's places
    (``two_vs_two``'s two and two); one line otherwise, before any fight."""
    for a in agents:
        for side in sorted(set(game.sides)):
            try:
                check_team(a, game, side)
            except AgentError as exc:
                raise AgentError(f"{exc} (a round robin plays every agent on both sides: "
                                 "a team needs as many places on each; demo and play field "
                                 "it on one side)") from None
        for m in getattr(a, "members", [a]):
            refuse_duel_npc(m, game)


def refuse_duel_npc(agent: Agent, game: Game) -> None:
    """A duel NPC (trained on Duel-v1's observation: itself and one opponent) cannot see a
    fight of three or more fighters; one line saying why and what to do, instead of a
    crash at its first decision."""
    if len(game.profiles) <= 2:
        return
    got = agent_meta(agent)
    if got is None:
        return
    path, meta = got
    size = len(meta.get("profiles") or meta["fighters"])
    if meta.get("scene") and size != len(game.profiles):
        raise AgentError(
            f"{agent.name}: an NPC of {describe(meta)}'s {size} fighters ({path}) cannot play "
            f"a fight of {len(game.profiles)}: its observation and actions are sized for "
            f"{size}; train one for this scene (hexdojo train --scene SCENE) or give this "
            "place another agent")
    if meta.get("scene"):
        return
    raise AgentError(
        f"{agent.name}: a duel NPC ({' vs '.join(meta['fighters'])}, {path}) cannot play a "
        f"fight of {len(game.profiles)} fighters: its observation holds one opponent; train "
        "one for the scene (hexdojo train --scene SCENE) or give this place another agent")

"""A side of a scene played by several agents, one per place: ``greedy+runs/npc:hard``.

Why: a GM's bandits come in twos and threes, and a trained NPC may stand beside a scripted
bot (or the NPC in every place). Fights are played side by side (``play_fight``'s
``agents[k]`` plays every fighter of side ``k``), so a team is one agent to them: it hands
each decision to the member of the deciding fighter's place. Members are listed in the
order of the side's fighters in the scene (its ``[[fighters]]`` order), so
``--agents chu_bot,boris_bot+novice_bot`` reads like the scene file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .base import RUN_CHECKPOINT, Agent, AgentError

if TYPE_CHECKING:
    from hexdojo.envs.rules import Choice, Game, State

#: joins a team's members in a spec (a comma already separates sides and a spec's options)
TEAM_SEP = "+"


def side_places(game: Game, side: int) -> list[int]:
    """The fighters (places) of ``side``, in the scene's order."""
    return [f for f, s in enumerate(game.sides) if s == side]


class PlacesAgent(Agent):
    """One agent per place of a side (``members[k]`` plays the side's ``k``-th fighter).
    Each member gets its own seed from the fight's, so a team replays exactly."""

    def __init__(self, members: list[Agent], name: str | None = None) -> None:
        if len(members) < 2:
            raise AgentError(f"team {name!r}: give two or more agents joined by '{TEAM_SEP}'")
        self.members = members
        self.name = name or TEAM_SEP.join(m.name for m in members)
        # the first member that is a trained NPC describes the team's fight (its sidecar)
        for m in members:
            got = getattr(m, RUN_CHECKPOINT, None) or getattr(m, "path", None)
            if got is not None and str(got).lower().endswith(".zip"):
                setattr(self, RUN_CHECKPOINT, got)
                break

    @property
    def spec(self) -> str:
        """The spec that re-builds the team (each member's own, joined)."""
        from .registry import spec_of

        return TEAM_SEP.join(spec_of(m) for m in self.members)

    def reset(self, seed: int | None = None) -> None:
        for k, m in enumerate(self.members):
            m.reset(None if seed is None else
                    int(np.random.SeedSequence([seed, k, 104729]).generate_state(1)[0]))

    def member_for(self, game: Game, fighter: int) -> Agent:
        """The member playing ``fighter``'s place; a team of the wrong size is one line."""
        places = side_places(game, game.sides[fighter])
        check_team(self, game, game.sides[fighter])
        return self.members[places.index(fighter)]

    def act(self, state: State) -> Choice:
        d = state.decision
        assert d is not None
        return self.member_for(state.game, d.fighter).act(state)


def check_team(agent: Agent, game: Game, side: int) -> None:
    """A team must have one member per place of its side (one line naming both counts)."""
    if not isinstance(agent, PlacesAgent):
        return
    places = side_places(game, side)
    if len(places) != len(agent.members):
        names = ", ".join(game.profiles[f].name for f in places)
        raise AgentError(f"agent {agent.name!r}: {len(agent.members)} agents for side "
                         f"{game.side_name(side)!r}, which has {len(places)} place(s) "
                         f"({names}); give one per place, joined by '{TEAM_SEP}'")


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
    from .checkpoint_meta import agent_meta, describe

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


def split_team(spec: str) -> list[str] | None:
    """``a+b`` -> [a, b]; None if ``spec`` is no team (a file whose name holds a '+' is
    a file)."""
    from pathlib import Path

    text = spec.strip()
    if TEAM_SEP not in text or Path(text).exists():
        return None
    return [p.strip() for p in text.split(TEAM_SEP)]


def make_team(spec: str, make: Any) -> PlacesAgent:
    """The team ``a+b+...`` (each member made by ``make``: the registry's make_agent)."""
    parts = split_team(spec) or []
    if any(not p for p in parts):
        raise AgentError(f"agent {spec!r}: an empty member; a team is agents joined by "
                         f"'{TEAM_SEP}', one per place of its side (e.g. greedy+runs/npc:hard)")
    return PlacesAgent([make(p) for p in parts])


def teams_by_place(agents: list[Agent], game: Game) -> list[Agent]:
    """One agent per fighter (``demo --agents a,b,c`` on a scene of three) -> one per side:
    a side of one place keeps its agent, a side of several gets a team."""
    if len(agents) != len(game.profiles):
        raise AgentError(f"agents: {len(agents)} given; this fight has {len(game.profiles)} "
                         f"places and {len(set(game.sides))} sides: give one agent per side "
                         "or one per place")
    out: list[Agent] = []
    for side in sorted(set(game.sides)):
        members = [agents[f] for f in side_places(game, side)]
        out.append(members[0] if len(members) == 1 else PlacesAgent(members))
    return out

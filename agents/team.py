"""A side of a scene played by several agents, one per place: ``greedy+runs/npc:hard``.

Why: a GM's bandits come in twos and threes, and a trained NPC may stand beside a scripted
bot (or the NPC in every place). Fights are played side by side (``play_fight``'s
``agents[k]`` plays every fighter of side ``k``), so a team is one agent to them: it hands
each decision to the member of the deciding fighter's place. Members are listed in the
order of the side's fighters in the scene (its ``[[fighters]]`` order), so
``--agents chu_bot,boris_bot+novice_bot`` reads like the scene file.
"""

from __future__ import annotations

from pathlib import Path
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
        """The spec that re-builds the team (each member's own, joined; a file's made
        absolute, as ``registry.spec_of`` does, so results re-build from any folder)."""
        return TEAM_SEP.join(_member_spec(m) for m in self.members)

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


def _member_spec(agent: Agent) -> str:
    spec = str(getattr(agent, "spec", None) or agent.name)
    head, colon, rest = spec.partition(":")
    if colon and head.endswith(".py") and Path(head).exists():  # a plug-in FILE.py:Class
        return f"{Path(head).resolve()}:{rest}"
    return str(Path(spec).resolve()) if Path(spec).exists() else spec


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


def split_team(spec: str) -> list[str] | None:
    """``a+b`` -> [a, b]; None if ``spec`` is no team (a file whose name holds a '+' is
    a file)."""
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

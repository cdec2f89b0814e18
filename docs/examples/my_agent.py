"""A plug-in agent as a user would write one: "greedy, but it kicks whenever it can".

Use it anywhere hexdojo takes an agent name::

    hexdojo demo --agents docs/examples/my_agent.py:Kicker,greedy
    hexdojo tournament docs/examples/my_agent.py:Kicker greedy striker --fights 50
    hexdojo play --opponent "docs/examples/my_agent.py:Kicker:flying=true"
    python scripts/ladder_vs_random.py --agents docs/examples/my_agent.py:Kicker

It only asks the engine: ``state.legal_choices()`` lists what the fighter to move may do
(every choice there is legal), ``state.decision`` says what is being decided. Whatever is
not a chance to kick (reactions, dice, soaks, moving in) it leaves to a stock agent.
"""

from __future__ import annotations

from hexdojo.agents import Agent, make_agent
from hexdojo.envs.rules import Choice, State


class Kicker(Agent):
    """Plays a Martial Kick whenever one is legal, otherwise what ``fallback`` plays.

    ``flying``: prefer the flying kick (option 1) when it is legal too.
    ``fallback``: any agent spec (default the greedy one-ply bot).
    """

    def __init__(self, flying: bool = False, fallback: str = "greedy") -> None:
        self.flying = flying
        self.fallback = make_agent(fallback)
        self.name = "kicker" + ("-flying" if flying else "")

    def reset(self, seed: int | None = None) -> None:
        self.fallback.reset(seed)

    def act(self, state: State) -> Choice:
        legal = state.legal_choices()
        kicks = [c for c in legal if c.kind == "maneuver" and c.maneuver == "Martial Kick"]
        if not kicks:
            return self.fallback.act(state)
        if self.flying and any(c.option == 1 for c in kicks):
            kicks = [c for c in kicks if c.option == 1]
        ranked = getattr(self.fallback, "ranked", None)  # the stock bot's order, if it has one
        if callable(ranked):
            return next(c for c in ranked(state) if c in kicks)
        return kicks[0]

"""Why does an agent lose to random play? The first-wound race, counted.

Plays AGENT against ``random`` on both sides with the same fight seeds (as the ladder
does) and, for every fight, notes who landed the first wound (a hit that left a wound of
Scratch or worse after soak) and who won. For the fights where random wounded first it
also counts random's wounding maneuver and the agent's defence against it, and sums up
how the agent plays (attacks per fight, dice risked on attacks, waiting, knock-overs
dealt and suffered, the attacks it has to face). Comparing
agents (a checkpoint path works as AGENT) shows what the stronger one does differently:
whoever wounds first nearly always wins.

    python scripts/first_wound.py                       # counter, chu mirror, 300 seeds
    python scripts/first_wound.py --agent search --fights 100 --fighters rider,rider
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np
from tqdm import tqdm

from hexdojo.agents.registry import make_agent
from hexdojo.agents.tournament import agent_seed
from hexdojo.envs.rules import Game, State


def play(game: Game, agent_spec: str, seed: int, side: int) -> State:
    """One fight: the agent as fighter ``side``, random legal play as the other."""
    agents = [make_agent("random"), make_agent("random")]
    agents[side] = make_agent(agent_spec)
    for i, a in enumerate(agents):
        a.reset(agent_seed(seed, i))
    st = game.new_state(seed)
    while not st.is_over:
        st.apply(agents[st.decision.fighter].act(st))  # type: ignore[union-attr]
    return st


def first_wound(st: State) -> tuple[int | None, str | None, str | None]:
    """(fighter wounded first by the other, the wounding maneuver, the victim's defence),
    or Nones. Wounds from striking armour (self-injury) do not count."""
    attack = damage = None
    for e in st.events:
        if e["type"] == "attack":
            attack = e
        elif e["type"] == "damage":
            damage = e
        elif e["type"] == "wound" and damage is not None and damage["kind"] != "self":
            if damage["kind"] != "attack" or attack is None:  # a painful lock's damage
                return e["a"], damage["maneuver"], "held"
            defence = attack.get("defence_maneuver") or (
                f"counter {attack['counter']}" if attack.get("counter") else "none")
            return e["a"], damage["maneuver"], defence
    return None, None, None


def play_style(st: State, side: int) -> tuple[Counter, list[int], int]:
    """How fighter ``side`` played, from the event log: attacks declared (by maneuver),
    the dice risked on each attack roll, and how often it let the other phase first."""
    attacks: Counter = Counter()
    risks: list[int] = []
    waits = 0
    for e in st.events:
        if e.get("a") != side:
            continue
        if e["type"] == "declare":
            attacks[e["maneuver"]] += 1
        elif e["type"] == "attack":
            risks.append(e["attack"]["risk"])
        elif e["type"] == "wait":
            waits += 1
    return attacks, risks, waits


def tempo(st: State, side: int) -> tuple[int, int, int]:
    """The AP war (§1.13), from the event log: how often fighter ``side`` knocked the
    other over (knock-back: prone and -2 AP), how often it was knocked over itself, and
    how many attack rolls the other made against it."""
    dealt = taken = received = 0
    for e in st.events:
        if e["type"] == "knockback" and e["effect"] == "knocked over":
            if e["a"] == side:
                taken += 1
            else:
                dealt += 1
        elif e["type"] == "attack" and e["t"] == side:
            received += 1
    return dealt, taken, received


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", default="counter")
    ap.add_argument("--fights", type=int, default=300, help="seeds (each played on both sides)")
    ap.add_argument("--fighters", default="chu,chu")
    args = ap.parse_args(argv)
    game = Game.create(args.fighters.split(","))
    table: Counter = Counter()
    how: Counter = Counter()
    attacks: Counter = Counter()
    risks: list[int] = []
    waits = 0
    war = np.zeros(3)
    for seed in tqdm(range(args.fights), desc=f"{args.agent} vs random", unit="seed"):
        for side in (0, 1):
            st = play(game, args.agent, 90_000 + seed, side)
            victim, maneuver, defence = first_wound(st)
            first = "nobody" if victim is None else ("random" if victim == side else args.agent)
            w = st.winner
            won = "draw" if w is None else (args.agent if w == side else "random")
            table[(first, won)] += 1
            if first == "random":
                how[(maneuver, defence)] += 1
            a, r, w = play_style(st, side)
            attacks.update(a)
            risks.extend(r)
            waits += w
            war += tempo(st, side)
    n = sum(table.values())
    print(f"{args.agent} vs random, {args.fighters}, {n} fights (each seed on both sides)\n")
    print("| first wound by | fights | agent wins | random wins | draws |")
    print("|---|---|---|---|---|")
    for first in (args.agent, "random", "nobody"):
        row = [table[(first, r)] for r in (args.agent, "random", "draw")]
        if sum(row):
            print(f"| {first} | {sum(row)} | {row[0]} | {row[1]} | {row[2]} |")
    top = ", ".join(f"{m} {k / n:.2f}" for m, k in attacks.most_common(4))
    zero = sum(r == 0 for r in risks) / max(1, len(risks))
    print(f"\n{args.agent}'s play per fight: {sum(attacks.values()) / n:.2f} attacks ({top}); "
          f"dice risked on its attack rolls: mean {np.mean(risks or [0]):.1f}, none in "
          f"{zero:.0%}; lets random phase first {waits / n:.2f} times")
    dealt, taken, received = war / n
    print(f"knock-back (§1.13) per fight: {args.agent} knocks random over {dealt:.2f} times, "
          f"is knocked over {taken:.2f} times; random makes {received:.2f} attack rolls "
          f"against it")
    if how:
        print("\nrandom's first wounding hit: maneuver, and the agent's defence against it\n")
        for (maneuver, defence), k in how.most_common(8):
            print(f"- {k:4d}  {maneuver} vs {defence}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Fingerprint of the agents' choices: a sha256 of every decision of seeded fights and, in
the scored windows, the scripted agents' ``scored_choices`` (the values' repr, their order),
with the counts. A pure refactor or speed-up of the agents must leave it unchanged.

Why: the scripted agents' Python reference (``agents/scripted.py``'s Python scoring on the
Python engine) is gone (issue 15, "each rule once"); this hash, taken while it existed and
equal over the three ways then possible (the Python agents on the Python engine, the Python
agents on the core with their per-decision memos dropped at each call, the native bots on
the core: commit 12bde97), is the lock that replaces the differential tests
(``tests/agents/test_agents_fingerprint.py`` pins it). ``HEXDOJO_NATIVE_AGENTS=0`` only
turns the tournament's fast path off: the same hash.

The fights make the agents' branches happen: unarmed chu/boris/urlik/cogan/novice, armed
guard/spearman/knife_fighter, the ``rider_vs_foot`` and ``two_vs_one`` scenes, a rule
variant, every agent with a native form (random, greedy, striker, grappler, counter,
swordsman, a ``style_agent`` with aggression/risk overrides, ``mcts`` and ``search``: a few
fights, they are slower).

    python scripts/agents_fingerprint.py [--fights 4]

``--fights N``: seeds per scripted pairing (the search pairings get ``max(1, N // 4)``).
"""

from __future__ import annotations

import argparse
import hashlib
from collections import Counter
from typing import Any

from hexdojo.agents.registry import make_agent
from hexdojo.agents.scripted import HeuristicAgent
from hexdojo.envs.rules.pairings import make_game

#: (pairing or scene, the sides' agent specs, seeds per --fights unit, rule overrides)
FIGHTS: list[tuple[str, tuple[str, str], float, Any]] = [
    ("chu-chu", ("greedy", "striker"), 1.0, None),
    ("chu-boris", ("grappler", "random"), 1.0, None),
    ("urlik-cogan", ("counter", "grappler"), 0.5, None),
    ("novice-chu", ("striker:aggression=0.3,risk=3", "greedy"), 1.0, None),
    ("boris-urlik", ("striker", "counter"), 1.0, None),
    ("cogan-novice", ("greedy:aggression=0.5,risk=2", "random"), 1.0, None),
    ("guard-spearman", ("swordsman", "swordsman"), 1.0, None),
    ("knife_fighter-guard", ("swordsman", "random"), 1.0, None),
    ("guard-chu", ("swordsman", "grappler"), 0.5, None),
    ("spearman-boris", ("swordsman", "striker"), 1.0, None),
    ("cogan-knife_fighter", ("counter", "swordsman"), 1.0, None),
    ("rider_vs_foot", ("greedy", "counter"), 1.0, None),
    ("two_vs_one", ("grappler", "striker"), 0.5, None),
    ("chu-boris", ("counter", "striker"), 1.0, {"attack": {"rear_bonus": 3}}),
    # the search agents (their own budgets: a few fights)
    ("chu-boris", ("mcts", "greedy"), 0.25, None),
    ("guard-spearman", ("search", "swordsman"), 0.25, None),
    ("chu-chu", ("striker", "mcts:sims=32,width=3"), 0.25, None),
    ("boris-urlik", ("search:sims=24,caution=1", "counter"), 0.25, None),
]
SCORED = ("action", "reaction", "follow_on")


def seeds_of(per: float, fights: int) -> range:
    """The seeds of one FIGHTS row: ``per`` times ``--fights``, at least one."""
    return range(max(1, int(per * fights)))


def agent(spec: str, seed: int) -> Any:
    """A fresh agent of ``spec`` seeded with the fight's seed (random and search draw)."""
    a = make_agent(spec)
    a.reset(seed)
    return a


def record(digest: Any, s: Any, a: Any, seen: Counter) -> Any:
    """One decision into the digest: the choice (its legal index and repr) and, for a
    scripted agent in a maneuver window, every scored value's repr in the agent's order."""
    d = s.decision
    choices = s.legal_choices()
    c = a.act(s)
    digest.update(f"{d.kind}:{d.fighter}:{choices.index(c)}:{c!r};".encode())
    count(s, a, c, seen)
    if isinstance(a, HeuristicAgent) and d.kind in SCORED:
        sc = a.scored_choices(s)
        digest.update(";".join(f"{v!r}@{choices.index(ch)}" for v, ch in sc).encode())
        seen["scored"] += 1
        seen["scored_values"] += len(sc)
    return c


def count(s: Any, a: Any, c: Any, seen: Counter) -> None:
    """The situations a decision met (not hashed: the counts show that the branches came
    up, so a pinned hash cannot be vacuous)."""
    d = s.decision
    seen["decisions"] += 1
    seen[f"{d.kind}:{d.about}" if d.about else d.kind] += 1
    seen[f"by:{type(a).__name__}"] += 1
    if d.kind == "reaction" and s.context().get("attack") is not None:
        seen["reaction_to_attack"] += 1
    if s.holds:
        seen["while_held"] += 1
    if c.kind == "maneuver" and s.t.maneuvers[c.maneuver].weapon is not None:
        seen["weapon_choice"] += 1


def play(digest: Any, pairing: str, specs: tuple[str, str], seed: int, rules: Any,
         seen: Counter) -> None:
    """One seeded fight, every decision recorded; its end (winner, turn) too."""
    game = make_game(pairing, rules=rules)
    s = game.new_state(seed)
    sides = [agent(spec, seed) for spec in specs]
    digest.update(f"|{pairing}:{specs}:{seed}|".encode())
    for _ in range(5000):
        if s.is_over:
            break
        s.apply(record(digest, s, sides[game.sides[s.decision.fighter]], seen))
    digest.update(f"end:{s.winner}:{s.turn}".encode())
    seen["fights"] += 1


def fingerprint(fights: int) -> tuple[str, Counter]:
    """The hash and the counts over FIGHTS at ``fights`` seeds a scripted pairing."""
    digest = hashlib.sha256()
    seen: Counter = Counter()
    for pairing, specs, per, rules in FIGHTS:
        for seed in seeds_of(per, fights):
            play(digest, pairing, specs, seed, rules, seen)
    return digest.hexdigest(), seen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fights", type=int, default=4, help="seeds per scripted pairing")
    args = ap.parse_args()
    h, seen = fingerprint(args.fights)
    print(f"{h} ({seen['fights']} fights, {seen['decisions']} decisions, "
          f"{seen['scored']} scored windows, {seen['scored_values']} values)")


if __name__ == "__main__":
    main()

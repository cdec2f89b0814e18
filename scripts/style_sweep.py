"""Random search over the scripted styles' weights against one opponent.

Draws style variants (a base style with its weights redrawn: aggression, defend, counter,
follow, wait, approach, grab, kick; see ``agents/scripted.py``), plays each against the
opponent on both sides with the same fight seeds, and prints the variants best first with
their win rates (draws count as not won). Answers "could a better-tuned bot do much
better?" for a match-up; the unmodified base styles are always included for reference.

    python scripts/style_sweep.py                           # 24 variants vs random, chu mirror
    python scripts/style_sweep.py --variants 40 --fights 300 --opponent striker --workers 2
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
from dataclasses import replace
from typing import Any

import numpy as np
from tqdm import tqdm

from hexdojo.agents.registry import make_agent
from hexdojo.agents.scripted import STYLES, HeuristicAgent
from hexdojo.agents.tournament import play_fight
from hexdojo.envs.rules import Game

BASES = ("counter", "greedy", "striker")
GRID: dict[str, tuple[Any, ...]] = {
    "aggression": (0.0, 0.2, 0.5, 1.0),
    "defend": (0.7, 1.0, 1.4, 2.0, 3.0),
    "counter": (0.5, 1.0, 1.3, 2.0),
    "follow": (0.0, 1.0, 2.0, 4.0),
    "wait": (True, False),
    "approach": (0.0, 0.5, 0.9),
    "grab": (0.3, 0.9, 1.5),
    "kick": (0.3, 0.9, 1.2),
}


def variants(n: int, seed: int) -> list[dict[str, Any]]:
    """The base styles, then ``n`` random variants of them."""
    rng = np.random.default_rng(seed)
    out: list[dict[str, Any]] = [{"base": b} for b in BASES]
    for _ in range(n):
        v: dict[str, Any] = {"base": BASES[int(rng.integers(len(BASES)))]}
        for key, values in GRID.items():
            x = values[int(rng.integers(len(values)))]
            v[key] = bool(x) if isinstance(x, bool) else float(x)
        out.append(v)
    return out


def win_rate(job: tuple[dict[str, Any], str, tuple[str, ...], int]) -> float:
    """Win rate of one variant against the opponent, both sides, the same seeds."""
    variant, opponent, fighters, fights = job
    params = {k: v for k, v in variant.items() if k != "base"}
    style = replace(STYLES[variant["base"]], **params)
    game = Game.create(list(fighters))
    wins = 0
    for seed in range(fights):
        for side in (0, 1):
            agents = [make_agent(opponent), make_agent(opponent)]
            agents[side] = HeuristicAgent(style, "variant")
            wins += play_fight(game, agents, 90_000 + seed).winner == side
    return wins / (2 * fights)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", type=int, default=24)
    ap.add_argument("--fights", type=int, default=150, help="seeds per variant (x2 sides)")
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--fighters", default="chu,chu")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    make_agent(args.opponent)  # a bad name fails here, before any work
    vs = variants(args.variants, args.seed)
    jobs = [(v, args.opponent, tuple(args.fighters.split(",")), args.fights) for v in vs]
    with mp.Pool(max(1, args.workers)) as pool:
        rates = list(tqdm(pool.imap(win_rate, jobs), total=len(jobs), desc="variants"))
    print(f"{len(vs)} style variants vs {args.opponent}, {args.fighters}, "
          f"{2 * args.fights} fights each\n")
    for v, r in sorted(zip(vs, rates, strict=True), key=lambda x: -x[1]):
        print(f"{r:6.1%}  {json.dumps(v)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

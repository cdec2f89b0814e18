"""Speed of the bare rules engine: random legal play on one core, through the public API.

Measures decisions/s and fights/s (random legal choices for both fighters, every preset
pairing, ``legal_choices()`` + ``apply`` per decision) and clones/s (``clone()`` of
mid-fight states) on the native core, and in the same run PettingZoo's ``connect_four_v3``
under random legal play, the reference whose ratio is the comparable figure on a shared
machine. Targets: issue 15 >= 500k decisions/s and >= 2M clones/s (the Python engine,
deleted since, made 64-70k and ~490k; docs/history/native-core-port.md has the ratios measured against
it). Decisions are also reported per second of the process's own CPU time, which on a
machine shared with other jobs is the steadier figure.

The random choices come from the standard library's ``random.Random`` (seeded): numpy's
scalar ``Generator.integers`` call alone costs ~1.7 us, a fifth of a native decision, and
would be measured instead of the engine (``--chooser numpy``: the earlier figures' chooser,
for comparison with them). ``--floor`` adds the floors of a native decision: the
core alone through its Python calls (``apply_index``), and an empty loop.

    python scripts/bench_engine.py [--seconds 10] [--floor]
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from bench_env import bench_connect_four

from hexdojo.envs.rules import Game, preset_names


def chooser(name: str) -> Callable[[int], int]:
    """A seeded uniform pick of 0..n-1 (see the module docstring)."""
    if name == "numpy":
        rng = np.random.default_rng(0)
        return lambda n: int(rng.integers(n))
    return random.Random(0).randrange


def _games() -> list[Any]:
    return [Game.create([a, b]) for a, b in itertools.permutations(preset_names(), 2)]


def play(seconds: float, pick: str = "stdlib") -> dict[str, Any]:
    """Random legal fights through the public State API for ``seconds`` of wall time."""
    choose = chooser(pick)
    games = _games()
    decisions = fights = 0
    snapshots: list[Any] = []
    t0, c0 = time.perf_counter(), time.process_time()
    seed = 0
    while time.perf_counter() - t0 < seconds:
        s = games[seed % len(games)].new_state(seed)
        seed += 1
        while not s.is_over:
            ch = s.legal_choices()
            s.apply(ch[choose(len(ch))])
            decisions += 1
            if decisions % 997 == 0 and len(snapshots) < 200:
                snapshots.append(s.clone())
        fights += 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"decisions": decisions, "fights": fights, "wall": wall, "cpu": cpu,
            "snapshots": snapshots}


def clones(snapshots: list[Any], seconds: float) -> float:
    """clone()s per second of the mid-fight snapshots (the search agents' hot call)."""
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for s in snapshots:
            s.clone()
        n += len(snapshots)
    return n / (time.perf_counter() - t0)


def floors(seconds: float) -> None:
    """What a native decision cannot go below through Python: the core's own decisions
    through its bare calls (``is_over``, ``n_legal``, ``apply_index``; fights started as
    above), and the same loop with the core's calls taken out."""
    choose, games = chooser("stdlib"), _games()
    decisions = seed = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        c = games[seed % len(games)].new_state(seed)._core
        seed += 1
        while not c.is_over:
            c.apply_index(choose(c.n_legal))
            decisions += 1
    core = decisions / (time.perf_counter() - t0)
    core_cpu = decisions / (time.process_time() - c0)
    t0 = time.perf_counter()
    for _ in range(decisions):
        choose(20)
    empty = decisions / (time.perf_counter() - t0)
    print(f"[floor] the core alone through its Python calls: {core:,.0f} decisions/s, "
          f"{core_cpu:,.0f} per CPU second (fights started through new_state); the pick "
          f"alone: {empty:,.0f}/s")


def measure(seconds: float, pick: str = "stdlib") -> dict[str, float]:
    r = play(seconds, pick)
    d = r["decisions"]
    out = {"decisions/s": d / r["wall"], "decisions per CPU second": d / r["cpu"],
           "fights/s": r["fights"] / r["wall"], "decisions per fight": d / max(r["fights"], 1),
           "clones/s": clones(r["snapshots"], max(2.0, seconds / 3)),
           "core share": r["cpu"] / r["wall"]}
    print(f"decisions/s: {out['decisions/s']:,.0f}  (target >= 500,000)")
    print(f"decisions per CPU second: {out['decisions per CPU second']:,.0f}  "
          f"(process time; {out['core share']:.0%} of a core)")
    print(f"fights/s:    {out['fights/s']:,.1f}  ({out['decisions per fight']:.0f} decisions per fight)")
    print(f"clones/s:    {out['clones/s']:,.0f}  (target >= 2,000,000)")
    return out


def reference(seconds: float) -> float:
    """connect_four_v3 env steps per second under random legal play, for ~``seconds``."""
    steps = 2000
    rate = bench_connect_four(steps, 0)
    return bench_connect_four(max(steps, int(rate * seconds)), 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--chooser", choices=("stdlib", "numpy"), default="stdlib")
    ap.add_argument("--floor", action="store_true", help="also measure a native decision's floors")
    args = ap.parse_args()
    got = measure(args.seconds, args.chooser)
    c4 = reference(max(2.0, args.seconds / 2))
    print(f"connect_four_v3: {c4:,.0f} env steps/s (random legal, same process): decisions "
          f"{got['decisions/s'] / c4:.1f}x, clones {got['clones/s'] / c4:.1f}x its steps")
    if args.floor:
        floors(max(2.0, args.seconds / 2))


if __name__ == "__main__":
    main()

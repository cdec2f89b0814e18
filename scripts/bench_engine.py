"""Speed of the bare rules engine: random legal play on one core.

Measures decisions/s and fights/s (random legal choices for both fighters, every preset
pairing) and clones/s (State.clone() of mid-fight states). Targets (issue 2): >= 50k
decisions/s and >= 50k clones/s. Decisions are also reported per second of the process's
own CPU time, which on a machine shared with other jobs is the steadier figure.

    python scripts/bench_engine.py [--seconds 10]
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np

from hexdojo.envs.rules import Game, preset_names


def play(seconds: float) -> tuple[int, int, float, float, list]:
    rng = np.random.default_rng(0)
    games = [Game.create([a, b]) for a, b in itertools.permutations(preset_names(), 2)]
    decisions = fights = 0
    snapshots = []
    t0 = time.perf_counter()
    c0 = time.process_time()
    seed = 0
    while time.perf_counter() - t0 < seconds:
        g = games[seed % len(games)]
        s = g.new_state(seed)
        seed += 1
        while not s.is_over:
            ch = s.legal_choices()
            s.apply(ch[int(rng.integers(len(ch)))])
            decisions += 1
            if decisions % 997 == 0 and len(snapshots) < 200:
                snapshots.append(s.clone())
        fights += 1
    return decisions, fights, time.perf_counter() - t0, time.process_time() - c0, snapshots


def clones(snapshots: list, seconds: float) -> float:
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for s in snapshots:
            s.clone()
        n += len(snapshots)
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    d, f, dt, cpu, snaps = play(args.seconds)
    cps = clones(snaps, max(2.0, args.seconds / 3))
    print(f"decisions/s: {d / dt:,.0f}  (target >= 50,000)")
    print(f"decisions per CPU second: {d / cpu:,.0f}  (process time; {cpu / dt:.0%} of a core)")
    print(f"fights/s:    {f / dt:,.1f}  ({d / max(f, 1):.0f} decisions per fight)")
    print(f"clones/s:    {cps:,.0f}  (target >= 50,000)")


if __name__ == "__main__":
    main()

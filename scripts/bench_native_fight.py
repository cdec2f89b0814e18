"""The native fight's speed against the Python engine's (issue 15), in one run: decisions per
second of seeded random play through each engine's Python API (the Python State; the core's
Fight with int-tuple choices, and by the index of a legal choice; no event dicts built), and
clones per second (the Python State.clone(); the core's, natively and through the Python call).

    python scripts/bench_native_fight.py                  # chu-urlik, 2 s per measure
    python scripts/bench_native_fight.py --pairing two_vs_two --seconds 5
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from hexdojo.envs.rules.native_fight import NativeFight
from hexdojo.envs.rules.pairings import make_game, pairings


def python_decisions(game, seconds: float) -> float:
    n, seed, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s, rng = game.new_state(seed=seed), np.random.default_rng(seed)
        while not s.is_over:
            ch = s.legal_choices()
            s.apply(ch[int(rng.integers(len(ch)))])
            n += 1
        seed += 1
    return n / (time.perf_counter() - t0)


def native_decisions(game, seconds: float) -> float:
    n, seed, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        f, rng = NativeFight(game, seed).core, np.random.default_rng(seed)
        while not f.is_over:
            ch = f.legal()
            f.apply(ch[int(rng.integers(len(ch)))])
            n += 1
        seed += 1
    return n / (time.perf_counter() - t0)


def native_indexed(game, seconds: float) -> float:
    n, seed, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        f, rng = NativeFight(game, seed).core, np.random.default_rng(seed)
        while not f.is_over:
            f.apply_index(int(rng.integers(f.n_legal)))
            n += 1
        seed += 1
    return n / (time.perf_counter() - t0)


def mid_fight(game):
    """A Python state and a native fight 40 random decisions into seed 1's fight."""
    s, f, rng = game.new_state(seed=1), NativeFight(game, 1), np.random.default_rng(1)
    for _ in range(40):
        if s.is_over:
            break
        ch = s.legal_choices()
        c = ch[int(rng.integers(len(ch)))]
        s.apply(c)
        f.apply(c)
    return s, f.core


def per_second(fn, seconds: float) -> float:
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(1000):
            fn()
        n += 1000
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairing", default="chu-urlik", choices=pairings())
    ap.add_argument("--seconds", type=float, default=2.0)
    a = ap.parse_args()
    g = make_game(a.pairing)
    py, nat = python_decisions(g, a.seconds), native_decisions(g, a.seconds)
    idx = native_indexed(g, a.seconds)
    s, f = mid_fight(g)
    pc, nc = per_second(s.clone, a.seconds), per_second(f.clone, a.seconds)
    k = 200_000
    native_clones = k / f.time_clones(k)
    print(f"{a.pairing}: decisions/s  python {py:,.0f}  native via Python {nat:,.0f} ({nat / py:.1f}x)  "
          f"native by index {idx:,.0f} ({idx / py:.1f}x)")
    print(f"{a.pairing}: clones/s  python {pc:,.0f}  native via Python {nc:,.0f} ({nc / pc:.1f}x)  "
          f"native inside the core {native_clones:,.0f} ({native_clones / pc:.1f}x)")


if __name__ == "__main__":
    main()

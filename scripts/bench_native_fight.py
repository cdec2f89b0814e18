"""The native fight's speed at each of its Python layers (issue 15), in one run: decisions
per second of seeded random play through the ``State`` API, through the core's ``Fight`` with
int-tuple choices, and by the index of a legal choice (no event dicts built), and clones per
second (``State.clone()``; the core's, through the Python call and natively). The Python
engine these were once compared with is deleted (docs/history/native-core-port.md has those ratios).

    python scripts/bench_native_fight.py                  # chu-urlik, 2 s per measure
    python scripts/bench_native_fight.py --pairing two_vs_two --seconds 5
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from hexdojo.envs.rules.pairings import make_game, pairings


def decisions(game: Any, seconds: float, start: Callable[[Any, int], Any],
              step: Callable[[Any, np.random.Generator], None]) -> float:
    """Decisions/s of seeded random fights: ``start(game, seed)`` a fight, ``step`` a choice."""
    n, seed, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        f, rng = start(game, seed), np.random.default_rng(seed)
        while not f.is_over:
            step(f, rng)
            n += 1
        seed += 1
    return n / (time.perf_counter() - t0)


def _api(s: Any, rng: np.random.Generator) -> None:
    ch = s.legal_choices()
    s.apply(ch[int(rng.integers(len(ch)))])


def _tuples(f: Any, rng: np.random.Generator) -> None:
    ch = f.legal()
    f.apply(ch[int(rng.integers(len(ch)))])


def _index(f: Any, rng: np.random.Generator) -> None:
    f.apply_index(int(rng.integers(f.n_legal)))


def _core(game: Any, seed: int) -> Any:
    return game.new_state(seed)._core


def mid_fight(game):
    """A State and a core fight 40 random decisions into seed 1's fight."""
    s, f, rng = game.new_state(seed=1), game.new_state(1), np.random.default_rng(1)
    for _ in range(40):
        if s.is_over:
            break
        ch = s.legal_choices()
        c = ch[int(rng.integers(len(ch)))]
        s.apply(c)
        f.apply(c)
    return s, f._core


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
    py = decisions(g, a.seconds, lambda game, seed: game.new_state(seed=seed), _api)
    nat, idx = decisions(g, a.seconds, _core, _tuples), decisions(g, a.seconds, _core, _index)
    s, f = mid_fight(g)
    pc, nc = per_second(s.clone, a.seconds), per_second(f.clone, a.seconds)
    k = 200_000
    native_clones = k / f.time_clones(k)
    print(f"{a.pairing}: decisions/s  State API {py:,.0f}  core Fight via Python {nat:,.0f} "
          f"({nat / py:.1f}x)  by index {idx:,.0f} ({idx / py:.1f}x)")
    print(f"{a.pairing}: clones/s  State.clone {pc:,.0f}  core's via Python {nc:,.0f} "
          f"({nc / pc:.1f}x)  inside the core {native_clones:,.0f} ({native_clones / pc:.1f}x)")


if __name__ == "__main__":
    main()

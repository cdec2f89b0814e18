"""Speed of the bare rules engine: random legal play on one core, through the public API.

Measures decisions/s and fights/s (random legal choices for both fighters, every preset
pairing, ``legal_choices()`` + ``apply`` per decision) and clones/s (``clone()`` of
mid-fight states), for the Python engine, the native core behind the same API
(``NativeState``, issue 15) or both in one run (``--engine both``: the native/Python
ratios, measured in the same process, are the comparable figures on a shared machine).
Targets: issue 2 >= 50k decisions/s and clones/s (Python); issue 15 >= 500k decisions/s
and >= 2M clones/s (native). Decisions are also reported per second of the process's own
CPU time, which on a machine shared with other jobs is the steadier figure.

The random choices come from the standard library's ``random.Random`` (seeded): numpy's
scalar ``Generator.integers`` call alone costs ~1.7 us, a fifth of a native decision, and
would be measured instead of the engine (``--chooser numpy``: the earlier figures' chooser,
for comparison with them). ``--floor`` adds the floors of a native decision: the
core alone through its Python calls (``apply_index``), and an empty loop.

    python scripts/bench_engine.py [--seconds 10] [--engine python|native|both] [--floor]
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from hexdojo.envs.rules import Game, preset_names

ENGINES = ("python", "native")


def chooser(name: str) -> Callable[[int], int]:
    """A seeded uniform pick of 0..n-1 (see the module docstring)."""
    if name == "numpy":
        rng = np.random.default_rng(0)
        return lambda n: int(rng.integers(n))
    return random.Random(0).randrange


def _games() -> list[Any]:
    return [Game.create([a, b]) for a, b in itertools.permutations(preset_names(), 2)]


def play(engine: str, seconds: float, pick: str = "stdlib") -> dict[str, Any]:
    """Random legal fights through the public State API for ``seconds`` of wall time."""
    choose = chooser(pick)
    games = _games()
    decisions = fights = 0
    snapshots: list[Any] = []
    t0, c0 = time.perf_counter(), time.process_time()
    seed = 0
    while time.perf_counter() - t0 < seconds:
        s = games[seed % len(games)].new_state(seed, engine=engine)
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
        c = games[seed % len(games)].new_state(seed, engine="native")._core
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


def measure(engine: str, seconds: float, pick: str = "stdlib") -> dict[str, float]:
    r = play(engine, seconds, pick)
    d = r["decisions"]
    out = {"decisions/s": d / r["wall"], "decisions per CPU second": d / r["cpu"],
           "fights/s": r["fights"] / r["wall"], "decisions per fight": d / max(r["fights"], 1),
           "clones/s": clones(r["snapshots"], max(2.0, seconds / 3)),
           "core share": r["cpu"] / r["wall"]}
    target = "50,000" if engine == "python" else "500,000"
    print(f"[{engine}] decisions/s: {out['decisions/s']:,.0f}  (target >= {target})")
    print(f"[{engine}] decisions per CPU second: {out['decisions per CPU second']:,.0f}  "
          f"(process time; {out['core share']:.0%} of a core)")
    print(f"[{engine}] fights/s:    {out['fights/s']:,.1f}  "
          f"({out['decisions per fight']:.0f} decisions per fight)")
    ctarget = "50,000" if engine == "python" else "2,000,000"
    print(f"[{engine}] clones/s:    {out['clones/s']:,.0f}  (target >= {ctarget})")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--engine", choices=(*ENGINES, "both"), default="python")
    ap.add_argument("--chooser", choices=("stdlib", "numpy"), default="stdlib")
    ap.add_argument("--floor", action="store_true", help="also measure a native decision's floors")
    args = ap.parse_args()
    engines = ENGINES if args.engine == "both" else (args.engine,)
    got = {e: measure(e, args.seconds, args.chooser) for e in engines}
    if args.floor:
        floors(max(2.0, args.seconds / 2))
    if len(got) == 2:
        py, nat = got["python"], got["native"]
        for k in ("decisions/s", "decisions per CPU second", "fights/s", "clones/s"):
            print(f"native/python {k}: {nat[k] / py[k]:.1f}x")


if __name__ == "__main__":
    main()

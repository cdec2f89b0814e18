"""Speed of the native legality layer against the Python engine's, on the same states.

Collects the states at every maneuver window of seeded random fights (unarmed duel, armed
duel, a group scene), then times, over all of them, best of ``--rounds``:

- Python: ``legality.maneuver_choices(s, w)`` with its memo warm (every state asked once
  before timing, as in a long run);
- native: ``_core.maneuver_choices(tables, state, window)`` on the core's state and window
  (the call the native engine will make), rows into a numpy array;
- native into a buffer: ``_core.maneuver_choices_into`` (a preallocated int32 array, as the
  env's mask is written);
- native inside the core: ``_core.time_maneuver_choices`` (the lists computed in a C++ loop,
  timed there: the cost the native engine pays, without a Python call per list);
- native from Python objects: ``native_reasons.maneuver_choices(s, w)`` (converting the
  Python state and window, and the rows back to Choices: what a test pays, not the engine).

    python scripts/bench_core_legality.py --fights 20
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from hexdojo.envs.rules import Game, _core, legality
from hexdojo.envs.rules import native_reasons as nr
from hexdojo.envs.rules.native import Ids, compile_tables, core_state, core_window

GAMES: dict[str, Callable[[], Game]] = {
    "chu-urlik": lambda: Game.create(["chu", "urlik"]),
    "chu-guard": lambda: Game.create(["chu", "guard"]),
    "two_vs_two": lambda: Game.from_scene("two_vs_two"),
}


def windows(g: Game, fights: int) -> list[tuple[Any, Any]]:
    """(state, window) at every maneuver window of ``fights`` seeded random fights."""
    out = []
    for seed in range(fights):
        s = g.new_state(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(400):
            if s.is_over:
                break
            w = getattr(s.stack[-1], "window", None)
            if w is not None:
                out.append((s.clone(), w))
            ch = s.legal_choices()
            s.apply(ch[int(rng.integers(len(ch)))])
    return out


def best(fn: Callable[[], Any], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def bench(name: str, fights: int, rounds: int) -> None:
    g = GAMES[name]()
    cases = windows(g, fights)
    ids = Ids(g.tables)
    ct = compile_tables(g.tables)
    native = [(core_state(s, ids), core_window(ids, w)) for s, w in cases]
    for s, w in cases:  # warm the Python memo
        legality.maneuver_choices(s, w)
    n = len(cases)
    py = best(lambda: [legality.maneuver_choices(s, w) for s, w in cases], rounds)
    core = best(lambda: [_core.maneuver_choices(ct, cs, cw) for cs, cw in native], rounds)
    buf = np.zeros((4096, 5), np.int32)
    into = best(lambda: [_core.maneuver_choices_into(ct, cs, cw, buf) for cs, cw in native], rounds)
    inner = min(sum(_core.time_maneuver_choices(ct, cs, cw, 20) for cs, cw in native) / 20
                for _ in range(rounds))
    conv = best(lambda: [nr.maneuver_choices(s, w, ids) for s, w in cases], rounds)
    choices = sum(len(legality.maneuver_choices(s, w)) for s, w in cases) / n
    print(f"{name}: {n} states, {choices:.1f} legal choices each; calls/s (x Python):\n"
          f"  Python, memo warm          {n / py:11,.0f}\n"
          f"  native, new numpy array    {n / core:11,.0f} ({py / core:5.1f}x)\n"
          f"  native, into a buffer      {n / into:11,.0f} ({py / into:5.1f}x)\n"
          f"  native, inside the core    {n / inner:11,.0f} ({py / inner:5.1f}x)\n"
          f"  native from Python objects {n / conv:11,.0f} ({py / conv:5.2f}x)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fights", type=int, default=20, help="fights per game (default 20)")
    ap.add_argument("--rounds", type=int, default=5, help="timing rounds, best kept (default 5)")
    args = ap.parse_args()
    for name in GAMES:
        bench(name, args.fights, args.rounds)


if __name__ == "__main__":
    main()

"""The armed duel's speed (ArmedDuel-v0, first published as Duel-v2) against Duel-v1's:
random legal play, observation + mask every step.

The same loop as ``scripts/bench_env.py``'s Duel-v0 one (read ``info["action_mask"]``,
pick a uniformly random legal id, step), through ``gymnasium.make`` of each id with its
defaults (Duel-v1: the Chu mirror, 369 ids, 280 numbers; ArmedDuel-v0: Chu against the guard,
824 ids, 442 numbers), one process pinned to one core, the two interleaved round by round
so that a busy machine slows both alike; the median round of each is printed.

    python scripts/bench_duel_v2.py                 # steps/s of both and their ratio
    python scripts/bench_duel_v2.py --steps 20000 --rounds 5 --json
"""

from __future__ import annotations

import argparse
import json
import statistics

from bench_env import _pin_one_core, bench_duel  # the same loop, one copy (scripts/ on sys.path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=10_000, help="steps per round and env")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median kept)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="one JSON line instead of text")
    a = ap.parse_args(argv)
    if a.steps < 1 or a.rounds < 1:
        ap.error(f"--steps {a.steps} / --rounds {a.rounds}: both must be at least 1")
    pinned = _pin_one_core()
    rates: dict[str, list[float]] = {"hexdojo/Duel-v1": [], "hexdojo/ArmedDuel-v0": []}
    for r in range(a.rounds):
        for env_id, out in rates.items():
            out.append(bench_duel(a.steps, a.seed + r, env_id=env_id))
    med = {k: statistics.median(v) for k, v in rates.items()}
    ratio = med["hexdojo/ArmedDuel-v0"] / med["hexdojo/Duel-v1"]
    if a.json:
        print(json.dumps({"steps": a.steps, "rounds": a.rounds, "pinned": pinned,
                          "steps_per_s": med, "v2_over_v1": ratio}))
    else:
        for k, v in med.items():
            print(f"{k}: {v:,.0f} steps/s (median of {a.rounds} x {a.steps:,} steps; {pinned})")
        print(f"ArmedDuel-v0 / Duel-v1: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Group-fight env speed: random legal play through hexdojo/Skirmish-v0 on a few scenes,
against PettingZoo's connect_four_v3 in the same process, on one core.

The loop is ``bench_env``'s (read ``info["action_mask"]``, pick a uniformly random legal
id, step); the env is made with ``gymnasium.make`` as users make it, the agent plays place
0 against uniform random legal play, and the observation (the ``Dict``, or the flat vector
with ``--flat``) and the exact mask are written on every step (``skirmish_spaces.observe``).
Rounds alternate the scenes with connect four so that machine noise hits all alike; the
medians and each scene's ratio to connect four are reported.

    python scripts/bench_skirmish.py                      # two_vs_one, two_vs_two, monk_vs_two_guards
    python scripts/bench_skirmish.py --steps 20000 --rounds 5 --flat --json
"""

from __future__ import annotations

import argparse
import json
import statistics

import gymnasium as gym
from bench_env import _pin_one_core, bench_connect_four, bench_duel_env

import hexdojo.envs  # noqa: F401 - registers the ids

SCENES = ("two_vs_one", "two_vs_two", "monk_vs_two_guards")


def bench_scene(scene: str, steps: int, seed: int, flat: bool) -> float:
    """Env steps/s of place 0 of ``scene`` under random legal actions (obs + mask)."""
    env = gym.make("hexdojo/Skirmish-v0", scene=scene, fighter=0, flat_observation=flat)
    return bench_duel_env(env, steps, seed)


def measure(scenes: list[str], steps: int, rounds: int, seed: int, flat: bool) -> dict:
    """Median steps/s of each scene and of connect four, and each scene's ratio."""
    for sc in scenes:  # warm-up: imports, caches
        bench_scene(sc, 500, seed, flat)
    bench_connect_four(500, seed)
    got: dict[str, list[float]] = {sc: [] for sc in [*scenes, "connect_four_v3"]}
    for r in range(rounds):
        for sc in scenes:
            got[sc].append(bench_scene(sc, steps, seed + r, flat))
        got["connect_four_v3"].append(bench_connect_four(steps, seed + r))
    med = {k: statistics.median(v) for k, v in got.items()}
    c4 = med["connect_four_v3"]
    return {"steps_per_s": {k: round(v) for k, v in med.items()},
            "ratio": {sc: round(med[sc] / c4, 2) for sc in scenes},
            "steps": steps, "rounds": rounds, "flat": flat}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", nargs="+", default=list(SCENES))
    ap.add_argument("--steps", type=int, default=5000, help="env steps per round and scene")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds; medians reported")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--flat", action="store_true", help="flat_observation=True")
    ap.add_argument("--json", action="store_true", help="one JSON line instead of text")
    args = ap.parse_args(argv)
    pin = _pin_one_core()
    out = measure(args.scenes, args.steps, args.rounds, args.seed, args.flat) | {"cpu": pin}
    if args.json:
        print(json.dumps(out))
        return 0
    c4 = out["steps_per_s"]["connect_four_v3"]
    form = "flat" if args.flat else "Dict"
    for sc in args.scenes:
        print(f"Skirmish-v0 {sc:<20} {out['steps_per_s'][sc]:>8,} env steps/s = "
              f"{out['ratio'][sc]:.2f}x connect_four_v3  ({form} + mask)")
    print(f"connect_four_v3 {'':<16} {c4:>8,} env steps/s  (random legal, obs + mask; {pin})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

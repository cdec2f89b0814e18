"""``hexdojo train``'s steps per second on the main job's configuration, the Python envs and
the native vector env side by side in one run (issue 30), with where the time went.

Both runs train the shipped ``agents/hyperparams/duel_v1.toml`` (chu vs boris, the pool of
the five scripted styles and self-play snapshots, 4,096 steps a rollout) for ``--steps``
learner steps without the imitation warm start or the periodic evaluation (neither is what
is compared). The old path: ``vec_env = "dummy"``, 4 envs x 1,024 steps, the opponents
called from Python each decision. The new one: ``vec_env = "native"``, 64 duels x 64 steps
(the same rollout), the scripted opponents inside the core, the snapshots answered in one
batch. Prints steps per second of the learning phase and where the time went: the
environments as PPO sees them (``run.json``'s profile, the opponents' thinking among it),
the policy's forwards with SB3's rollout bookkeeping, and the updates (``MaskablePPO.train``).

    python scripts/bench_train.py                  # 40,000 steps each
    python scripts/bench_train.py --steps 20000 --json bench_train.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from sb3_contrib import MaskablePPO

from hexdojo.agents.training.config import load_config
from hexdojo.agents.training.ppo import train

PATHS = {"python (dummy, 4 envs)": {"vec_env": "dummy", "n_envs": 4, "ppo": {"n_steps": 1024}},
         "native (64 duels)": {"vec_env": "native", "n_envs": 64, "ppo": {"n_steps": 64}}}


class UpdateTimer:
    """Seconds inside ``MaskablePPO.train`` (the updates), to split SB3's share in two."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._train = MaskablePPO.train

    def __enter__(self) -> UpdateTimer:
        timer, train = self, self._train

        def timed(model, *args, **kwargs):
            t0 = time.perf_counter()
            try:
                return train(model, *args, **kwargs)
            finally:
                timer.seconds += time.perf_counter() - t0

        MaskablePPO.train = timed
        return self

    def __exit__(self, *exc: object) -> None:
        MaskablePPO.train = self._train


def run(label: str, steps: int, overrides: dict) -> dict:
    """One training run of ``steps`` steps in a temporary folder: its time profile."""
    cfg = load_config(None, {**overrides, "total_steps": steps, "imitation": {"fights": 0},
                             "eval": {"every": 10 * steps}, "pool": {"snapshot_every": 4096},
                             "checkpoint_every": 10 * steps, "checkpoint_seconds": 86_400})
    with tempfile.TemporaryDirectory() as tmp, UpdateTimer() as updates:
        t0 = time.perf_counter()
        train(cfg, Path(tmp) / "run", progress=False)
        wall = time.perf_counter() - t0
        prof = json.loads((Path(tmp) / "run" / "run.json").read_text())
    learn = prof["wall_seconds"]
    out = {"path": label, "steps": prof["steps"], "learn_seconds": learn, "total_seconds": round(wall, 1),
           "steps_per_second": round(prof["steps"] / learn, 1), "env_seconds": prof["env_seconds"],
           "opponent_seconds": prof["opponent_seconds"],
           "update_seconds": round(updates.seconds, 2)}
    out["collection_seconds"] = round(learn - prof["env_seconds"] - prof["eval_seconds"] - updates.seconds, 2)
    print(f"{label}: {out['steps_per_second']:,.0f} steps/s ({out['steps']:,} steps in {learn:.1f} s: "
          f"envs {out['env_seconds']:.1f} s, of which opponents {out['opponent_seconds']:.1f} s; "
          f"policy forwards and SB3's bookkeeping {out['collection_seconds']:.1f} s; "
          f"updates {out['update_seconds']:.1f} s)", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=40_000)
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args(argv)
    rows = [run(label, args.steps, ov) for label, ov in PATHS.items()]
    ratio = rows[1]["steps_per_second"] / rows[0]["steps_per_second"]
    print(f"the native path trains {ratio:.2f}x as many steps per second")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "ratio": round(ratio, 3)}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

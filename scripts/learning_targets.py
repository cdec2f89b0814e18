"""Learning targets of issue 4, measured: MaskablePPO against one fixed opponent.

Trains an NPC (``hexdojo.agents.training``) against a single opponent for a step budget,
then plays held-out fights (half on each side, fixed seeds) and prints the win rate with
its 95 % Wilson interval, the number of illegal actions the masked agent executed, and the
share of training wall time spent inside the environments.

    python scripts/learning_targets.py --opponent random --steps 50000
    python scripts/learning_targets.py --opponent grappler --steps 200000 --fighters chu chu

Targets: >= 90 % vs random within 50k env steps; >= 60 % vs the weakest style bot within
200k (>= 80 % within 1M); 0 illegal actions; environment time <= 15 % of training time.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

from hexdojo.agents.policy import LearnedAgent
from hexdojo.agents.training.config import load_config
from hexdojo.agents.training.evaluate import evaluate
from hexdojo.agents.training.ppo import train
from hexdojo.envs.rules import Game


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--steps", type=int, default=50_000)
    ap.add_argument("--fighters", nargs=2, default=["chu", "boris"])
    ap.add_argument("--episodes", type=int, default=400, help="held-out evaluation fights")
    ap.add_argument("--n-envs", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None, help="run folder (default runs/target_<opponent>_<steps>)")
    ap.add_argument("--config", default=None, help="training TOML (e.g. [ppo] settings)")
    args = ap.parse_args()
    out = Path(args.out or f"runs/target_{args.opponent.replace(':', '_')}_{args.steps}")
    cfg = load_config(args.config, overrides={
        "name": out.name, "fighters": args.fighters, "total_steps": args.steps,
        "n_envs": args.n_envs, "seed": args.seed,
        "pool": {"scripted": [args.opponent], "self_play": False},
        "eval": {"every": max(args.steps // 5, 1), "episodes": 40, "opponents": [args.opponent]},
        "checkpoint_every": max(args.steps // 5, 1),
    })
    t0 = time.time()
    final = train(cfg, out, resume=(out / "checkpoints" / "latest.zip").exists())
    stats = json.loads((out / "run.json").read_text())
    game = Game.create(list(args.fighters), turn_limit=cfg.turn_limit, radius=cfg.radius)
    illegal = 0
    best = out / "best.zip"
    for label, path in (("final model", final), ("best evaluated checkpoint", best)):
        if not path.is_file():
            continue
        agent = LearnedAgent.load(path)
        rate = evaluate(agent, game, [args.opponent], args.episodes, seed=1_000_000)[args.opponent]
        lo, hi = wilson(rate, args.episodes)
        illegal += agent.illegal
        print(f"MaskablePPO ({args.fighters[0]} vs {args.fighters[1]}, sides alternating), "
              f"{label}, within {stats['steps']:,} env steps vs {args.opponent}: win rate "
              f"{rate:.1%} (95% CI {lo:.1%}-{hi:.1%}, {args.episodes} held-out fights with "
              "seeds the training evaluation never saw; draws count half)")
    print(f"illegal actions executed by the masked agents: {illegal}")
    if stats.get("env_fraction") is not None:
        print(f"environment time: {stats['env_fraction']:.1%} of {stats['wall_seconds']:.0f} s "
              f"training wall time (evaluation {stats.get('eval_seconds', 0):.0f} s of it)")
    if stats.get("opponent_fraction") is not None:
        print(f"  of which the opponents' thinking (pool agents' act): "
              f"{stats['opponent_fraction']:.1%}; the environment proper (rules, observation, "
              f"mask): {stats['rules_env_fraction']:.1%}")
    print(f"total script time {time.time() - t0:.0f} s; run folder {out}")


if __name__ == "__main__":
    main()

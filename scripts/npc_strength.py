"""What each training step buys the main job's NPC, with intervals.

Trains one NPC the way ``hexdojo train`` does (the shipped hyper-parameters, the main
job's pairing), optionally cloning a scripted teacher first (``--clone-fights``), then
plays it against the scripted ladder on held-out seeds, both sides, and prints each win
rate (draws half) with its 95 % Wilson interval.

    python scripts/npc_strength.py --steps 150000                       # today's recipe
    python scripts/npc_strength.py --clone-fights 2000 --steps 150000   # warm start
    python scripts/npc_strength.py --clone-fights 2000 --steps 0        # the clone alone
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from hexdojo.agents.imitation import clone, demonstrate
from hexdojo.agents.policy import LearnedAgent
from hexdojo.agents.ratings import wilson
from hexdojo.agents.registry import make_agent
from hexdojo.agents.tournament import play_fight


def score(agent, game, opponent: str, fights: int, seed: int) -> tuple[float, float, float]:
    opp = make_agent(opponent)
    pts = 0.0
    for k in range(fights):
        side = k % 2
        r = play_fight(game, (agent, opp) if side == 0 else (opp, agent), seed + k)
        pts += 0.5 if r.winner is None else float(r.winner == side)
    lo, hi = wilson(pts, fights)
    return pts / fights, lo, hi


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=150_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pool", nargs="+", default=None, help="scripted pool (default: config)")
    ap.add_argument("--clone-fights", type=int, default=0)
    ap.add_argument("--teacher", default="greedy")
    ap.add_argument("--clone-opponents", nargs="+",
                    default=["random", "greedy", "striker", "grappler", "counter"])
    ap.add_argument("--clone-epochs", type=int, default=8)
    ap.add_argument("--lr", type=float, default=None, help="PPO learning rate after cloning")
    ap.add_argument("--fights", type=int, default=200, help="evaluation fights per opponent")
    ap.add_argument("--against", nargs="+", default=["greedy", "striker", "counter"])
    ap.add_argument("--save", type=Path, default=None)
    a = ap.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from hexdojo.agents.training.config import load_config
    from hexdojo.agents.training.ppo import ppo_kwargs, train_game
    from hexdojo.agents.training.vecenv import make_env_fn

    torch.set_num_threads(1)
    over = {"seed": a.seed, "total_steps": max(a.steps, 1)}
    cfg = load_config(None, over)
    if a.pool:
        cfg.pool.scripted = list(a.pool)
    cfg.pool.self_play = False
    if a.lr is not None:
        cfg.ppo.learning_rate = a.lr
    game = train_game(cfg)
    vec = DummyVecEnv([make_env_fn(cfg, r, None) for r in range(cfg.n_envs)])
    vec.seed(cfg.seed)
    model = MaskablePPO("MlpPolicy", vec, **ppo_kwargs(cfg.ppo), seed=cfg.seed, verbose=0)
    out: dict = {"args": vars(a) | {"save": str(a.save)}}
    t0 = time.perf_counter()
    if a.clone_fights:
        demos = demonstrate(game, make_agent(a.teacher),
                            [make_agent(o) for o in a.clone_opponents], a.clone_fights, 10_000)
        fit = clone(model.policy, demos, epochs=a.clone_epochs, seed=a.seed)
        out["clone"] = {"decisions": len(demos), **fit, "s": time.perf_counter() - t0}
        print("clone", out["clone"], flush=True)
    if a.steps:
        t1 = time.perf_counter()
        model.learn(total_timesteps=a.steps)
        out["ppo_s"] = time.perf_counter() - t1
        print(f"ppo {a.steps} steps in {out['ppo_s']:.0f} s", flush=True)
    agent = LearnedAgent(model, name="npc")
    out["eval"] = {}
    for opp in a.against:
        p, lo, hi = score(agent, game, opp, a.fights, 1_000_000)
        out["eval"][opp] = [p, lo, hi]
        print(f"  vs {opp:<9} {100 * p:5.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]", flush=True)
    if a.save:
        model.save(str(a.save))
    print(json.dumps(out))


if __name__ == "__main__":
    main()

"""The README's environment snippet against ``hexdojo train``, per env step, in one process
(issue 14: "the snippet took 1,755 s for 40k steps, hexdojo train 62 s for 20k").

Variants, each learning ``--steps`` env steps on hexdojo/Duel-v1 (random opponent unless
said), timed as wall seconds per 1,000 env steps; the update phase is timed apart through
SB3's ``train`` (the gradient steps) so that the cause shows:

* ``readme``: the snippet exactly (``MultiInputPolicy``, SB3's defaults: n_steps 2048,
  batch 64, 10 epochs, a 64x64 net; torch's default thread count);
* ``readme+1thread``: the same after ``torch.set_num_threads(1)``;
* ``readme+flat``: one thread, ``flat_observation=True`` and ``MlpPolicy``;
* ``readme+train-ppo``: one thread, flat, and ``hexdojo train``'s PPO settings
  (``agents/hyperparams/duel_v1.toml``: n_steps 1024, batch 512, a 256x256 net);
* ``hexdojo-train``: ``hexdojo train`` itself (its pool of scripted opponents and
  self-play, its evaluations), ``total_steps = --steps``.

    python scripts/snippet_speed.py --steps 16384
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

import gymnasium as gym

import hexdojo.envs  # noqa: F401  (registers the envs)


def timed_learn(model: Any, steps: int) -> tuple[float, float]:
    """(wall seconds, of which in ``model.train``: the gradient updates)."""
    spent = [0.0]
    inner = model.train

    def train() -> None:
        t0 = time.perf_counter()
        inner()
        spent[0] += time.perf_counter() - t0

    model.train = train
    t0 = time.perf_counter()
    model.learn(steps)
    return time.perf_counter() - t0, spent[0]


def snippet(policy: str, flat: bool, train_ppo: bool, seed: int) -> Any:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    kwargs: dict[str, Any] = {}
    if train_ppo:
        from hexdojo.agents.training.config import load_config
        from hexdojo.agents.training.ppo import ppo_kwargs

        kwargs = ppo_kwargs(load_config().ppo)
    env = make_vec_env("hexdojo/Duel-v1", n_envs=4, seed=seed,
                       env_kwargs={"flat_observation": True} if flat else None)
    return MaskablePPO(policy, env, seed=seed, **kwargs)


def hexdojo_train(steps: int) -> tuple[float, float]:
    from hexdojo.agents.training.config import load_config
    from hexdojo.agents.training.ppo import train

    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        train(load_config(overrides={"total_steps": steps}), Path(tmp) / "run", progress=False)
        return time.perf_counter() - t0, float("nan")


def main() -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=16384)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*", help="variant names to run")
    a = ap.parse_args()
    print(f"gymnasium {gym.__version__}, torch {torch.__version__}, "
          f"default torch threads {torch.get_num_threads()}, {a.steps} env steps each")
    variants = [("readme", "MultiInputPolicy", False, False, None),
                ("readme+1thread", "MultiInputPolicy", False, False, 1),
                ("readme+flat", "MlpPolicy", True, False, 1),
                ("readme+train-ppo", "MlpPolicy", True, True, 1)]
    rows = []
    for name, policy, flat, ppo, threads in variants:
        if a.only and name not in a.only:
            continue
        if threads:
            torch.set_num_threads(threads)
        wall, upd = timed_learn(snippet(policy, flat, ppo, a.seed), a.steps)
        rows.append((name, wall, upd))
        print(f"{name:<18} {1000 * wall / a.steps:7.2f} s/1k steps  (updates "
              f"{1000 * upd / a.steps:6.2f}, collecting {1000 * (wall - upd) / a.steps:6.2f})",
              flush=True)
    if not a.only or "hexdojo-train" in a.only:
        torch.set_num_threads(1)
        wall, _ = hexdojo_train(a.steps)
        rows.append(("hexdojo-train", wall, float("nan")))
        print(f"{'hexdojo-train':<18} {1000 * wall / a.steps:7.2f} s/1k steps", flush=True)
    base = dict((n, w) for n, w, _ in rows).get("hexdojo-train")
    if base:
        for n, w, _ in rows:
            print(f"ratio {n} / hexdojo-train: {w / base:.1f}x")


if __name__ == "__main__":
    main()

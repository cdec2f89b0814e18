"""Where a MaskablePPO update's time goes on the main job's configuration, and what the
settings a 2-core machine allows buy (issue 30): one update (``MaskablePPO.train``) over
the same 4,096-step rollout of 64 native duels, timed under each variant side by side in
one process, the variants interleaved and repeated (the least of the repeats is kept:
a shared machine only ever adds time).

``hexdojo train``'s native path spends most of its learning phase here
(``scripts/bench_train.py``), so this is the ceiling of its steps per second. Each row
gives the update's seconds, its minibatches, milliseconds per minibatch and its speed-up
over the shipped setting; ``--profile`` adds cProfile's top functions of one update
of the first variant (the backward pass, the linear layers, the masked distribution's
normalisations, Adam).

    python scripts/bench_ppo_update.py                 # every variant, 3 repeats
    python scripts/bench_ppo_update.py --repeat 5 --profile
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import pstats
import sys
import time
from collections.abc import Iterator
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from hexdojo.agents.training.config import load_config
from hexdojo.agents.training.ppo import ppo_kwargs
from hexdojo.agents.training.vecenv import make_vec_env

#: the variants: ``[ppo]`` overrides, plus ``threads`` (torch's intra-op threads) and
#: ``bf16`` (CPU autocast to bfloat16, fast only where the CPU has AMX / AVX512-BF16) and
#: ``flush`` (``torch.set_flush_denormal``: denormal floats read as zero)
VARIANTS: dict[str, dict[str, Any]] = {
    "10 epochs x batch 512, 256x256 (before)": {"n_epochs": 10, "batch_size": 512},
    "  the same, 2 torch threads": {"n_epochs": 10, "batch_size": 512, "threads": 2},
    "  the same, bfloat16 autocast": {"n_epochs": 10, "batch_size": 512, "bf16": True},
    "  the same, denormals flushed": {"n_epochs": 10, "batch_size": 512, "flush": True},
    "10 epochs x batch 256": {"n_epochs": 10, "batch_size": 256},
    "10 epochs x batch 1024": {"n_epochs": 10, "batch_size": 1024},
    "10 epochs x batch 4096": {"n_epochs": 10, "batch_size": 4096},
    "10 epochs x batch 512, 128x128": {"n_epochs": 10, "batch_size": 512, "net_arch": [128, 128]},
    "5 epochs x batch 1024": {"n_epochs": 5, "batch_size": 1024},
    "4 epochs x batch 512": {"n_epochs": 4, "batch_size": 512},
    "3 epochs x batch 1024": {"n_epochs": 3, "batch_size": 1024},
    "2 epochs x batch 512 (shipped)": {"n_epochs": 2, "batch_size": 512},
    "4 epochs x batch 512, bfloat16 autocast": {"n_epochs": 4, "batch_size": 512, "bf16": True},
}


class _Nothing(BaseCallback):
    def _on_step(self) -> bool:
        return True


def rollout_model(ppo: dict[str, Any]) -> MaskablePPO:
    """A seeded model of the main job's config with ``ppo``'s overrides, its rollout buffer
    filled by one rollout of the scripted pool on the native duels (seed 0: every variant
    updates on the same data)."""
    cfg = load_config(None, {"pool": {"self_play": False}, "ppo": ppo})
    model = MaskablePPO("MlpPolicy", make_vec_env(cfg, None), **ppo_kwargs(cfg.ppo), seed=0,
                        device="cpu", verbose=0)
    model._setup_learn(cfg.ppo.n_steps * cfg.n_envs, None)
    callback = _Nothing()
    callback.init_callback(model)
    model.collect_rollouts(model.env, callback, model.rollout_buffer, model.n_steps)
    return model


@contextlib.contextmanager
def setting(spec: dict[str, Any]) -> Iterator[None]:
    """torch's thread count, the autocast and the denormals' flush for one update, put
    back afterwards."""
    before = torch.get_num_threads()
    torch.set_num_threads(spec.get("threads", 1))
    torch.set_flush_denormal(spec.get("flush", False))
    try:
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=spec.get("bf16", False)):
            yield
    finally:
        torch.set_num_threads(before)
        torch.set_flush_denormal(False)


def timed_update(model: MaskablePPO, spec: dict[str, Any]) -> float:
    """Seconds of one update from the same weights and optimizer state every time."""
    state = {k: v.clone() for k, v in model.policy.state_dict().items()}
    opt = model.policy.optimizer.state_dict()
    with setting(spec):
        t0 = time.perf_counter()
        model.train()
        seconds = time.perf_counter() - t0
    model.policy.load_state_dict(state)
    model.policy.optimizer.load_state_dict(opt)
    return seconds


def profile_update(model: MaskablePPO) -> str:
    """cProfile's 12 costliest functions (own time) of one update."""
    prof = cProfile.Profile()
    prof.runcall(timed_update, model, {})
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(12)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="timed updates per variant")
    ap.add_argument("--profile", action="store_true", help="also profile the first variant")
    args = ap.parse_args(argv)
    torch.distributions.Distribution.set_default_validate_args(False)  # as hexdojo train
    ppo_keys = ("n_epochs", "batch_size", "net_arch")
    models = {name: rollout_model({k: v for k, v in spec.items() if k in ppo_keys})
              for name, spec in VARIANTS.items()}
    times: dict[str, list[float]] = {name: [] for name in VARIANTS}
    for _ in range(args.repeat):
        for name, spec in VARIANTS.items():
            times[name].append(timed_update(models[name], spec))
    base = min(next(iter(times.values())))
    for name in VARIANTS:
        model, best = models[name], min(times[name])
        batches = model.n_epochs * -(-model.rollout_buffer.buffer_size * model.n_envs // model.batch_size)
        print(f"{name:44s} {best:6.3f} s  {batches:3d} minibatches x {1000 * best / batches:5.1f} ms"
              f"  {base / best:4.2f}x  (all: {', '.join(f'{t:.2f}' for t in times[name])})")
    if args.profile:
        print(profile_update(next(iter(models.values()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The training speed scripts compare what they say they compare (issue 30): the README's
"`hexdojo train` steps/s" row rests on ``scripts/bench_train.py``'s rows and ratios, and
the update's split on ``scripts/bench_ppo_update.py``'s variants."""

from __future__ import annotations

import torch

from hexdojo.agents.training.config import load_config
from tests.scripts_kit import load_script


def test_bench_train_compares_both_paths_on_both_update_settings():
    """Four runs: each path with the update settings before issue 30's last step (10
    epochs of 512) and with the shipped ones; the same 4,096-step rollout on both paths;
    every ratio names two of the rows, the target's against the Python envs before."""
    bench = load_script("bench_train")
    runs = bench.runs()
    assert len(runs) == 4
    shipped = load_config().ppo
    for label, ov in runs.items():
        cfg = load_config(None, ov)
        assert cfg.n_envs * cfg.ppo.n_steps == 4096, label
        assert cfg.vec_env == ("native" if label.startswith("native") else "dummy")
        if label.endswith("before"):
            assert (cfg.ppo.n_epochs, cfg.ppo.batch_size) == (10, 512), label
        else:
            assert (cfg.ppo.n_epochs, cfg.ppo.batch_size) == (shipped.n_epochs, shipped.batch_size)
    for _, top, bottom in bench.RATIOS:
        assert top in runs and bottom in runs and top != bottom
    assert bench.RATIOS[0][1:] == ("native (64 duels), shipped", "python (dummy, 4 envs), before")


def test_bench_ppo_update_puts_torch_back_after_each_variant():
    """A variant's threads, autocast and denormal flush last for its update only: the next
    variant (and the base it is compared with) runs on one thread in float32."""
    bench = load_script("bench_ppo_update")
    before = torch.get_num_threads()
    with bench.setting({"threads": 2, "bf16": True, "flush": True}):
        assert torch.get_num_threads() == 2
        assert torch.is_autocast_enabled("cpu")
    assert torch.get_num_threads() == before and not torch.is_autocast_enabled("cpu")
    first = next(iter(bench.VARIANTS.values()))
    assert first == {"n_epochs": 10, "batch_size": 512}, "the base: the setting before"

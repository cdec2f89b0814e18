"""``hexdojo train --backend rllib``: multi-agent self-play PPO on Ray RLlib (extra ``rllib``).

Why RLlib: when one machine is not enough (big leagues, long style sweeps) the same command
runs on a Ray cluster (``ray start --head`` on one machine, ``ray start --address=HEAD:6379``
on the others, then ``hexdojo train --backend rllib --address auto``): env runners and
learners are placed by Ray, not by home-made code (docs/integrations.md).

What it trains: the PettingZoo ``duel_v1`` env (flat observation) through RLlib's
``PettingZooEnv`` wrapper, the observation under the keys RLlib's action-masking RLModule
expects (``{"observations": ..., "action_mask": ...}``), RLlib's
``ActionMaskingTorchRLModule`` (the mask's log added to the logits: a masked action is
never sampled), and self-play: ``policy_mapping_fn`` maps both fighters to the one policy
``main``. The run folder holds ``checkpoint/`` (RLlib's ``save_to_path``, written to a
temporary folder and renamed) and ``hexdojo_rllib.json`` (the env options), which
``make_agent(<folder>)`` loads as an agent (:class:`RLlibAgent`) for tournaments and play.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import BaseWrapper

from .base import Agent, AgentError

ENV_NAME = "hexdojo_duel_v1"
POLICY = "main"
MARKER = "hexdojo_rllib.json"


def need_rllib() -> None:
    """One clear line when ray[rllib] is missing."""
    try:
        import ray.rllib  # noqa: F401
    except ImportError:
        raise ValueError("the rllib backend needs the rllib extra: python -m pip install "
                         "'torch==2.13.0' -e '.[rl,rllib]'") from None


class RLlibKeys(BaseWrapper):
    """``{"observation", "action_mask" int8}`` -> ``{"observations", "action_mask" float32}``:
    the keys and dtype RLlib's action-masking RLModule expects."""

    def observation_space(self, agent: str) -> spaces.Space:
        inner = self.env.observation_space(agent)
        n = inner["action_mask"].shape[0]
        return spaces.Dict({"observations": inner["observation"],
                            "action_mask": spaces.Box(0.0, 1.0, (n,), np.float32)})

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        o = self.env.observe(agent)
        return {"observations": o["observation"], "action_mask": o["action_mask"].astype(np.float32)}


def masked_env(env_options: dict[str, Any]) -> Any:
    """``duel_v1`` with a flat observation, renamed to RLlib's masking keys, as an RLlib
    ``MultiAgentEnv`` (``PettingZooEnv``)."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from hexdojo.envs import duel_v1

    return PettingZooEnv(RLlibKeys(duel_v1.env(**{**env_options, "flat_observation": True})))


def build_config(env_options: dict[str, Any], env_runners: int = 1, seed: int = 0,
                 train_batch: int = 1024, minibatch: int = 256, epochs: int = 4,
                 hidden: tuple[int, ...] = (256, 256), lr: float = 3e-4) -> Any:
    """The PPO ``AlgorithmConfig``: masking RLModule, self-play mapping, env runners."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env(ENV_NAME, masked_env)
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                          model_config={"head_fcnet_hiddens": list(hidden)})
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config=dict(env_options))
        .framework("torch")
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=1)
        .multi_agent(policies={POLICY}, policy_mapping_fn=self_play_mapping,
                     policies_to_train=[POLICY])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: module}))
        .training(train_batch_size_per_learner=train_batch, minibatch_size=minibatch,
                  num_epochs=epochs, lr=lr)
        .debugging(seed=seed)
    )


def self_play_mapping(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Both fighters (``player_0`` and ``player_1``) are played by the one policy."""
    return POLICY


def train_rllib(out: Path, env_options: dict[str, Any], iterations: int, env_runners: int = 1,
                seed: int = 0, address: str | None = None, log: Callable[[str], None] = print,
                **ppo: Any) -> dict[str, Any]:
    """Train ``iterations`` PPO iterations; checkpoint into ``out``; the measured figures."""
    import ray

    need_rllib()
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 **({} if address else {"num_cpus": max(2, env_runners + 1)}))
    algo = build_config(env_options, env_runners, seed, **ppo).build_algo()
    rows: list[dict[str, Any]] = []
    try:
        for i in range(iterations):
            t0 = time.perf_counter()
            res = algo.train()
            runners = res.get("env_runners", {})
            steps = int(runners.get("num_env_steps_sampled", 0))
            dt = time.perf_counter() - t0
            rows.append({"iteration": i + 1, "env_steps": steps, "seconds": dt,
                         "steps_per_s": steps / dt if dt else 0.0,
                         "episodes": int(runners.get("num_episodes", 0))})
            log(f"iteration {i + 1}/{iterations}: {steps} env steps in {dt:.1f} s "
                f"({rows[-1]['steps_per_s']:.0f} steps/s)")
        save_checkpoint(algo, out, env_options)
    finally:
        algo.stop()
        if started:
            ray.shutdown()
    return {"iterations": rows, "checkpoint": str(out / "checkpoint"), "env_runners": env_runners}


def save_checkpoint(algo: Any, out: Path, env_options: dict[str, Any]) -> None:
    """RLlib's checkpoint into ``out/checkpoint`` (a temp folder, then renamed) + the marker."""
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / f".checkpoint.tmp{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    algo.save_to_path(str(tmp.resolve()))
    final = out / "checkpoint"
    if final.exists():
        old = out / f".checkpoint.old{os.getpid()}"
        os.replace(final, old)
        os.replace(tmp, final)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp, final)
    marker = out / (MARKER + ".tmp")
    marker.write_text(json.dumps({"env": "duel_v1", "env_options": env_options,
                                  "policy": POLICY}, indent=2) + "\n")
    os.replace(marker, out / MARKER)


def is_rllib_run(spec: str) -> bool:
    """A folder written by ``train_rllib`` (holds ``hexdojo_rllib.json``)."""
    p = Path(spec.strip())
    return p.is_dir() and (p / MARKER).is_file()


class RLlibAgent(Agent):
    """The trained RLlib policy as a hexdojo agent: the masking module's greedy action on
    the same observation the env gives the deciding fighter."""

    def __init__(self, folder: str | Path, name: str | None = None) -> None:
        need_rllib()
        from ray.rllib.core.rl_module.rl_module import RLModule

        from hexdojo.envs.duel import make_game
        from hexdojo.envs.observation import encoder_for

        folder = Path(folder)
        meta = json.loads((folder / MARKER).read_text())
        path = folder / "checkpoint" / "learner_group" / "learner" / "rl_module" / meta["policy"]
        if not path.is_dir():
            raise AgentError(f"rllib run {str(folder)!r}: no policy checkpoint at {path}")
        self.module = RLModule.from_checkpoint(str(path.resolve()))
        opts = meta["env_options"]
        game = make_game(opts.get("fighters", ("chu", "chu")), opts.get("rules"),
                         opts.get("radius", 4), opts.get("turn_limit"), opts.get("scene"))
        self.encoder = encoder_for(game)
        self.catalogue = self.encoder.cat  # armed when a fighter carries a weapon
        self.scale = opts.get("observation_scale", "unit")
        self.name = name or folder.name

    def act(self, state: Any) -> Any:
        import torch

        i = state.decision.fighter
        flat, mask = self.encoder.encode_with_mask(state, i)
        self.encoder.rescale(flat, self.scale)
        batch = {"obs": {"observations": torch.as_tensor(flat[None]),
                         "action_mask": torch.as_tensor(mask[None].astype(np.float32))}}
        with torch.no_grad():
            logits = self.module.forward_inference(batch)["action_dist_inputs"][0].numpy()
        logits = np.where(mask > 0, logits, -np.inf)
        return self.catalogue.choice_for(int(np.argmax(logits)), state, i)

"""``hexdojo train --backend rllib``: multi-agent self-play PPO on Ray RLlib (extra ``rllib``).

Why RLlib: when one machine is not enough (big leagues, long style sweeps) the same command
and the same TOML run on a Ray cluster (``ray start --head`` on one machine, ``ray start
--address=HEAD:6379`` on the others, then ``RAY_ADDRESS=HEAD:6379 hexdojo train --backend
rllib``): env runners and learners are placed by Ray, not by home-made code
(docs/training.md; the run itself: :mod:`hexdojo.agents.training.rllib_run`).

What it trains: the PettingZoo ``duel_v1`` env (flat observation) through RLlib's
``PettingZooEnv`` wrapper, the observation under the keys RLlib's action-masking RLModule
expects (``{"observations": ..., "action_mask": ...}``), RLlib's
``ActionMaskingTorchRLModule`` (the mask's log added to the logits: a masked action is
never sampled), and self-play: ``policy_mapping_fn`` maps both fighters to the one policy
``main``. The run folder holds ``checkpoints/iter_N/`` (RLlib's ``save_to_path``) and
``hexdojo_rllib.json`` (the env options, the committed checkpoint, the counts), which
``make_agent(<folder>)`` loads as an agent (:class:`RLlibAgent`) for tournaments and play.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import BaseWrapper

from hexdojo.envs.observation import encoder_for

from .base import Agent, AgentError

if TYPE_CHECKING:
    from .training.config import TrainConfig

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

    from hexdojo.envs import duel_v1  # optional: ray's path only (the CLI imports this module)

    return PettingZooEnv(RLlibKeys(duel_v1.env(**{**env_options, "flat_observation": True})))


def env_options(cfg: TrainConfig) -> dict[str, Any]:
    """The ``duel_v1`` options of a run's configuration (what its checkpoint plays)."""
    return {"fighters": list(cfg.fighters), "rules": cfg.rules, "radius": cfg.radius,
            "turn_limit": cfg.turn_limit, "shaping": cfg.shaping,
            "observation_scale": cfg.observation_scale, "scene": cfg.scene}


def batch_per_runner(cfg: TrainConfig) -> int:
    """Env steps each runner samples per iteration (default: an SB3 rollout's)."""
    return cfg.rllib.train_batch_per_runner or cfg.ppo.n_steps * cfg.n_envs


def train_batch(cfg: TrainConfig) -> int:
    """The iteration's train batch: grows with the env runners (the driver samples when
    there are none)."""
    return batch_per_runner(cfg) * max(1, cfg.rllib.num_env_runners)


def build_config(cfg: TrainConfig) -> Any:
    """The PPO ``AlgorithmConfig``: masking RLModule, self-play mapping, env runners and
    learners as the run's ``rllib`` section says, the batch split among the learners."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env(ENV_NAME, masked_env)
    r, p = cfg.rllib, cfg.ppo
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                          model_config={"head_fcnet_hiddens": list(p.net_arch)})
    per_learner = -(-train_batch(cfg) // max(1, r.num_learners))
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config=env_options(cfg))
        .framework("torch")
        .env_runners(num_env_runners=r.num_env_runners, num_envs_per_env_runner=cfg.n_envs)
        .learners(num_learners=r.num_learners)
        .multi_agent(policies={POLICY}, policy_mapping_fn=self_play_mapping,
                     policies_to_train=[POLICY])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: module}))
        .training(train_batch_size_per_learner=per_learner,
                  minibatch_size=min(p.batch_size, per_learner), num_epochs=p.n_epochs,
                  lr=p.learning_rate, gamma=p.gamma, lambda_=p.gae_lambda,
                  entropy_coeff=p.ent_coef, clip_param=p.clip_range)
        .debugging(seed=cfg.seed)
    )


def self_play_mapping(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Both fighters (``player_0`` and ``player_1``) are played by the one policy."""
    return POLICY


def read_marker(folder: Path) -> dict[str, Any]:
    """``hexdojo_rllib.json`` of a run folder, or one line saying what is wrong with it."""
    path = folder / MARKER
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise AgentError(f"rllib run {str(folder)!r}: cannot read {MARKER} ({exc})") from None
    if not isinstance(meta, dict) or "env_options" not in meta:
        raise AgentError(f"rllib run {str(folder)!r}: {MARKER} is not a hexdojo rllib run")
    return meta


def checkpoint_dir(folder: Path, meta: dict[str, Any]) -> Path:
    """The committed checkpoint the marker names (``checkpoint/`` for runs before resume)."""
    return folder / meta.get("checkpoint", "checkpoint")


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

        from hexdojo.envs.duel import make_game  # optional: ray's path only, as above

        folder = Path(folder)
        meta = read_marker(folder)
        path = checkpoint_dir(folder, meta) / "learner_group" / "learner" / "rl_module" / meta["policy"]
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

"""Training configuration: the shipped recommended settings, optionally overridden.

``hexdojo train``'s defaults are data, the way the RL Zoo keeps a ``hyperparams/*.yml``
per environment: ``agents/hyperparams/duel_v1.toml`` (``HYPERPARAMS``), then the user's
TOML file, then command-line flags. Every value is validated; a bad one gets one error
naming the file, the field, the value and what is allowed. The defaults train a Chu NPC
against a mixed pool for a few minutes on two cores. The models' ``Field`` defaults are
the schema's fallback and equal the shipped file (tested).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from hexdojo.envs.rules.ruleset import RulesError, deep_merge, read_toml

#: The recommended settings for hexdojo/Duel-v1 that ``load_config`` starts from.
HYPERPARAMS = Path(__file__).resolve().parent / "hyperparams" / "duel_v1.toml"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PPOConfig(_Model):
    """MaskablePPO hyper-parameters (sb3-contrib names)."""

    # Chosen by measurement (scripts/learning_targets.py, README Benchmarks): a 256x256
    # net with 10 epochs won more than 128x128 / 5 epochs and spends a smaller share of
    # the wall time in the environments; a linearly decaying learning rate kept the late
    # part of a 1M-step run from drifting (80.5 % vs 73.5 % against the striker); no
    # entropy bonus won more in 1M steps against the grappler on both seeds tried
    # (79.6 % / 74.5 % vs 78.6 % / 71.0 % with 0.01) and the same within 50k vs random.
    learning_rate: float = Field(3e-4, gt=0, le=1)
    n_steps: int = Field(1024, ge=8, le=1_000_000)
    batch_size: int = Field(512, ge=8, le=1_000_000)
    n_epochs: int = Field(10, ge=1, le=100)
    gamma: float = Field(0.995, gt=0, le=1)
    gae_lambda: float = Field(0.95, gt=0, le=1)
    ent_coef: float = Field(0.0, ge=0, le=1)
    clip_range: float = Field(0.2, gt=0, le=1)
    lr_schedule: Literal["constant", "linear"] = "linear"  # linear: decays to 0 at the end
    net_arch: list[int] = Field(default_factory=lambda: [256, 256])

    @field_validator("net_arch")
    @classmethod
    def _arch(cls, v: list[int]) -> list[int]:
        if not v or any(n < 1 or n > 4096 for n in v):
            raise ValueError("layer sizes must be 1..4096, at least one layer")
        return v


class PoolConfig(_Model):
    """Who the learner fights: scripted ladder bots mixed with frozen snapshots of itself."""

    scripted: list[str] = Field(default_factory=lambda: ["random", "striker", "grappler", "counter"],
                                min_length=1)
    self_play: bool = True
    self_play_prob: float = Field(0.3, ge=0, le=1)
    snapshot_every: int = Field(10_000, ge=1)
    max_snapshots: int = Field(5, ge=1, le=100)


class EvalConfig(_Model):
    every: int = Field(25_000, ge=1)
    episodes: int = Field(20, ge=1, le=100_000)
    opponents: list[str] = Field(default_factory=lambda: ["random", "striker", "grappler", "counter"])


class TrainConfig(_Model):
    """A training run (``hexdojo train --config FILE``)."""

    name: str = Field("npc", pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    fighters: list[str] = Field(default_factory=lambda: ["chu", "boris"], min_length=2, max_length=2)
    side: Literal["alternate", "random", "0", "1"] = "alternate"
    #: a scene (shipped name or TOML): train one place of it on hexdojo/Skirmish-v0, every
    #: other place played by the pool; its fighters, start and arena replace ``fighters``
    scene: str | None = None
    #: with a scene, the place the learner plays (None: a random place each episode)
    place: int | None = Field(None, ge=0, le=7)
    radius: int = Field(4, ge=1, le=20)
    turn_limit: int = Field(20, ge=1, le=10_000)
    rules: str | None = None
    shaping: float = Field(0.05, ge=0, le=1)  # reward per wound level inflicted minus taken
    # "unit": Duel-v1's observation (every number in [-1, 1]); "raw": Duel-v0's
    observation_scale: Literal["raw", "unit"] = "unit"
    total_steps: int = Field(150_000, ge=1, le=1_000_000_000)
    n_envs: int = Field(4, ge=1, le=256)
    vec_env: Literal["dummy", "subproc"] = "dummy"
    seed: int = Field(0, ge=0)
    checkpoint_every: int = Field(25_000, ge=1)
    #: also checkpoint after this many seconds of wall time since the last one, so that a
    #: run killed in its first minutes resumes (a checkpoint costs well under a second)
    checkpoint_seconds: float = Field(60.0, gt=0, le=86_400)
    device: Literal["cpu", "auto", "cuda"] = "cpu"
    ppo: PPOConfig = Field(default_factory=PPOConfig)
    pool: PoolConfig = Field(default_factory=PoolConfig)
    eval: EvalConfig = Field(default_factory=EvalConfig)


def load_config(path: str | Path | None = None, overrides: Mapping[str, Any] | None = None) -> TrainConfig:
    """``HYPERPARAMS``, then the TOML file at ``path``, then ``overrides`` (e.g. CLI flags)."""
    raw: dict[str, Any] = read_toml(HYPERPARAMS)
    source = str(HYPERPARAMS)
    if path is not None:
        raw = deep_merge(raw, read_toml(path))
        source = str(path)
    if overrides:
        raw = deep_merge(raw, {k: v for k, v in overrides.items() if v is not None})
    try:
        return TrainConfig.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"])
        raise RulesError(
            f"{source}: field '{field}': value {err.get('input')!r}: {err['msg']}"
        ) from None

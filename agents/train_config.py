"""Compatibility: the training configuration now lives in :mod:`hexdojo.agents.training.config`."""

from .training.config import (  # noqa: F401
    HYPERPARAMS,
    EvalConfig,
    PoolConfig,
    PPOConfig,
    TrainConfig,
    load_config,
)

"""Compatibility: training now lives in the :mod:`hexdojo.agents.training` package.

Kept because checkpoints written before the split pickle their learning-rate schedule as
``hexdojo.agents.train._linear``: they must still load (and resume) unchanged.
"""

from .training.callbacks import PROGRESS_EVERY  # noqa: F401
from .training.evaluate import evaluate, evaluate_env  # noqa: F401
from .training.pool import PoolOpponent  # noqa: F401
from .training.ppo import LinearSchedule as _linear  # noqa: F401
from .training.ppo import ppo_kwargs, train, train_game  # noqa: F401
from .training.rundir import (  # noqa: F401
    RunDir,
    atomic_save_model,
    check_same_config,
    read_eval,
    save_meta,
    snapshot_paths,
    write_eval,
)
from .training.vecenv import AlternateSides, make_env_fn, time_profile  # noqa: F401

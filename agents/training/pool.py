"""The opponent pool: each fight, a scripted ladder bot or a frozen snapshot of the learner
(self-play kept honest by scripted bots, ANCHORS pitfall 4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..base import Agent
from ..policy import LearnedAgent
from ..registry import make_agent
from .rundir import snapshot_paths


class PoolOpponent(Agent):
    """Each fight, one opponent drawn from the scripted ladder or the learner's snapshots.

    Snapshots are read from a folder at the start of each fight, so environments in other
    processes see new snapshots without any messaging.
    """

    def __init__(self, scripted: list[str], snapshot_dir: str | Path | None,
                 self_play_prob: float, seed: int = 0) -> None:
        self.name = "pool"
        self.scripted = [make_agent(s) for s in scripted]
        self.snapshot_dir = Path(snapshot_dir) if snapshot_dir is not None else None
        self.self_play_prob = self_play_prob
        self._rng = np.random.default_rng(seed)
        self._seed = seed
        self._loaded: dict[str, Agent] = {}
        self.current: Agent = self.scripted[0]

    def _snapshots(self) -> list[Path]:
        return snapshot_paths(self.snapshot_dir)

    def _snapshot_agent(self, path: Path) -> Agent:
        """The snapshot at ``path`` as a (sampling) agent, loaded once per process."""
        agent = self._loaded.get(str(path))
        if agent is None:
            # its own sampling seeded from the pool's seed and the snapshot's name: the native
            # pool's batched answers (batch_act) draw from it, so a run replays its seed
            name_key = [int(b) for b in path.name.encode()]
            agent = LearnedAgent.load(path, deterministic=False, seed=[self._seed, *name_key])
            self._loaded[str(path)] = agent
        return agent

    def seed(self, seed: int) -> None:
        """Called by the environment at each reset: draw this fight's opponent."""
        self._rng = np.random.default_rng(seed)
        snaps = self._snapshots()
        if snaps and self._rng.random() < self.self_play_prob:
            self.current = self._snapshot_agent(snaps[int(self._rng.integers(len(snaps)))])
        else:
            self.current = self.scripted[int(self._rng.integers(len(self.scripted)))]
        self.current.reset(int(self._rng.integers(2**31)))

    def reset(self, seed: int | None = None) -> None:
        self.seed(0 if seed is None else seed)

    def native_pool(self, game: Any) -> tuple[list[Any], float, list[Agent]] | None:
        """The pool for the native vector env (issue 30): the scripted bots as native
        players, the snapshots found now as batched policies drawn with ``self_play_prob``;
        None if a scripted bot has no native form (the env then refuses the pool)."""
        players = [a.native_player(game) for a in self.scripted]
        if any(p is None for p in players):
            return None
        snaps = [self._snapshot_agent(p) for p in self._snapshots()]
        return players, self.self_play_prob if snaps else 0.0, snaps

    def act(self, state: Any) -> Any:
        return self.current.act(state)
